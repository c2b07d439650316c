/// A recognised word with where it is on the page and how sure the recogniser was.
public struct RecognisedWord: Sendable, Hashable, Codable {
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
    public var words: [RecognisedWord]
    /// Hashtags written on the page (without `#`).
    public var hashtags: [Tag]

    public init(words: [RecognisedWord], hashtags: [Tag]) {
        self.words = words
        self.hashtags = hashtags
    }

    /// The page's text: one line of text per recognised line, words separated by spaces.
    public var text: String {
        var lines: [String] = []
        var current = -1
        for word in words {
            if word.line != current {
                lines.append(word.text)
                current = word.line
            } else {
                lines[lines.count - 1] += " " + word.text
            }
        }
        return lines.joined(separator: "\n")
    }
}

/// Turns a page of ink into words and hashtags. One recogniser is used by one thread at a time;
/// the indexing job makes one per worker.
public protocol PageRecognizer {
    func recognize(_ page: Page) throws -> PageRecognition
}
