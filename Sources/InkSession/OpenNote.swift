import InkCore

/// The note open in the session: its pages, tags, strokes in progress, history and save progress.
public struct OpenNote: Sendable, Equatable {
    /// The note's identifier.
    public let id: NoteID
    /// The pages in reading order, as drawn so far (without the strokes in progress).
    public internal(set) var pages: [Page]
    /// The note's tags (with those recognition added) and the tags removed by hand, which
    /// recognition never adds back.
    public internal(set) var tagging: NoteTags
    /// The note's tags, with those recognition added.
    public var tags: Set<Tag> { tagging.tags }
    /// Tags the user removed by hand.
    public var removedTags: Set<Tag> { tagging.removedByHand }
    /// The strokes being drawn (pens down), by their keys, not yet on their pages.
    public internal(set) var strokesInProgress: [String: StrokeInProgress] = [:]
    /// Whether the navigation chrome is shown.
    public internal(set) var isNavigationVisible = false
    /// Where the note is in being left.
    public internal(set) var leaveStage = LeaveStage.editing
    /// The pending timers.
    public internal(set) var deadlines = Deadlines()

    var currentPageIndex: Int?
    /// Position of each page in `pages`.
    var pageIndex: [PageID: Int] = [:]
    /// Parallel to `pages`: stroke ids, clock and unsaved changes of each page.
    var tracking: [PageTracking]
    /// The edits still applied, oldest first, each with its writer.
    var undoStack: [HistoryEntry] = []
    /// The edits undone, oldest first, each with its writer.
    var redoStack: [HistoryEntry] = []
    var saveInFlight: SaveInFlight?
    /// Failed saves in a row; selects the next retry delay.
    var failedSaves = 0
    /// When the first change not yet in a save was made: the autosave ceiling counts from it.
    var unsavedSince: Double?
    /// When the last drawing change was made: a save started sooner than the autosave delay after it
    /// was forced by the ceiling while the writer is still writing.
    var lastChange: Double?
    /// Pages a ceiling save stored whose recognition waits for the writer's pause (the next quiet
    /// save, or the quiet time after the last change), so a half-written word is never read.
    var recognitionDeferred: [PageID] = []
    /// The pages in ``recognitionDeferred``, to look one up without going through them all.
    var recognitionDeferredSet: Set<PageID> = []
    /// Save as soon as no save is in flight, ignoring the autosave delay.
    var flushRequested = false

    init(id: NoteID, pages: [Page], tags: Set<Tag>, removedTags: Set<Tag>, nextStrokeIDs: [PageID: StrokeID], at now: Double) {
        self.id = id
        self.pages = pages
        tagging = NoteTags(tags: tags, removedByHand: removedTags)
        tracking = pages.map { PageTracking(stored: $0, enteredAt: now, nextStrokeID: nextStrokeIDs[$0.id]) }
        for (index, page) in pages.enumerated() where pageIndex[page.id] == nil {
            pageIndex[page.id] = index
        }
        currentPageIndex = pages.isEmpty ? nil : 0
    }

    /// The page pen input goes to; nil until the note has a page.
    public var currentPageID: PageID? { currentPageIndex.map { pages[$0].id } }
    /// Whether `writer` (nil: the note's one writer) has a stroke or erasure to undo.
    public func canUndo(by writer: String? = nil) -> Bool { undoStack.contains { $0.writer == writer } }
    /// Whether `writer` has an undone stroke or erasure to redo.
    public func canRedo(by writer: String? = nil) -> Bool { redoStack.contains { $0.writer == writer } }
    /// True while a save request is out.
    public var isSaving: Bool { saveInFlight != nil }
    /// True when a change isn't stored yet: unsaved, being saved, or left over by a failed save.
    public var hasUnsavedChanges: Bool { isSaving || tracking.contains { !$0.unsaved.isEmpty } }
    /// A save (autosave or retry) may start now: none is out. Pens down do not hold it back, since
    /// a stroke in progress is not a change until its pen lifts, and a writer who keeps a pen down
    /// must not keep the others' strokes from the disk.
    var canStartSave: Bool { saveInFlight == nil }
}

/// Where the note is in being left.
public enum LeaveStage: Sendable, Equatable {
    /// Not leaving.
    case editing
    /// ``SessionEffect/confirmLeave`` is out; waiting for the answer.
    case awaitingAnswer
    /// Saving everything; the note is left when the saves finish. Pen input and taps are ignored.
    case savingThenLeaving
}

/// The open note's timers, as absolute event times in seconds; nil when not running.
public struct Deadlines: Sendable, Equatable {
    /// When unsaved changes are saved (debounced by later changes).
    public internal(set) var autosave: Double?
    /// When the navigation chrome hides.
    public internal(set) var navigationHide: Double?
    /// When a failed save is retried.
    public internal(set) var retry: Double?
    /// When the stroke in progress that moved least recently has gone `strokeStallTimeout` without a move.
    public internal(set) var strokeStall: Double?
}

/// The save request that is out, and the pages it holds changes of.
struct SaveInFlight: Sendable, Equatable {
    let id: SaveRequestID
    let pageIndices: [Int]
    /// Started by the autosave ceiling while writing went on: its pages are recognised at the pause.
    var atCeiling = false
}
