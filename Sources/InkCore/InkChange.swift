/// One change of a page's ink, as the editor session made it: a stroke drawn (its pen up, the stall
/// rule, leaving), strokes erased, an undo or a redo, or a page added. The live note journals it,
/// the room sends it and the browser applies it; nobody compares pages to find it again.
public struct InkChange: Sendable, Equatable {
    /// The page changed.
    public var page: PageID
    /// The page's size and paper (what a page new to the reader is made with).
    public var size: PageSize
    public var template: PageTemplate
    /// True when this change added the page (empty, at the end of the note).
    public var isNewPage: Bool
    /// The strokes added, each with its position on the page after the change, in increasing
    /// position order.
    public var added: [PlacedStroke]
    /// Ids of the strokes removed.
    public var removed: [StrokeID]
    /// The writer's key of the stroke this change drew (its pen up), or of the erasure, undo or redo
    /// that made it when the writer keyed it (the live note gives it); nil for any other change.
    public var key: String?

    public init(page: PageID, size: PageSize, template: PageTemplate, isNewPage: Bool = false,
                added: [PlacedStroke] = [], removed: [StrokeID] = [], key: String? = nil) {
        self.page = page
        self.size = size
        self.template = template
        self.isNewPage = isNewPage
        self.added = added
        self.removed = removed
        self.key = key
    }
}

/// A stroke and where it stands on its page.
public struct PlacedStroke: Sendable, Equatable {
    /// Its position among the page's strokes.
    public var index: Int
    public var stroke: Stroke

    public init(index: Int, stroke: Stroke) {
        self.index = index
        self.stroke = stroke
    }
}

extension Page {
    /// The page after `change` (which was made to this page as it is): its strokes removed, then its
    /// strokes added at their positions.
    public mutating func apply(_ change: InkChange) {
        if !change.removed.isEmpty {
            let removed = Set(change.removed)
            strokes.removeAll { removed.contains($0.id) }
        }
        for placed in change.added { strokes.insert(placed.stroke, at: placed.index) }
    }
}
