import Foundation

// The pure text side of search: how a query's text becomes words, how they are matched and shown.
// No GRDB here, so that scripts/fuzz.sh can compile this file alone (Sources/FuzzSearch).

/// How text splits into the words the index keeps, for queries and indexed text alike.
package enum SearchTerms {
    /// The words of a text as the index keeps them: letters and digits, lowercased, without diacritics.
    package static func terms(in text: String) -> [String] {
        wordRanges(in: text).map { term(text[$0]) }
    }

    /// Where the words of `text` are: runs of letters, digits and the marks on them, as FTS5's
    /// unicode61 tokenizer splits text (ASCII without looking up Unicode properties).
    package static func wordRanges(in text: String) -> [Range<String.Index>] {
        var ranges: [Range<String.Index>] = []
        var start: String.Index?
        let scalars = text.unicodeScalars
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            let inWord: Bool
            if scalar.isASCII {
                let value = scalar.value
                inWord = (value >= 0x30 && value <= 0x39) || (value | 0x20 >= 0x61 && value | 0x20 <= 0x7A)
            } else {
                let properties = scalar.properties
                inWord = properties.isAlphabetic || properties.numericType != nil || properties.generalCategory == .nonspacingMark
            }
            if inWord, start == nil { start = index }
            if !inWord, let from = start {
                ranges.append(from..<index)
                start = nil
            }
            index = scalars.index(after: index)
        }
        if let from = start { ranges.append(from..<scalars.endIndex) }
        return ranges
    }

    /// One word as the index keeps it (ASCII, the common case, without going through Foundation).
    package static func term(_ word: Substring) -> String {
        word.utf8.allSatisfy { $0 < 0x80 } ? word.lowercased()
            : word.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
    }
}

/// What one query word matches: itself, the most used indexed words it begins, and indexed words
/// a typo away.
package struct WordMatch {
    package let word: String
    package let alternatives: Set<String>

    package init(word: String, completions: [String], nearby: [String]) {
        self.word = word
        alternatives = Set(completions + nearby).subtracting([word])
    }

    /// `("word" OR "alternative" OR …)`.
    package var expression: String {
        "(" + ([word] + alternatives.sorted()).map(quoted).joined(separator: " OR ") + ")"
    }

    /// Whether an indexed word (as ``SearchTerms/terms(in:)`` gives it) matches.
    package func matches(_ term: String) -> Bool {
        term == word || alternatives.contains(term)
    }
}

/// A few words of recognised text around the first place a query matches, matched words in «».
package enum Snippet {
    /// Words shown.
    static let length = 12

    /// Nil when no word of `text` matches.
    package static func make(from text: String, matching words: [WordMatch]) -> String? {
        // Only ASCII words of a length some alternative has are compared (most are not, and cost nothing);
        // other words always are, as folding may change their length ("Straße" is "strasse").
        let lengths = Set(words.flatMap { [$0.word.unicodeScalars.count] + $0.alternatives.map(\.unicodeScalars.count) })
        let spans = SearchTerms.wordRanges(in: text).map { range in
            let word = text[range]
            return (range: range, matched: (lengths.contains(word.unicodeScalars.count) || !word.utf8.allSatisfy { $0 < 0x80 })
                && words.contains { $0.matches(SearchTerms.term(word)) })
        }
        guard let first = spans.firstIndex(where: \.matched) else { return nil }
        let from = max(0, min(first - 2, spans.count - length)), to = min(spans.count, from + length)
        var snippet = from > 0 ? "…" : ""
        var cursor = spans[from].range.lowerBound
        for span in spans[from..<to] {
            snippet += text[cursor..<span.range.lowerBound]
            snippet += span.matched ? "«" + text[span.range] + "»" : String(text[span.range])
            cursor = span.range.upperBound
        }
        return snippet + (to < spans.count ? "…" : "")
    }
}

/// A string as an FTS5 phrase: in double quotes, with any double quote doubled.
func quoted(_ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}

/// Edit distance to one word, counting insertions, deletions, substitutions and swaps of neighbours
/// (optimal string alignment), giving up (returning limit + 1) once it must exceed `limit`. Made once
/// and used for many candidates: its rows are allocated once.
package struct EditDistance {
    package let target: [Unicode.Scalar]
    package let limit: Int
    private var twoBack: [Int], previous: [Int], current: [Int]
    private var source: [Unicode.Scalar] = []

    package init(to target: [Unicode.Scalar], limit: Int) {
        self.target = target
        self.limit = limit
        twoBack = [Int](repeating: 0, count: target.count + 1)
        previous = twoBack
        current = twoBack
    }

    package mutating func distance(from word: String.UnicodeScalarView) -> Int {
        source.removeAll(keepingCapacity: true)
        source.append(contentsOf: word)
        let a = source, b = target
        if abs(a.count - b.count) > limit { return limit + 1 }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        for j in 0...b.count { previous[j] = j }
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = i
            for j in 1...b.count {
                var cost = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { cost = min(cost, twoBack[j - 2] + 1) }
                current[j] = cost
                rowMinimum = min(rowMinimum, cost)
            }
            if rowMinimum > limit { return limit + 1 }
            swap(&twoBack, &previous)
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
