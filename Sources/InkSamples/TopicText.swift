extension Topic {
    /// A note's text on this topic: the title on top of the first page, then `sentencesPerPage`
    /// of the topic's lines on every page (each used once before any repeats), with
    /// `hashtagsPerPage` hashtags mixed among their words, mostly at the end of a line.
    public func noteText(pages: Int, sentencesPerPage: Int, hashtagsPerPage: Int,
                         rng: inout SeededGenerator) -> NoteText {
        var sentenceDeck = Deck(sentences)
        var tagDeck = Deck(hashtags)
        var result: [[String]] = []
        for pageIndex in 0..<max(1, pages) {
            var lines = (0..<max(1, sentencesPerPage)).map { _ in
                sentenceDeck.draw(&rng).split(separator: " ").map(String.init)
            }
            for _ in 0..<max(0, hashtagsPerPage) {
                let line = rng.index(below: lines.count)
                let position = rng.unit() < 0.7 ? lines[line].count : 1 + rng.index(below: lines[line].count)
                lines[line].insert("#" + tagDeck.draw(&rng), at: position)
            }
            let written = lines.map { (bulleted ? "- " : "") + $0.joined(separator: " ") }
            result.append(pageIndex == 0 ? [title] + written : written)
        }
        return NoteText(pages: result)
    }
}

/// Draws items in a random order, reshuffling once all have been drawn.
private struct Deck {
    let items: [String]
    var order: [String] = []

    init(_ items: [String]) { self.items = items }

    mutating func draw(_ rng: inout SeededGenerator) -> String {
        if order.isEmpty { order = rng.shuffled(items) }
        return order.removeLast()
    }
}
