import InkCore

/// The text a note is written from, page by page. Each entry of a page starts a new line on the
/// paper (a long one wraps onto the next lines); an empty entry leaves a ruled line empty.
/// Only printable ASCII is kept, so every character has a glyph: common typographic marks
/// become their ASCII forms and anything else becomes `?`.
public struct NoteText: Sendable, Hashable {
    public private(set) var pages: [[String]]

    public init(pages: [[String]]) {
        self.pages = pages.map { $0.map(NoteText.writable) }
    }

    /// Plain text: one entry per line; a line holding only `---`, or a form feed, turns the page.
    /// Blank lines at the top or bottom of a page are dropped.
    public init(plainText: String) {
        var pages: [[String]] = [[]]
        for line in plainText.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            for (index, part) in line.split(separator: "\u{0C}", omittingEmptySubsequences: false).enumerated() {
                if index > 0 { pages.append([]) }
                let text = part.trimmingWhitespace()
                if text == "---" { pages.append([]) } else { pages[pages.count - 1].append(text) }
            }
        }
        let trimmed = pages.map { page in
            Array(page.drop(while: \.isEmpty).reversed().drop(while: \.isEmpty).reversed())
        }
        self.init(pages: trimmed.filter { !$0.isEmpty })
    }

    /// The tag a word writes when it is a hashtag: `#` and a valid ``Tag`` name, ignoring
    /// punctuation after it (`#budget.` is `budget`).
    public static func hashtag(in word: String) -> Tag? {
        guard word.hasPrefix("#") else { return nil }
        return Tag(String(word.reversed().drop(while: { ".,;:!?)\"'".contains($0) }).reversed()))
    }

    private static func writable(_ text: String) -> String {
        let replacements: [Character: String] = [
            "\u{2018}": "'", "\u{2019}": "'", "\u{201C}": "\"", "\u{201D}": "\"", "\u{2013}": "-", "\u{2014}": "-",
            "\u{2026}": "...", "\u{00A0}": " ", "\t": " ",
        ]
        let mapped = text.map { character -> String in
            if let ascii = character.asciiValue, (32...126).contains(ascii) { return String(character) }
            return replacements[character] ?? "?"
        }
        return mapped.joined().split(separator: " ").joined(separator: " ")
    }
}

extension Substring {
    fileprivate func trimmingWhitespace() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
