import Foundation
import InkCore
import InkGeometry
import InkIndex
import InkPDF
import InkRecognize
import InkSession
import InkStore

/// What a live note tells the people writing in it: the session's effects meant for a user, and what
/// changed on the pages.
public enum LiveUpdate: Sendable, Equatable {
    /// Show (true) or hide the navigation chrome.
    case navigation(visible: Bool)
    /// Where the note's changes are: all stored, waiting, being stored, or retrying after a failure.
    case saving(SavingState)
    /// A page's ink changed (a stroke ended, an erasure, undo or redo) or the page was added (at the
    /// end); `strokeKeys` are the writers' keys of the strokes this change accepted.
    case pageChanged(PageID, strokeKeys: [String])
    /// The note's tags changed (recognised hashtags, or by hand).
    case tags(Set<Tag>)
    /// The user asked to leave with unsaved changes: ask them.
    case confirmLeave
    /// The session let go of the note (everything asked to be saved is stored, or was discarded).
    case left
    /// Something went wrong the user should know of.
    case error(String)
}

/// Where a live note's changes are, as a user sees it.
public enum SavingState: Sendable, Equatable {
    /// Everything is stored.
    case saved
    /// Changes wait for the autosave.
    case unsaved
    /// A save is being written.
    case saving
    /// A save failed; the next try is at this many seconds on the note's clock.
    case retrying(at: Double, reason: String)
}

/// One pen event from a writer, in page pixels. `key` names the stroke across reconnects
/// (the writer's id and a sequence number): a stroke whose key was already accepted is ignored.
public enum PenInput: Sendable, Equatable {
    case down(key: String, page: PageID, InkPoint, tool: Tool, color: RGBA, width: Float)
    case move(key: String, [InkPoint])
    case up(key: String)
}

