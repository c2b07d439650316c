import Foundation
import InkCore
import InkInterchange
import InkSession
import InkStore
import InkWorkspace

/// One step of a replay at its virtual time (`inkwell import --trace`): an effect the session asked
/// for, or a recognition outcome handed back to it (`recognitionFinished`, `recognitionFailed`).
public struct TraceRecord: Sendable, Codable, Equatable {
    /// Seconds since the recording began.
    public var t: Double
    public var effect: String
    /// The 1-based page numbers concerned, where the effect concerns pages.
    public var pages: [Int]?
    public var strokesAdded: Int?
    public var strokesRemoved: Int?
    public var tags: [String]?
    public var message: String?
}

/// Where a replay's saves go: a note staged in a library (``StagedNote``), or pages kept in memory
/// (``ScratchNote``, for converting a file without a library).
public protocol ReplayTarget {
    /// The note as saved so far: its id, tags and pages in order.
    var note: Note { get }
    /// Writes one page change the session asked to save.
    mutating func apply(_ change: PageDelta) throws
    /// Changes the note's metadata (the session's tags).
    mutating func update(_ change: (inout Note) -> Void) throws
}

extension StagedNote: ReplayTarget {}

/// A note whose pages are kept in memory: what a replay saves, with nothing written anywhere.
public struct ScratchNote: ReplayTarget {
    public private(set) var note: Note
    private var pagesByID: [PageID: Page] = [:]

    public init(title: String, created: Date = Date()) {
        note = Note(id: .random(), title: title, created: created.wholeSeconds, source: "file")
    }

    /// The pages in order, as the session saved them and exactly as a page file would give them back
    /// (points at the file's precision), so a conversion draws what an import would.
    public func pages() throws -> [Page] {
        try note.pages.compactMap { id in
            guard let page = pagesByID[id] else { return nil }
            return try PageCodec.decodeStrict(PageCodec.encodeFile(page), fallbackID: id)
        }
    }

    public mutating func apply(_ change: PageDelta) throws {
        var page = pagesByID[change.pageID] ?? Page(id: change.pageID, size: change.size, template: change.template)
        if !change.removedStrokeIDs.isEmpty {
            let removed = Set(change.removedStrokeIDs)
            page.strokes.removeAll { removed.contains($0.id) }
        }
        page.strokes += change.addedStrokes
        pagesByID[change.pageID] = page
        if !note.pages.contains(change.pageID) { note.pages.append(change.pageID) }
    }

    public mutating func update(_ change: (inout Note) -> Void) throws {
        let id = note.id
        change(&note)
        note.id = id
    }
}

/// Replays a recorded note through the editor session in virtual time, carrying out the session's
/// effects against a staged note (or any ``ReplayTarget``): the import produces exactly the pages, saves and tags that live
/// writing would have. Saves complete instantly in virtual time.
///
/// Recognition never holds up the replay: the session's `recognize` requests are collected while it
/// goes on, and each page is recognised once, from its final content, after the recording ends
/// (``start(_:into:)`` then ``ReplayInProgress/finish(_:)``); the outcomes come back to the session
/// as later events, so its rules decide the tags.
public struct NoteReplayer {
    public var config: SessionConfig
    /// Receives every effect as it happens (nil: no trace).
    public var trace: (@Sendable (TraceRecord) -> Void)?

    /// `config`'s stroke stall timeout is not used: a recorded pen is never gone, its stroke ends where
    /// the recording lifts it (or ends).
    public init(config: SessionConfig = SessionConfig(), trace: (@Sendable (TraceRecord) -> Void)? = nil) {
        var config = config
        config.strokeStallTimeout = .infinity
        self.config = config
        self.trace = trace
    }

    /// Replays `recorded` into `staged`, which ends up holding every page the session saved.
    /// Nothing is recognised (`inkwell index` does that later).
    package func replay<Target: ReplayTarget>(_ recorded: RecordedNote, into staged: inout Target) throws {
        var replay = try start(recorded, into: staged)
        staged = try replay.finish([:])
    }

