import InkCore

/// Something that happened to the editor, and when.
///
/// `at` is in seconds on any clock (virtual or real). A time earlier than the latest one seen, or one
/// that isn't finite, is taken as the latest one seen, so the session's clock never runs backwards.
public enum SessionEvent: Sendable, Equatable {
    /// Opens a note with its stored pages (none for a new or imported note) and its tags.
    /// `nextStrokeIDs` gives, for stored pages, the least id a new stroke may take: above the ids of
    /// strokes since erased or undone, so that an id never names two strokes of a page.
    case enterNote(NoteID, pages: [Page] = [], tags: Set<Tag> = [], removedTags: Set<Tag> = [],
                   nextStrokeIDs: [PageID: StrokeID] = [:], at: Double)
    /// Appends an empty page to the open note and makes it the current page.
    case addPage(PageID, size: PageSize = .remarkable, template: PageTemplate = PageTemplate(), at: Double)
    /// Makes a page of the open note the current page.
    case selectPage(PageID, at: Double)
    /// A pen touches `page`: the stroke named `key` begins. Strokes with different keys are drawn at
    /// the same time, each its own, none waiting for another (each writer sharing a note has its keys;
    /// a replay draws one stroke at a time). A key already in progress is ignored. The point's `time`
    /// is set by the session.
    /// `writer` names who writes it (nil: the note's one writer): undo and redo take back a writer's own.
    case strokeDown(key: String, page: PageID, InkPoint, tool: Tool = .pen, color: RGBA = .black, width: Float = 2,
                    writer: String? = nil, at: Double)
    /// The pen of stroke `key` moves through `points` (their `time` is set by the session).
    case strokeMove(key: String, [InkPoint], at: Double)
    /// The pen of stroke `key` lifts: the stroke is added to its page.
    case strokeUp(key: String, at: Double)
    /// The user reached for the navigation (the top edge or its handle, Esc) or used one of its
    /// controls: it shows, and hides `navigationHideAfterReveal` later.
    case navigationWanted(at: Double)
    /// Whole-stroke erase of strokes on the current page by `writer`; one undo step of theirs however
    /// many it removes.
    case erase([StrokeID], writer: String? = nil, at: Double)
    /// Undoes `writer`'s latest stroke or erasure (nil: the note's one writer); others' stay.
    case undo(writer: String? = nil, at: Double)
    /// Redoes `writer`'s latest undone stroke or erasure.
    case redo(writer: String? = nil, at: Double)
    /// A finger tap (`count` 2 is a double tap) at page pixels `x`, `y`.
    case tap(x: Double, y: Double, count: Int, at: Double)
    /// The user asked to close the note.
    case leaveRequested(at: Double)
    /// The user's answer to ``SessionEffect/confirmLeave``.
    case leaveAnswered(LeaveAnswer, at: Double)
    /// The app went to the background.
    case background(at: Double)
    /// The app came back to the foreground.
    case foreground(at: Double)
    /// The store finished the save request with this id.
    case saveFinished(SaveRequestID, at: Double)
    /// The store could not carry out the save request with this id.
    case saveFailed(SaveRequestID, reason: String, at: Double)
    /// Handwriting recognition of a page found these hashtags.
    case recognitionFinished(PageID, hashtags: [Tag], at: Double)
    /// Handwriting recognition of a page failed.
    case recognitionFailed(PageID, reason: String, at: Double)
    /// Time passed: fires the timers that are due.
    case tick(at: Double)

    /// When the event happened, in seconds.
    public var at: Double {
        switch self {
        case .enterNote(_, _, _, _, _, let at), .addPage(_, _, _, let at), .selectPage(_, let at),
             .erase(_, _, let at),
             .strokeDown(_, _, _, _, _, _, _, let at), .strokeMove(_, _, let at), .strokeUp(_, let at), .navigationWanted(let at),
             .undo(_, let at), .redo(_, let at), .tap(_, _, _, let at), .leaveRequested(let at),
             .leaveAnswered(_, let at), .background(let at), .foreground(let at), .saveFinished(_, let at),
             .saveFailed(_, _, let at), .recognitionFinished(_, _, let at), .recognitionFailed(_, _, let at),
             .tick(let at):
            at
        }
    }
}

/// The user's answer when asked whether to leave a note with unsaved changes.
public enum LeaveAnswer: Sendable, Equatable {
    /// Save everything, then leave; if the save fails, stay.
    case saveAndLeave
    /// Leave now, dropping the unsaved changes.
    case discard
    /// Don't leave.
    case stay
}
