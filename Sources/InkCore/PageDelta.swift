/// The changes to one page since the last successful save: what the editor session asks the store
/// to write, and what the store appends to the page file.
public struct PageDelta: Sendable, Equatable {
    public var pageID: PageID
    /// The page's size and paper, written when the page file is created.
    public var size: PageSize
    public var template: PageTemplate
    /// True when the page has never been stored: the store creates it (and appends it to the note).
    public var isNew: Bool
    /// Strokes to add, in increasing id order (which is drawing order).
    public var addedStrokes: [Stroke]
    /// Ids of stored strokes to remove, in increasing order.
    public var removedStrokeIDs: [StrokeID]

    public init(pageID: PageID, size: PageSize = .remarkable, template: PageTemplate = PageTemplate(), isNew: Bool,
                addedStrokes: [Stroke] = [], removedStrokeIDs: [StrokeID] = []) {
        self.pageID = pageID
        self.size = size
        self.template = template
        self.isNew = isNew
        self.addedStrokes = addedStrokes
        self.removedStrokeIDs = removedStrokeIDs
    }
}
