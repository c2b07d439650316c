import InkCore

/// Something the session asks its shell to do. Effects know nothing of any UI; apply them in order.
public enum SessionEffect: Sendable, Equatable {
    /// Store these page changes, then send ``SessionEvent/saveFinished(_:at:)`` or
    /// ``SessionEvent/saveFailed(_:reason:at:)`` with the request's id. Never two at once.
    case save(SaveRequest)
    /// The ink of a page changed, or a page was added: the one account of the change, for a shell
    /// that journals it or shows it elsewhere (the session's pages already hold it).
    case inkChanged(InkChange)
    /// Run handwriting recognition on these pages of the note (they have just been saved).
    case recognize(NoteID, pages: [PageID])
    /// The note's tags are now `tags` (recognised hashtags were added).
    case updateTags(NoteID, tags: Set<Tag>)
    /// Show the navigation chrome (focus mode off).
    case showNavigation
    /// Hide the navigation chrome (focus mode on).
    case hideNavigation
    /// Ask the user whether to leave with unsaved changes; answer with ``SessionEvent/leaveAnswered(_:at:)``.
    case confirmLeave
    /// Close the note: the session has let go of it.
    case leave
    /// Tell the user something went wrong.
    case reportError(String)
    /// The app has been in the background long enough: the note's draft is final (its changes are
    /// saved by the save requests before this effect; the undo history is gone).
    case finalizeDraft(NoteID)
    /// A diagnostic for developers only.
    case debugLog(String)
}

/// Identifies a save request, so its outcome can be matched to it. Unique within a session.
public struct SaveRequestID: Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt64
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }
    public var description: String { String(rawValue) }
}

/// What to store: the changes to a note's pages since the last successful save.
public struct SaveRequest: Sendable, Equatable {
    /// Send it back in ``SessionEvent/saveFinished(_:at:)`` or ``SessionEvent/saveFailed(_:reason:at:)``.
    public let id: SaveRequestID
    public let noteID: NoteID
    /// One delta per changed page, in the note's page order (new pages come last, in the order added).
    public let pages: [PageDelta]

    public init(id: SaveRequestID, noteID: NoteID, pages: [PageDelta]) {
        self.id = id
        self.noteID = noteID
        self.pages = pages
    }
}

