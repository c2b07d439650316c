import InkIndex

/// Whether a page that a search for `query` returned holds what was asked for, by its transcription
/// (`truth`, its lines): every word of the query is written on it, as itself, as the beginning of a
/// longer word (search completes words: "adopt" finds "adoption") or as an inflection of it ("pens"
/// finds "pen"). Search precision is the share of returned pages that do.
func holds(_ query: String, truth: [String]) -> Bool {
    let written = Set(SearchTerms.terms(in: truth.joined(separator: " ")))
    return SearchTerms.terms(in: query).allSatisfy { word in
        let forms = Inflection.forms(of: word)
        return written.contains { $0.hasPrefix(word) || forms.contains($0) }
    }
}
