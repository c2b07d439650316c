// libFuzzer entry point for the text side of search (built by scripts/fuzz.sh together with
// Sources/InkIndex/SearchTerms.swift, which holds no GRDB, so its internal functions are reachable; not
// by swift build: it has no main of its own). Running a query needs the SQLite index, which is not fuzzed.
//
// The input's first line is the query text (as `inkwell search WORDS…` joins it); each further line is
// tried as a `--tag` and as a `--notebook`. What a user relies on: words are found and lowercased as
// the index keeps them; the FTS5 expression built from them is well quoted whatever they hold; a
// snippet of the query's own text marks its words; nothing traps.
import Foundation
import InkCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSearch(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let input = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    let lines = input.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let text = lines.first ?? ""
    for line in lines.dropFirst() {
        if let tag = Tag(line), Tag(tag.name) != tag { fatalError("tag \(tag) does not read back as itself") }
        if let notebook = try? NotebookPath(line), (try? NotebookPath(notebook.description)) != notebook {
            fatalError("notebook \(notebook) does not read back as itself")
        }
    }

    let ranges = SearchTerms.wordRanges(in: text)
    for (a, b) in zip(ranges, ranges.dropFirst()) where !(a.upperBound < b.lowerBound) {
        fatalError("word ranges overlap or touch")
    }
    let terms = SearchTerms.terms(in: text)
    guard terms.count == ranges.count else { fatalError("\(terms.count) terms for \(ranges.count) words") }
    for term in terms {
        guard !term.isEmpty else { fatalError("an empty term in \(text.debugDescription)") }
    }
    let matches = terms.map { WordMatch(word: $0, completions: [$0 + "s"], nearby: []) }
    for match in matches {
        // `("word" OR "words")`: read back as FTS5 reads it (bytes; a quote inside a phrase is doubled), it
        // must give exactly the word and its alternatives, so no query text can change the expression.
        guard phrases(Array(match.expression.utf8)) == [match.word] + match.alternatives.sorted() else {
            fatalError("expression \(match.expression.debugDescription) does not read back as its words")
        }
    }
    if !terms.isEmpty {
        // (Scalars: "«" followed by a combining mark is one Character.)
        guard let snippet = Snippet.make(from: text, matching: matches), snippet.unicodeScalars.contains("«") else {
            fatalError("the query's own text gives no snippet marking its words")
        }
    }
    if let first = terms.first {
        var edits = EditDistance(to: Array(first.unicodeScalars), limit: 2)
        guard edits.distance(from: first.unicodeScalars) == 0 else { fatalError("\(first) is not at distance 0 from itself") }
        for other in terms.prefix(8) {
            let distance = edits.distance(from: other.unicodeScalars)
            var back = EditDistance(to: Array(other.unicodeScalars), limit: 2)
            // Beyond the limit only "more than the limit" is meant, whichever way round.
            guard distance >= 0, min(distance, 3) == min(back.distance(from: first.unicodeScalars), 3) else {
                fatalError("edit distance \(first) → \(other) is \(distance)")
            }
        }
    }
    return 0
}

/// The phrases of `("a" OR "b" …)`, as FTS5's query syntax reads them; nil when it is not that shape.
func phrases(_ bytes: [UInt8]) -> [String]? {
    let quote = UInt8(ascii: "\""), separator = Array(" OR ".utf8)
    guard bytes.first == UInt8(ascii: "("), bytes.last == UInt8(ascii: ")") else { return nil }
    var found: [String] = []
    var i = 1
    while true {
        guard i < bytes.count, bytes[i] == quote else { return nil }
        i += 1
        var phrase: [UInt8] = []
        while true {
            guard i < bytes.count else { return nil }
            if bytes[i] == quote {
                if i + 1 < bytes.count, bytes[i + 1] == quote { phrase.append(quote); i += 2; continue }
                i += 1
                break
            }
            phrase.append(bytes[i])
            i += 1
        }
        found.append(String(decoding: phrase, as: UTF8.self))
        if i == bytes.count - 1 { return found }
        guard Array(bytes[i..<min(bytes.count, i + separator.count)]) == separator else { return nil }
        i += separator.count
    }
}
