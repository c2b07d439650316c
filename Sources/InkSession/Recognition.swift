import InkCore

extension OpenNote {
    /// Adds recognised hashtags to the note's tags, except those removed by hand. Strokes and the
    /// stroke in progress are untouched. Results for pages not in the note are ignored.
    mutating func recognitionFinished(_ page: PageID, hashtags: [Tag], _ step: inout Step) {
        guard pageIndex[page] != nil else { return }
        if !tagging.adopt(hashtags: hashtags).isEmpty { step.effects.append(.updateTags(id, tags: tags)) }
    }
}