    /// Replays `recorded` into `staged` up to the end of the recording: every change is saved and the
    /// note is still open, waiting for the recognition of ``ReplayInProgress/pagesToRecognise``.
    package func start<Target: ReplayTarget>(_ recorded: RecordedNote, into staged: Target) throws -> ReplayInProgress<Target> {
        var run = Run(runner: SessionRunner(config: config), staged: staged, trace: trace)
        let start = recorded.events.first?.time ?? 0
        try run.send(.enterNote(staged.note.id, tags: staged.note.tags, removedTags: staged.note.removedTags, at: start))
        var page: PageID?
        var penIsDown = false
        for event in recorded.events {
            try run.fireTimers(until: event.time)
            switch event {
            case let .newPage(size, template, at):
                let added = PageID.random()
                try run.send(.addPage(added, size: size, template: template, at: at))
                page = added
            case let .penDown(point, pen, at):
                if penIsDown { try run.send(.strokeUp(key: Self.penKey, at: at)) }  // a pen up the recording missed
                let target = page ?? PageID.random()
                if page == nil {
                    try run.send(.addPage(target, at: at))
                    page = target
                }
                run.placeNextStroke(pen)
                try run.send(.strokeDown(key: Self.penKey, page: target, InkPoint(point), tool: pen.tool, color: pen.color,
                                         width: pen.width, at: at))
                penIsDown = true
            case let .penMove(point, at):
                try run.send(.strokeMove(key: Self.penKey, [InkPoint(point)], at: at))
            case let .penUp(point, at):
                if let point { try run.send(.strokeMove(key: Self.penKey, [InkPoint(point)], at: at)) }
                try run.send(.strokeUp(key: Self.penKey, at: at))
                penIsDown = false
            case .undo(let at):
                try run.send(.undo(at: at))
            case .redo(let at):
                try run.send(.redo(at: at))
            case let .tap(x, y, count, at):
                try run.send(.tap(x: Double(x), y: Double(y), count: count, at: at))
            }
        }
        let end = (recorded.events.last?.time ?? start) + config.autosaveDelay
        try run.fireTimers(until: end)
        return ReplayInProgress(run: run, end: end)
    }

    /// The key of the replay's strokes: a recording has one pen, so one stroke at a time.
    static let penKey = "pen"
}

/// A replay at the end of its recording: everything is saved into ``staged``, and the session still
/// has the note open so that recognition results can reach it.
public struct ReplayInProgress<Target: ReplayTarget> {
    fileprivate var run: NoteReplayer.Run<Target>
    fileprivate let end: Double

    /// The note as staged so far.
    public var staged: Target { run.staged }

    /// The pages the session asked to have recognised, each once however many saves asked, in page
    /// order. Their final content is stored: read it with ``StagedNote/page(_:)``.
    public var pagesToRecognize: [PageID] {
        run.staged.note.pages.filter(run.toRecognize.contains)
    }

    /// Hands the session the outcome of each page's recognition (hashtags found, or why it failed),
    /// at the end of the recording, then leaves the note. Returns the staged note with every tag the
    /// session gave it.
    public mutating func finish(_ outcomes: [PageID: Result<[Tag], any Error>]) throws -> Target {
        for page in pagesToRecognize {
            guard let outcome = outcomes[page] else { continue }
            try run.send(SessionRunner.recognized(page, outcome, at: end))
        }
        try run.send(.leaveRequested(at: end))
        guard run.left else {
            throw ImportError(file: run.staged.note.title, reason: "the session did not let go of the note after saving")
        }
        return run.staged
    }
}

