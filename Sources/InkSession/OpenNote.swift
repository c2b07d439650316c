import InkCore

/// The note open in the session: its pages, tags, stroke in progress, history and save progress.
public struct OpenNote: Sendable, Equatable {
    /// The note's identifier.
    public let id: NoteID
    /// The pages in reading order, as drawn so far (without the stroke in progress).
    public internal(set) var pages: [Page]
    /// The note's tags (with those recognition added) and the tags removed by hand, which
    /// recognition never adds back.
    public internal(set) var tagging: NoteTags
    /// The note's tags, with those recognition added.
    public var tags: Set<Tag> { tagging.tags }
    /// Tags the user removed by hand.
    public var removedTags: Set<Tag> { tagging.removedByHand }
    /// The stroke being drawn (pen down), not yet on its page.
    public internal(set) var strokeInProgress: StrokeInProgress?
    /// The strokes of several writers in progress at once, by their keys, not yet on their pages.
    public internal(set) var sharedStrokes: [String: SharedStroke] = [:]
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
    var undoStack: [Edit] = []
    var redoStack: [Edit] = []
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
    /// Whether there is a stroke or erasure to undo.
    public var canUndo: Bool { !undoStack.isEmpty }
    /// Whether there is an undone stroke or erasure to redo.
    public var canRedo: Bool { !redoStack.isEmpty }
    /// True while a save request is out.
    public var isSaving: Bool { saveInFlight != nil }
    /// True when a change isn't stored yet: unsaved, being saved, or left over by a failed save.
    public var hasUnsavedChanges: Bool { isSaving || tracking.contains { !$0.unsaved.isEmpty } }
    /// A save (autosave or retry) may start now.
    var canStartSave: Bool {
        switch (strokeInProgress, saveInFlight) {
        case (.none, .none): true
        default: false
        }
    }
}

/// A stroke being drawn: pen down, not yet up.
public struct StrokeInProgress: Sendable, Equatable {
    /// The page it will be added to (where the pen went down).
    public let pageID: PageID
    /// The stroke so far: its id, tool, colour, width, start time and points.
    public internal(set) var stroke: Stroke
    let pageIndex: Int
    /// Event time of the pen down, in seconds.
    let startedAt: Double

    /// Appends `point`, stamped with the milliseconds since the pen went down.
    mutating func add(_ point: InkPoint, at now: Double) {
        var sample = point
        sample.time = Float((now - startedAt) * 1000)
        stroke.points.append(sample)
    }
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
    /// When the shared stroke that moved least recently has gone `strokeStallTimeout` without a move.
    public internal(set) var strokeStall: Double?
}

/// The save request that is out, and the pages it holds changes of.
struct SaveInFlight: Sendable, Equatable {
    let id: SaveRequestID
    let pageIndices: [Int]
    /// Started by the autosave ceiling while writing went on: its pages are recognised at the pause.
    var atCeiling = false
}