/// A note open for live writing: the editor session of one note with a real clock, its effects
/// carried out against the library (save, recognise in the background, tag, file), and its
/// user-facing effects handed to every observer. Several writers may share it: a stroke is fed to the
/// session while nobody else's is in progress, otherwise it waits and follows whole, so concurrent
/// strokes are all kept.
public actor LiveNote {
    public nonisolated let id: NoteID
    /// The PDFs the note's pages are drawn on, for rendering them.
    public nonisolated let backgrounds: BackgroundDocuments
    private let workspace: Workspace
    private var session: Session
    private let started = ContinuousClock.now
    private var observers: [@Sendable (LiveUpdate) -> Void] = []
    private var timer: Task<Void, Never>?
    /// The deadline the timer waits for.
    private var timerDeadline: Double?
    private var lastSaving: SavingState = .saved
    /// Keys of strokes the session has (or had).
    private var accepted: Set<String>
    /// The key of the stroke in the session now.
    private var penOwner: String?
    /// Which writer sent each stroke not yet finished.
    private var writerOf: [String: String] = [:]
    /// Most points one stroke takes (further moves are dropped) and most strokes waiting for the pen:
    /// a runaway or hostile writer cannot grow the server without bound.
    public static let maxPointsPerStroke = 100_000
    public static let maxWaiting = 64
    /// Points of the stroke in the session now.
    private var ownerPoints = 0
    /// Strokes of other writers waiting for the pen, in arrival order.
    private var waiting: [(key: String, events: [PenInput], ended: Bool, points: Int)] = []
    private let recognition: LiveRecognition?
    /// Why the latest save failed.
    private var lastFailure: String?
    /// True once the session has let go of the note.
    public private(set) var isClosed = false

    /// Opens `note` of `workspace` for writing, with `config`'s timings. With `recognition`, saved pages
    /// are read by Tesseract in the background and their hashtags become tags.
    /// `acceptedKeys` are strokes an earlier live session of the note already took (a browser that
    /// reconnects resends them; they are not drawn twice).
    public init(_ note: NoteID, in workspace: Workspace, config: SessionConfig = SessionConfig(), recognition: LiveRecognition?,
                acceptedKeys: Set<String> = []) throws {
        id = note
        accepted = acceptedKeys
        self.workspace = workspace
        session = Session(config: config)
        let stored = try workspace.library.note(matching: note.rawValue)
        let pages = try workspace.library.pages(of: stored)
        backgrounds = workspace.library.backgroundDocuments(of: stored)
        self.recognition = recognition
        _ = session.send(.enterNote(note, pages: pages, tags: stored.note.tags, removedTags: stored.note.removedTags, at: 0))
        if pages.isEmpty {
            _ = session.send(.addPage(PageID.random(), at: 0))
        }
    }

    /// Seconds since the note was opened: the session's clock.
    public var now: Double { (ContinuousClock.now - started).seconds }

    /// The pages as the session has them (without a stroke in progress).
    public var pages: [Page] { session.state.note?.pages ?? [] }

    /// The note's tags as the session has them.
    public var tags: Set<Tag> { session.state.note?.tags ?? [] }

    /// Whether navigation is shown, per the session's rules.
    public var isNavigationVisible: Bool { session.state.note?.isNavigationVisible ?? false }

    /// What a browser joining now is shown, taken at one instant: pages, navigation, saving state
    /// (with the clock to say when a retry comes) and tags.
    public func snapshot() -> (pages: [Page], isNavigationVisible: Bool, saving: SavingState, now: Double, tags: Set<Tag>) {
        (pages, isNavigationVisible, savingState(), now, tags)
    }

    /// Whether the stroke with this writer's key has reached the session.
    public func hasAccepted(_ key: String) -> Bool { accepted.contains(key) }

    /// The keys of every stroke this note's live sessions took.
    public var acceptedKeys: Set<String> { accepted }

    /// Starts the session's timers (call once, after creating): the navigation hides 3 s after entering.
    public func start() {
        // The note was entered at 0 on the session's clock; the first effects (show navigation) are in
        // the state already, the timers run from here.
        scheduleTimer()
    }

    /// Calls `observer` with every update from now on.
    public func observe(_ observer: @escaping @Sendable (LiveUpdate) -> Void) {
        observers.append(observer)
    }

    // MARK: Input

    /// A pen event from one writer (`writer` tells writers apart: their strokes never interleave).
    public func pen(_ input: PenInput, from writer: String) {
        guard !isClosed else { return }
        let key = input.key
        if accepted.contains(key), penOwner != key { return }
        if case .down = input { writerOf[key] = writer }
        if let index = waiting.firstIndex(where: { $0.key == key }) {
            if case .move(_, let points) = input {
                guard waiting[index].points + points.count <= Self.maxPointsPerStroke else { return }
                waiting[index].points += points.count
            }
            waiting[index].events.append(input)
            if case .up = input { waiting[index].ended = true }
            return
        }
        if penOwner == nil || penOwner == key {
            feed(input)
            return
        }
        // Someone else's stroke is in progress: this one waits (only a stroke that starts can wait).
        guard case .down = input, waiting.count < Self.maxWaiting else { return }
        waiting.append((key, [input], false, 1))
    }

    /// A tap (2: double tap) at `x`, `y` in page pixels from the top of the screen.
    public func tap(x: Double, y: Double, count: Int) { send(.tap(x: x, y: y, count: count, at: now)) }

    /// Whole-stroke erase of these strokes on `page`.
    public func erase(_ ids: [StrokeID], on page: PageID) {
        guard penOwner == nil else { return }
        send(.selectPage(page, at: now))
        send(.erase(ids, at: now))
    }

    /// Whole-stroke erase of the strokes on `page` that an eraser of `width` drawn along `path` touches.
    public func erase(along path: [InkPoint], width: Float, on page: PageID) {
        guard penOwner == nil, let target = pages.first(where: { $0.id == page }) else { return }
        let ids = Erasing.strokesTouched(by: path, width: width, on: target)
        if !ids.isEmpty { erase(ids, on: page) }
    }

    /// Undoes the note's latest stroke or erasure.
    public func undo() { if penOwner == nil { send(.undo(at: now)) } }

    /// Redoes the latest undone stroke or erasure.
    public func redo() { if penOwner == nil { send(.redo(at: now)) } }

    /// Adds an empty page at the end with `template`; returns its id.
    @discardableResult
    public func addPage(template: PageTemplate = PageTemplate()) -> PageID {
        let id = PageID.random()
        let size = session.state.note?.pages.last?.size ?? .remarkable
        send(.addPage(id, size: size, template: template, at: now))
        emit(.pageChanged(id, strokeKeys: []))
        return id
    }

    /// The app went to the background (true) or came back.
    public func background(_ isBackground: Bool) {
        send(isBackground ? .background(at: now) : .foreground(at: now))
    }

    /// The user asked to leave; with unsaved changes the observers get ``LiveUpdate/confirmLeave``.
    public func requestLeave() { send(.leaveRequested(at: now)) }

    /// The user's answer to ``LiveUpdate/confirmLeave``.
    public func answerLeave(_ answer: LeaveAnswer) { send(.leaveAnswered(answer, at: now)) }

    /// A writer went away (its connection closed): its stroke in progress ends where it got to, and
    /// its waiting strokes are ended, so nobody else's pen waits for it.
    public func writerLeft(_ writer: String) {
        guard !isClosed else { return }
        endWaiting { writerOf[$0] == writer }
        if let owner = penOwner, writerOf[owner] == writer { feed(.up(key: owner)) }
        flushWaiting()
    }

    /// Saves everything and lets go of the note (the last writer went away). A failed save leaves it
    /// open, retrying on the session's schedule: ``isClosed`` says whether it let go.
    public func close() {
        guard !isClosed else { return }
        if session.state.background != nil { send(.foreground(at: now)) }
        endWaiting { _ in true }
        while penOwner != nil || !waiting.isEmpty {
            if let owner = penOwner { feed(.up(key: owner)) }
            flushWaiting()
        }
        send(.leaveRequested(at: now))
        if !isClosed { send(.leaveAnswered(.saveAndLeave, at: now)) }
    }

    // MARK: The session's shell

    private func feed(_ input: PenInput) {
        switch input {
        case let .down(key, page, point, tool, color, width):
            guard !accepted.contains(key) else { return }
            send(.selectPage(page, at: now))
            send(.penDown(point, tool: tool, color: color, width: width, at: now))
            guard session.state.note?.strokeInProgress != nil else { return }
            accepted.insert(key)
            penOwner = key
            ownerPoints = 1
        case let .move(key, points):
            guard penOwner == key else { return }
            let kept = points.prefix(max(0, Self.maxPointsPerStroke - ownerPoints))
            ownerPoints += kept.count
            for point in kept { send(.penMove(point, at: now)) }
        case let .up(key):
            guard penOwner == key else { return }
            let page = session.state.note?.strokeInProgress?.pageID
            penOwner = nil
            writerOf[key] = nil
            send(.penUp(at: now))
            if let page { emit(.pageChanged(page, strokeKeys: [key])) }
            flushWaiting()
        }
    }

    /// Ends the waiting strokes whose key `matches` where they got to (their writer will send no more).
    private func endWaiting(_ matches: (String) -> Bool) {
        for index in waiting.indices where !waiting[index].ended && matches(waiting[index].key) {
            waiting[index].events.append(.up(key: waiting[index].key))
            waiting[index].ended = true
        }
    }

    /// Feeds the waiting strokes: whole ones at once; the first unfinished one takes the pen.
    private func flushWaiting() {
        while penOwner == nil, !waiting.isEmpty {
            let next = waiting.removeFirst()
            for event in next.events { feed(event) }
        }
    }

    private func send(_ event: SessionEvent) {
        guard !isClosed else { return }
        // Only for events that can change ink other than a pen up (which feed(_:) reports with its
        // stroke's key): not on every pen move.
        let before = event.mayChangeOtherInk ? pageSignatures() : nil
        var queue = session.send(event)[...]
        while let effect = queue.popFirst() {
            queue += carryOut(effect)
        }
        if let before {
            let after = pageSignatures()
            for page in session.state.note?.pages ?? [] where before[page.id] != nil && before[page.id] != after[page.id] {
                emit(.pageChanged(page.id, strokeKeys: []))
            }
        }
        let saving = savingState()
        if saving != lastSaving {
            lastSaving = saving
            emit(.saving(saving))
        }
        scheduleTimer()
    }

    private func carryOut(_ effect: SessionEffect) -> [SessionEffect] {
        switch effect {
        case .save(let request):
            lastSaving = .saving
            emit(.saving(.saving))
            do {
                try workspace.library.save(request.pages, to: request.noteID)
                return session.send(.saveFinished(request.id, at: now))
            } catch {
                lastFailure = "\(error)"
                return session.send(.saveFailed(request.id, reason: "\(error)", at: now))
            }
        case .recognize(_, let pageIDs):
            guard let recognition else { break }
            let pages = pageIDs.compactMap { id in session.state.note?.pages.first { $0.id == id } }
            recognition.recognize(pages, of: id) { [weak self] page, outcome in
                guard let self else { return }
                Task { await self.recognised(page, outcome) }
            }
        case .updateTags(_, let tags):
            do {
                // Added to what the note has now (tags changed in the library meanwhile stay), never
                // one the user removed by hand.
                _ = try workspace.library.updateNote(id) { note in
                    note.tag(tags.subtracting(note.tags).subtracting(note.removedTags))
                }
                _ = try workspace.afterChange().tagsChanged([id])
                emit(.tags(tags))
            } catch {
                emit(.error("could not store the tags: \(error)"))
            }
        case .showNavigation: emit(.navigation(visible: true))
        case .hideNavigation: emit(.navigation(visible: false))
        case .confirmLeave: emit(.confirmLeave)
        case .leave:
            isClosed = true
            timer?.cancel()
            emit(.left)
        case .reportError(let message): emit(.error(message))
        case .finaliseDraft, .debugLog: break
        }
        return []
    }

    private func recognised(_ page: PageID, _ outcome: Result<[Tag], any Error>) {
        switch outcome {
        case .success(let hashtags): send(.recognitionFinished(page, hashtags: hashtags, at: now))
        case .failure(let error): send(.recognitionFailed(page, reason: "\(error)", at: now))
        }
    }

    private func emit(_ update: LiveUpdate) {
        for observer in observers { observer(update) }
    }

    private func savingState() -> SavingState {
        guard let note = session.state.note else { return .saved }
        if note.isSaving { return .saving }
        if let retry = note.deadlines.retry { return .retrying(at: retry, reason: lastFailure ?? "") }
        return note.hasUnsavedChanges ? .unsaved : .saved
    }

    /// Wakes the session at its next deadline (autosave, navigation, retry, draft).
    private func scheduleTimer() {
        let deadline = isClosed ? nil : session.state.nextDeadline
        guard deadline != timerDeadline else { return }
        timerDeadline = deadline
        timer?.cancel()
        guard let deadline else { return }
        let wait = max(0, deadline - now)
        timer = Task { [weak self] in
            try? await Task.sleep(for: .seconds(wait))
            guard !Task.isCancelled, let self else { return }
            await self.tick()
        }
    }

    private func tick() {
        timerDeadline = nil
        send(.tick(at: now))
    }

    /// A cheap fingerprint of each page's ink: the stroke count and the first and last strokes' ids.
    private func pageSignatures() -> [PageID: [UInt64]] {
        var signatures: [PageID: [UInt64]] = [:]
        for page in session.state.note?.pages ?? [] {
            signatures[page.id] = [UInt64(page.strokes.count), page.strokes.last?.id.rawValue ?? 0, page.strokes.first?.id.rawValue ?? 0]
        }
        return signatures
    }
}