extension NoteReplayer {
    /// The shell around one replay: sends events through the ``SessionRunner``, carries out effects
    /// against the staged note at once (saves complete in virtual time), feeds outcomes back.
    fileprivate struct Run<Target: ReplayTarget> {
        var runner: SessionRunner
        var staged: Target
        let trace: (@Sendable (TraceRecord) -> Void)?
        var pageNumbers: [PageID: Int] = [:]
        /// Pages the session asked to recognise since the replay began.
        var toRecognize: Set<PageID> = []
        var left = false
        var start: Double?
        /// Layers (above layer 0), fills and dashes of strokes, by page and id: the session draws solid,
        /// unfilled strokes on one layer, the recording's strokes keep theirs when saved.
        var placements: [PageID: [StrokeID: Placement]] = [:]
        /// The placement of the stroke in progress, if not the session's own.
        var nextPlacement: Placement?
        typealias Placement = (layer: UInt16, fill: UInt8?, dash: [Float]?)

        /// The runner, moved out (an empty one left in its place) so that the session's pages have one
        /// owner while effects are carried out: a copy left here made every page added copy them all,
        /// which made a 10,000-page import quadratic.
        private mutating func takeRunner() -> SessionRunner {
            let runner = self.runner
            self.runner = SessionRunner(config: runner.session.config)
            return runner
        }

        /// The stroke the pen begins next goes on `pen`'s layer of its page, with its fill and dash (its
        /// id is known when its pen lifts).
        mutating func placeNextStroke(_ pen: RecordedPen) {
            nextPlacement = pen.layer != 0 || pen.fill != nil || pen.dash != nil ? (pen.layer, pen.fill, pen.dash) : nil
        }

        mutating func fireTimers(until time: Double) throws {
            var runner = takeRunner()
            defer { self.runner = runner }
            try runner.fireTimers(until: time) { try apply($0, at: $1) }
        }

        mutating func send(_ event: SessionEvent) throws {
            if start == nil { start = event.at }
            switch event {
            case let .recognitionFinished(page, hashtags, at):
                record(at - (start ?? at), "recognitionFinished", pages: [page], tags: hashtags.map(\.name))
            case let .recognitionFailed(page, reason, at):
                record(at - (start ?? at), "recognitionFailed", pages: [page], message: reason)
            default:
                break
            }
            var runner = takeRunner()
            defer { self.runner = runner }
            try runner.send(event) { try apply($0, at: $1) }
        }

        /// Carries out one effect; returns the event that answers it at once, if any.
        private mutating func apply(_ effect: SessionEffect, at now: Double) throws -> SessionEvent? {
            let t = now - (start ?? now)
            switch effect {
            case .save(let request):
                for var delta in request.pages {
                    if pageNumbers[delta.pageID] == nil { pageNumbers[delta.pageID] = pageNumbers.count + 1 }
                    if let placed = placements[delta.pageID] {
                        for i in delta.addedStrokes.indices {
                            guard let placement = placed[delta.addedStrokes[i].id] else { continue }
                            (delta.addedStrokes[i].layer, delta.addedStrokes[i].fill, delta.addedStrokes[i].dash) = placement
                        }
                    }
                    try staged.apply(delta)
                }
                record(t, "save", pages: request.pages.map(\.pageID),
                       added: request.pages.reduce(0) { $0 + $1.addedStrokes.count },
                       removed: request.pages.reduce(0) { $0 + $1.removedStrokeIDs.count })
                return SessionRunner.saved(request.id, .success(()), at: now)
            case .recognize(_, let pages):
                // Noted, not done now: each page is recognised once, from its final content, after the recording.
                toRecognize.formUnion(pages)
                record(t, "recognize", pages: pages)
            case .updateTags(_, let tags):
                try staged.update { SessionRunner.applyTags(tags, to: &$0) }
                record(t, "tags", tags: tags.sorted().map(\.name))
            case .showNavigation: record(t, "showNavigation")
            case .hideNavigation: record(t, "hideNavigation")
            case .confirmLeave:
                record(t, "confirmLeave")
                return .leaveAnswered(.saveAndLeave, at: now)
            case .leave:
                left = true
                record(t, "leave")
            case .reportError(let message):
                record(t, "error", message: message)
                throw ImportError(file: staged.note.title, reason: "saving failed: \(message)")
            case .inkChanged(let change):
                // The staged note is written from the saves; a pen up tells the id of the stroke to place.
                if change.key == NoteReplayer.penKey, let placement = nextPlacement, let drawn = change.added.first {
                    placements[change.page, default: [:]][drawn.stroke.id] = placement
                    nextPlacement = nil
                }
            case .finalizeDraft: record(t, "finaliseDraft")
            case .debugLog(let message): record(t, "debug", message: message)
            }
            return nil
        }

        private func record(_ t: Double, _ name: String, pages: [PageID]? = nil, added: Int? = nil, removed: Int? = nil,
                            tags: [String]? = nil, message: String? = nil) {
            guard let trace else { return }
            trace(TraceRecord(t: (t * 1000).rounded() / 1000, effect: name, pages: pages?.compactMap { pageNumbers[$0] },
                              strokesAdded: added, strokesRemoved: removed, tags: tags, message: message))
        }
    }
}

extension InkPoint {
    /// A recorded position; the session sets the time.
    init(_ point: RecordedPoint) {
        self.init(x: point.x, y: point.y, pressure: point.pressure, tilt: point.tilt)
    }
}
