/// A recognised word with where it is on the page and how sure the recogniser was.
public struct RecognizedWord: Sendable, Hashable, Codable {
    public var text: String
    /// The word's box in page pixels.
    public var box: Rect
    /// 0…1.
    public var confidence: Float
    /// The index of the text line the word belongs to (reading order).
    public var line: Int

    public init(text: String, box: Rect, confidence: Float, line: Int) {
        self.text = text
        self.box = box
        self.confidence = confidence
        self.line = line
    }
}

/// What recognition found on one page.
public struct PageRecognition: Sendable, Hashable, Codable {
    /// Words in reading order.
    public var words: [RecognizedWord]
    /// Hashtags written on the page (without `#`).
    public var hashtags: [Tag]
    /// Other readings of the page's writing that the recogniser weighed and did not take (up to four
    /// per word slot, each one or more words): search matches them too, ranked below the words read.
    public var alternatives: [String]

    public init(words: [RecognizedWord], hashtags: [Tag], alternatives: [String] = []) {
        self.words = words
        self.hashtags = hashtags
        self.alternatives = alternatives
    }

    private enum CodingKeys: String, CodingKey { case words, hashtags, alternatives }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        words = try container.decode([RecognizedWord].self, forKey: .words)
        hashtags = try container.decode([Tag].self, forKey: .hashtags)
        alternatives = try container.decodeIfPresent([String].self, forKey: .alternatives) ?? []
    }

    /// The page's text: one line of text per recognised line, words separated by spaces.
    public var text: String { words.lines.map(\.text).joined(separator: "\n") }
}

/// Turns a page of ink into words and hashtags. One recogniser is used by one thread at a time;
/// the indexing job makes one per worker.
public protocol PageRecognizer {
    func recognize(_ page: Page) throws -> PageRecognition
}

/// A line of text and the box its words cover on the page, in page units (a line of a PDF's
/// invisible text layer).
public struct TextLine: Sendable, Hashable, Codable {
    public var text: String
    public var bounds: Rect

    public init(text: String, bounds: Rect) {
        self.text = text
        self.bounds = bounds
    }
}

extension Sequence<RecognizedWord> {
    /// One line per recognised line (words in reading order, joined by spaces), covering its words.
    public var lines: [TextLine] {
        var lines: [TextLine] = []
        var current: Int?
        for word in self {
            if word.line == current, var last = lines.popLast() {
                last.text += " " + word.text
                last.bounds = last.bounds.union(word.box)
                lines.append(last)
            } else {
                lines.append(TextLine(text: word.text, bounds: word.box))
                current = word.line
            }
        }
        return lines
    }
}