extension PenInput {
    /// The stroke's key.
    public var key: String {
        switch self {
        case .down(let key, _, _, _, _, _), .move(let key, _), .up(let key): key
        }
    }
}

extension SessionEvent {
    /// Whether the event can change a page's ink in a way the pen-up report does not cover: an
    /// erasure, undo, redo, or a pen down that finishes a stroke whose pen up was missed.
    fileprivate var mayChangeOtherInk: Bool {
        switch self {
        case .erase, .undo, .redo, .penDown: true
        default: false
        }
    }
}

extension Duration {
    fileprivate var seconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) / 1e18
    }
}

/// Recognition for live notes: one Tesseract engine on one background thread at low priority, shared
/// by every open note, so drawing never waits for it and a busy server keeps its cores for pen input.
/// A page asked for again before its turn is read once, in its latest state. What is read is kept in
/// the index, as the indexing job keeps it.
public final class LiveRecognition: @unchecked Sendable {
    private typealias Job = (page: Page, note: NoteID, done: @Sendable (PageID, Result<[Tag], any Error>) -> Void)
    private let workspace: Workspace
    private let condition = NSCondition()
    /// Guarded by `condition`: pages in the order asked, and the latest request for each.
    private var order: [PageID] = []
    private var jobs: [PageID: Job] = [:]
    private var started = false

