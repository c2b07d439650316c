import Foundation

/// The words a page's lines read surely, for the vote of its other lines. People repeat their words on
/// a page ("new green / new Cyan / new magenta"), so a slot whose renders are torn between "yew" and
/// "new" leans to the one the writer used on another line.
struct PageWords {
    /// Each word (lower case, without the punctuation around it) and the lines that read it surely.
    private var lines: [String: Set<Int>] = [:]

    /// `readings[line][render]` are the words each render of each line read, with confidences 0…1.
    /// A word counts when it has three letters or more, the lexicon holds it, and one render read it
    /// with at least `minimumConfidence`; hashtags do not.
    init(_ readings: [[[(text: String, confidence: Float)]]], lexicon: Lexicon, minimumConfidence: Float) {
        for (line, renders) in readings.enumerated() {
            for words in renders {
                for word in words where word.confidence >= minimumConfidence && !word.text.hasPrefix("#") {
                    let key = Self.key(word.text)
                    guard key.filter(\.isLetter).count >= 3, lexicon.accepts(key) else { continue }
                    lines[key, default: []].insert(line)
                }
            }
        }
    }

    /// Whether `word` (any case, punctuation around it ignored) was read surely on a line other than `line`.
    func isRead(_ word: String, besides line: Int) -> Bool {
        lines[Self.key(word)].map { Self.includesOther(than: line, $0) } ?? false
    }

    /// The words (lower case) read surely on a line other than `line`, in alphabetical order.
    func words(besides line: Int) -> [String] {
        lines.filter { Self.includesOther(than: line, $0.value) }.map(\.key).sorted()
    }

    /// Whether `found` holds a line other than `line`.
    private static func includesOther(than line: Int, _ found: Set<Int>) -> Bool {
        found.count > 1 || !found.contains(line)
    }

    /// The word in lower case without the punctuation around it (`New,` → `new`; `mech-pencil` stays).
    private static func key(_ text: String) -> String {
        text.lowercased().trimmingCharacters(in: Lexicon.surrounding)
    }
}