    public init(workspace: Workspace) {
        self.workspace = workspace
    }

    func recognize(_ pages: [Page], of note: NoteID, then done: @escaping @Sendable (PageID, Result<[Tag], any Error>) -> Void) {
        condition.lock()
        for page in pages {
            if jobs[page.id] == nil { order.append(page.id) }
            jobs[page.id] = (page, note, done)
        }
        if !started {
            started = true
            let thread = Thread { [self] in run() }
            thread.name = "inkwell.live-recognition"
            thread.start()
        }
        condition.signal()
        condition.unlock()
    }

    private func run() {
        #if os(Linux)
        // Nice 10 for this thread only (Linux keeps nice values per thread; 0 is the calling one): pen
        // input and page updates come first.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
        #endif
        var recognizer: (any PageRecognizer)?
        while true {
            condition.lock()
            while order.isEmpty { condition.wait() }
            let id = order.removeFirst()
            let job = jobs.removeValue(forKey: id)
            condition.unlock()
            guard let job else { continue }
            do {
                let engine = try recognizer ?? workspace.makeRecognizer()
                recognizer = engine
                let result = try engine.recognize(job.page)
                let stored = try workspace.library.note(matching: job.note.rawValue)
                try workspace.index().record([(stored, [(job.page, result)])], in: workspace.library)
                job.done(id, .success(result.hashtags))
            } catch {
                job.done(id, .failure(error))
            }
        }
    }
}
