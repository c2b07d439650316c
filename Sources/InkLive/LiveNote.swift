import Foundation
import InkCore
import InkExport
import InkGeometry
import InkIndex
import InkPDF
import InkRecognize
import InkSession
import InkStore
import InkWorkspace

/// What a live note tells the people writing in it: the session's effects meant for a user, and what
/// changed on the pages.
public enum LiveUpdate: Sendable, Equatable {
    /// Show (true) or hide the navigation chrome.
    case navigation(visible: Bool)
    /// Where the note's changes are: all stored, waiting, being stored, or retrying after a failure.
    case saving(SavingState)
    /// A page's ink changed (a stroke ended, an erasure, undo or redo) or the page was added (at the
    /// end), as the session made the change, once the journal holds it; `confirming` are the writers'
    /// keys of the strokes it keeps (none when the journal could not keep it: the save that holds
    /// them confirms them).
    case changed(InkChange, confirming: [String])
    /// Strokes with these writers' keys are kept, with nothing new to show: a stroke sent again, or
    /// one the journal could not keep, now held by a save.
    case confirmed(PageID, strokeKeys: [String])
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

/// The clock a live note's session runs on: seconds from an origin of its own, and sleeping until a
/// time on it. ``SystemLiveClock`` in the product; a test's own clock, which the test advances, makes
/// the note's timers run without waiting.
public protocol LiveClock: Sendable {
    /// Seconds since the clock's origin; never decreases.
    var now: Double { get }
    /// Returns once ``now`` has reached `deadline`, or the task is cancelled.
    func sleep(until deadline: Double) async
}

/// The monotonic clock of the machine (`ContinuousClock`).
public struct SystemLiveClock: LiveClock {
    private let origin = ContinuousClock.now

    public init() {}

    public var now: Double { (ContinuousClock.now - origin).seconds }

    public func sleep(until deadline: Double) async {
        try? await Task.sleep(for: .seconds(max(0, deadline - now)))
    }
}

/// A note open for live writing: the editor session of one note on a clock, its effects carried out
/// against the library by the ``SessionRunner`` (save, recognise in the background, tag, file), and
/// its user-facing effects handed to every observer. Several writers may share it: each stroke is the
/// session's stroke of its key, so strokes of several writers are drawn at once and none waits
/// for another; a pen that stays down without moving is ended by the session after
/// ``SessionConfig/strokeStallTimeout``.
///
/// Nothing blocking runs inside the actor: saves and tag writes (which wait for the library's lock,
/// up to 30 s when another process holds it) run on ``BlockingExecutor/shared`` while the note keeps
/// taking pen input, and their outcomes come back to the session as events (`saveFinished`,
/// `saveFailed`); recognition runs on ``LiveRecognition``'s own low-priority thread.
public actor LiveNote {
    public nonisolated let id: NoteID
    /// The PDFs the note's pages are drawn on, for rendering them.
    package nonisolated let backgrounds: BackgroundDocuments
    private let workspace: Workspace
    private var runner: SessionRunner
    private let clock: any LiveClock
    /// The clock's time when the note was opened: 0 on the session's clock.
    private let started: Double
    private var observers: [@Sendable (LiveUpdate) -> Void] = []
    private var timer: Task<Void, Never>?
    /// The deadline the timer waits for.
    private var timerDeadline: Double?
    private var lastSaving: SavingState = .saved
    /// Keys of strokes the session has (or had).
    private var accepted: Set<String>
    /// Each stroke in progress by its key: the writer who sent it, its page and how many points it has.
    private var inProgress: [String: (writer: String, page: PageID, points: Int)] = [:]
    /// Most points one stroke takes (further moves are dropped): a runaway or hostile writer cannot
    /// grow the server without bound. A writer has one stroke in progress at a time.
    public static let maxPointsPerStroke = 100_000
    private let recognition: LiveRecognition?
    /// Why the latest save failed.
    private var lastFailure: String?
    /// Work handed out whose outcome has not come back: saves (at most one, the session's rule),
    /// recognitions asked for, and the latest tag write (each waits for the one before).
    private var savesInFlight = 0
    private var recognitionsInFlight = 0
    private var tagWrite: Task<Void, Never>?
    private var tagWritesInFlight = 0
    /// The note's journal: every change is synced to it before a writer is told it is kept.
    private let journal: NoteJournal
    /// When the writers' strokes may be confirmed: the rule, fed the journal's and the saves' events.
    private var confirmations = Confirmations()
    /// The pages as the observers were told of them: the pages when opened, with every change told since.
    private var told: [Page]
    /// What replaying the journal a previous run left did when the note was opened.
    package nonisolated let replayed: JournalReplay
    /// The note's lease while it is open here: other processes refuse to delete or rewrite it. A
    /// lease that cannot be taken (the journal folder cannot be made) costs that refusal, not the note.
    private let lease: NoteLease?
    /// Callers of ``settled()`` and ``close()`` waiting for that work.
    private var waiters: [CheckedContinuation<Void, Never>] = []
    /// True once the session has let go of the note.
    public private(set) var isClosed = false
    /// The id each page's next stroke takes: past every id the page's file or a session of the note
    /// gave, so an id never names two strokes (a later session is given these back).
    public private(set) var nextStrokeIDs: [PageID: StrokeID]

    /// Opens `note` of `workspace` for writing, with `config`'s timings, first replaying and saving
    /// what its journal holds (a run that stopped before saving left it). With `recognition`, saved
    /// pages are read in the background and their hashtags become tags.
    /// `acceptedKeys` are strokes an earlier live session of the note already took (a browser that
    /// reconnects resends them; they are not drawn twice). `clock` is the session's clock (the
    /// machine's, unless a test drives its own). `nextStrokeIDs` are an earlier session's
    /// (``nextStrokeIDs``): a stroke it drew and undid before saving is on no page file.
    public init(_ note: NoteID, in workspace: Workspace, config: SessionConfig = SessionConfig(), recognition: LiveRecognition?,
                acceptedKeys: Set<String> = [], nextStrokeIDs: [PageID: StrokeID] = [:], clock: any LiveClock = SystemLiveClock()) throws {
        id = note
        lease = try? workspace.library.leaseNote(note)
        replayed = try workspace.library.replayJournal(of: note)
        accepted = acceptedKeys.union(replayed.keys)
        journal = NoteJournal(url: workspace.library.journalURL(of: note), keys: replayed.keys)
        self.workspace = workspace
        self.clock = clock
        started = clock.now
        runner = SessionRunner(config: config)
        let stored = try workspace.library.note(matching: note.rawValue)
        let onDisk = try workspace.library.pagesForWriting(of: stored)
        var pages = onDisk.pages
        if pages.isEmpty {
            // A new note gets its first page stored at once: an empty page is nothing to save, so
            // leaving a note nobody wrote in never asks about unsaved changes.
            let first = Page(id: PageID.random())
            try workspace.library.save([PageDelta(pageID: first.id, size: first.size, template: first.template, isNew: true)], to: note)
            pages = [first]
        }
        told = pages
        self.nextStrokeIDs = onDisk.nextStrokeIDs.merging(nextStrokeIDs) { max($0, $1) }
        backgrounds = workspace.library.backgroundDocuments(of: stored)
        self.recognition = recognition
        runner.send(.enterNote(note, pages: pages, tags: stored.note.tags, removedTags: stored.note.removedTags,
                               nextStrokeIDs: self.nextStrokeIDs, at: 0)) { _, _ in nil }
    }

    /// Opens `note` as ``init(_:in:config:recognition:acceptedKeys:nextStrokeIDs:clock:)`` does, on
    /// ``BlockingExecutor/shared``: the journal's replay, the library's listing and the first save wait
    /// for the library's lock (up to 30 s when another process holds it) there, not on the caller's
    /// thread, so an actor opening notes keeps answering meanwhile.
    public static func open(_ note: NoteID, in workspace: Workspace, config: SessionConfig = SessionConfig(), recognition: LiveRecognition?,
                            acceptedKeys: Set<String> = [], nextStrokeIDs: [PageID: StrokeID] = [:],
                            clock: any LiveClock = SystemLiveClock()) async throws -> LiveNote {
        try await BlockingExecutor.shared.run {
            try LiveNote(note, in: workspace, config: config, recognition: recognition, acceptedKeys: acceptedKeys,
                         nextStrokeIDs: nextStrokeIDs, clock: clock)
        }
    }

    /// Seconds since the note was opened: the session's clock.
    public var now: Double { clock.now - started }

    private var session: Session { runner.session }

    /// The pages as the session has them (without a stroke in progress).
    public var pages: [Page] { session.state.note?.pages ?? [] }

    /// The note's tags as the session has them.
    public var tags: Set<Tag> { session.state.note?.tags ?? [] }

    /// Whether navigation is shown, per the session's rules.
    public var isNavigationVisible: Bool { session.state.note?.isNavigationVisible ?? false }

    /// What a browser joining now is shown, taken at one instant: navigation, saving state (with the
    /// clock to say when a retry comes) and tags.
    public func snapshot() -> (isNavigationVisible: Bool, saving: SavingState, now: Double, tags: Set<Tag>) {
        (isNavigationVisible, savingState(), now, tags)
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

    /// Calls `observer` with every update from now on; returns the pages as the observers were told
    /// of them so far, which the ``LiveUpdate/changed(_:confirming:)`` updates to come change.
    @discardableResult
    public func observe(_ observer: @escaping @Sendable (LiveUpdate) -> Void) -> [Page] {
        observers.append(observer)
        return told
    }

    /// Returns once nothing is under way: no timer due on the clock that has not fired, no journal
    /// append or compaction, save or tag write in flight, no recognition asked for and not answered.
    public func settled() async {
        while isBusy { await withCheckedContinuation { waiters.append($0) } }
        await journal.drain()
    }

    private var isBusy: Bool {
        let due = !isClosed && (session.state.nextDeadline.map { $0 <= now } ?? false)
        return due || confirmations.isJournaling || savesInFlight > 0 || recognitionsInFlight > 0 || tagWritesInFlight > 0
    }

    /// Lets the callers of ``settled()`` look again.
    private func wake() {
        let woken = waiters
        waiters = []
        for waiter in woken { waiter.resume() }
    }

    // MARK: Input

    /// A pen event from one writer (`writer` tells writers apart: a connection). Strokes of different
    /// keys go on at the same time; a writer's new stroke ends its previous one if that is still open
    /// (a lost pen up). The stroke is `owner`'s to undo (the browser, across its reconnections;
    /// `writer` when not given).
    public func pen(_ input: PenInput, from writer: String, owner: String? = nil) {
        guard !isClosed else { return }
        let key = input.key
        let open = session.state.note?.strokesInProgress[key] != nil
        switch input {
        case let .down(_, page, point, tool, color, width):
            guard !accepted.contains(key) else {
                // Sent again (after a reconnect or a reload, the confirmation lost): confirmed again once
                // it is on disk (the rule of ``Confirmations``); one still in progress, when it ends.
                if !open, let shown = pages.first(where: { $0.id == page })?.id ?? pages.first?.id {
                    tell(confirmations.sentAgain(key, on: shown))
                }
                return
            }
            for (other, stroke) in inProgress where stroke.writer == writer { send(.strokeUp(key: other, at: now)) }
            // A page the note does not have (a writer that had not heard of the page yet) means the
            // current page, as a pen down always did: the stroke is kept, not refused without a word.
            let target = pages.contains { $0.id == page } ? page : (session.state.note?.currentPageID ?? page)
            send(.strokeDown(key: key, page: target, point, tool: tool, color: color, width: width, writer: owner ?? writer, at: now))
            guard session.state.note?.strokesInProgress[key] != nil else { return }
            accepted.insert(key)
            inProgress[key] = (writer, target, 1)
        case let .move(_, points):
            guard open else { return }
            let kept = points.prefix(max(0, Self.maxPointsPerStroke - (inProgress[key]?.points ?? 0)))
            guard !kept.isEmpty else { return }
            inProgress[key]?.points += kept.count
            send(.strokeMove(key: key, Array(kept), at: now))
        case .up:
            if open { send(.strokeUp(key: key, at: now)) }
        }
    }

    /// Whether `page` is in the note; if not, the writers hear why their erasure was refused (an
    /// erasure or undo is applied or refused aloud, never dropped).
    private func canErase(on page: PageID) -> Bool {
        guard !isClosed else { return false }
        if pages.contains(where: { $0.id == page }) { return true }
        emit(.error("Couldn't erase: the page is no longer in the note."))
        return false
    }

    /// Tells the writers an edit was refused while the note is being saved to close (the session
    /// takes no edits then), so nothing is dropped without a word.
    private func refusedWhileClosing(_ what: String) -> Bool {
        guard session.state.note?.leaveStage == .savingThenLeaving else { return false }
        emit(.error("Couldn't \(what): the note is being saved and closed."))
        return true
    }

    /// A tap (2: double tap) at `x`, `y` in page pixels from the top of the screen.
    public func tap(x: Double, y: Double, count: Int) { send(.tap(x: x, y: y, count: count, at: now)) }

    /// Whole-stroke erase of these strokes on `page`, an undo step of `owner`'s. With a `key` (a browser
    /// keeps the erasure until it is confirmed, and sends it again after a reconnect) it is applied once.
    public func erase(_ ids: [StrokeID], on page: PageID, by owner: String, key: String? = nil) {
        guard canErase(on: page), !refusedWhileClosing("erase"), isNew(key, on: page) else { return }
        send(.selectPage(page, at: now))
        send(.erase(ids, writer: owner, at: now), keyed: key, on: page)
    }

    /// Whole-stroke erase of the strokes on `page` that an eraser of `width` drawn along `path` touches.
    public func erase(along path: [InkPoint], width: Float, on page: PageID, by owner: String, key: String? = nil) {
        guard canErase(on: page), let target = pages.first(where: { $0.id == page }) else { return }
        let ids = Erasing.strokesTouched(by: path, width: width, on: target)
        if ids.isEmpty {
            if isNew(key, on: page) { settle(key, on: page) }  // nothing touched: nothing to keep
        } else {
            erase(ids, on: page, by: owner, key: key)
        }
    }

    /// Undoes `owner`'s latest stroke or erasure; the other writers' stay. Keyed as ``erase(_:on:by:key:)``.
    public func undo(by owner: String, key: String? = nil) { stepHistory(.undo(writer: owner, at: now), "undo", key: key) }

    /// Redoes `owner`'s latest undone stroke or erasure. Keyed as ``erase(_:on:by:key:)``.
    public func redo(by owner: String, key: String? = nil) { stepHistory(.redo(writer: owner, at: now), "redo", key: key) }

    /// Sends an undo or redo (`what`, for the refusal while closing), keyed as an erasure.
    private func stepHistory(_ event: SessionEvent, _ what: String, key: String?) {
        let page = session.state.note?.currentPageID ?? pages.first?.id
        guard !refusedWhileClosing(what), isNew(key, on: page) else { return }
        send(event, keyed: key, on: page)
    }

    /// Whether the edit of `key` is new: one the note has (sent again after a reconnect) is confirmed
    /// again once on disk, and not applied twice. No key: always new.
    private func isNew(_ key: String?, on page: PageID?) -> Bool {
        guard let key, !isClosed else { return !isClosed }
        guard accepted.contains(key) else {
            accepted.insert(key)
            return true
        }
        if let page { tell(confirmations.sentAgain(key, on: page)) }
        return false
    }

    /// Sends an edit's event: the changes it makes carry its `key`, so they confirm it once on disk as
    /// a stroke's do; an edit that changed nothing (nothing left to undo) is confirmed at once.
    private func send(_ event: SessionEvent, keyed key: String?, on page: PageID?) {
        let changes = send(event, editKey: key)
        if let key, !changes.contains(where: { $0.key == key }) { settle(key, on: page) }
    }

    /// Confirms at once the edit of `key`, which changed nothing: there is nothing of it to keep.
    private func settle(_ key: String?, on page: PageID?) {
        guard let key, let page = page ?? pages.first?.id else { return }
        tell([.confirmed(page, strokeKeys: [key])])
    }

    /// Adds an empty page at the end with `template`; returns its id.
    @discardableResult
    public func addPage(template: PageTemplate = PageTemplate()) -> PageID {
        let id = PageID.random()
        let size = session.state.note?.pages.last?.size ?? .remarkable
        send(.addPage(id, size: size, template: template, at: now))
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

    /// The user reached for the navigation or used it: it shows, for the session's reveal time.
    public func navigationWanted() { send(.navigationWanted(at: now)) }

    /// A writer went away (its connection closed): its stroke in progress ends where it got to.
    public func writerLeft(_ writer: String) {
        guard !isClosed else { return }
        for (key, stroke) in inProgress where stroke.writer == writer { send(.strokeUp(key: key, at: now)) }
    }

    /// Saves everything and lets go of the note (the last writer went away), returning once the saves
    /// and tag writes are done. A save that fails meanwhile (the library's lock held past its wait, a
    /// disk error) is tried again at once, not at the session's retry time: closing never waits for
    /// the note's clock, which a test may hold still. After as many tries as the session has retry
    /// delays, plus one, it returns with the note open: ``isClosed`` says whether it let go.
    public func close() async {
        for _ in 0...session.config.retryDelays.count {
            if !isClosed {
                if session.state.background != nil { send(.foreground(at: now)) }
                send(.leaveRequested(at: now))
                if !isClosed { send(.leaveAnswered(.saveAndLeave, at: now)) }
            }
            while confirmations.isJournaling || savesInFlight > 0 || tagWritesInFlight > 0 {
                await withCheckedContinuation { waiters.append($0) }
            }
            if isClosed { break }
        }
        if isClosed {
            await journal.drain()
            lease?.release()
        }
    }

    // MARK: The session's shell

    /// Sends `event` to the session; the changes of ink it makes are journaled, and told to the
    /// observers (with the keys of the strokes they drew: by their pen up, the stall timeout, leaving;
    /// or `editKey`, the key of the erasure, undo or redo `event` is) once the journal has them on
    /// disk. Returns those changes.
    @discardableResult
    private func send(_ event: SessionEvent, editKey: String? = nil) -> [InkChange] {
        guard !isClosed else { return [] }
        var changes: [InkChange] = []
        runner.send(event) { effect, _ in
            if case .inkChanged(let change) = effect {
                changes.append(change)
                return nil
            }
            return carryOut(effect)
        }
        if let editKey {
            // The edit's own changes (a stroke ended by a timer first carries its stroke's key).
            for index in changes.indices where changes[index].key == nil { changes[index].key = editKey }
        }
        forgetEndedStrokes(drawn: changes)
        for change in changes {
            guard let highest = change.added.map(\.stroke.id).max() else { continue }
            nextStrokeIDs[change.page] = max(nextStrokeIDs[change.page] ?? highest, StrokeID(highest.rawValue &+ 1))
        }
        journal(changes)
        let saving = savingState()
        if saving != lastSaving {
            lastSaving = saving
            emit(.saving(saving))
        }
        scheduleTimer()
        wake()
        return changes
    }

    /// Forgets the strokes in progress the session no longer has. One that ended without drawing
    /// anything (the note let go of it) is confirmed at once: there is nothing of it to keep.
    private func forgetEndedStrokes(drawn changes: [InkChange]) {
        guard !inProgress.isEmpty else { return }
        let open = session.state.note?.strokesInProgress ?? [:]
        let ended = inProgress.filter { open[$0.key] == nil }.map { (key: $0.key, page: $0.value.page) }.sorted { $0.key < $1.key }
        for stroke in ended { inProgress[stroke.key] = nil }
        tell(confirmations.letGo(ended, drawing: changes))
    }

    /// Carries out one effect; blocking work goes to ``BlockingExecutor/shared`` and its outcome
    /// comes back as a later event.
    private func carryOut(_ effect: SessionEffect) -> SessionEvent? {
        switch effect {
        case .save(let request):
            lastSaving = .saving
            emit(.saving(.saving))
            savesInFlight += 1
            confirmations.saveStarted(through: journal.lastSequence)
            let library = workspace.library
            Task {
                let outcome = await BlockingExecutor.shared.run { Result { try library.save(request.pages, to: request.noteID) } }
                saved(request.id, outcome)
            }
        case .recognize(_, let pageIDs):
            guard let recognition else { break }
            recognitionsInFlight += pageIDs.count
            recognition.recognize(pageIDs, of: id) { [weak self] page, outcome in
                guard let self else { return }
                Task { await self.recognized(page, outcome) }
            }
        case .updateTags(_, let tags):
            writeTags(tags)
        case .showNavigation: emit(.navigation(visible: true))
        case .hideNavigation: emit(.navigation(visible: false))
        case .confirmLeave: emit(.confirmLeave)
        case .leave:
            isClosed = true
            timer?.cancel()
            emit(.left)
        case .reportError(let message): emit(.error(message))
        case .inkChanged, .finalizeDraft, .debugLog: break  // changes are taken by send(_:)
        }
        return nil
    }

    /// A save's outcome, back from the executor.
    private func saved(_ request: SaveRequestID, _ outcome: Result<Void, any Error>) {
        savesInFlight -= 1
        switch outcome {
        case .success:
            let (confirmed, compactThrough) = confirmations.saveFinished()
            if let compactThrough { journal.compact(through: compactThrough) }
            tell(confirmed)
        case .failure(let error):
            confirmations.saveFailed()
            lastFailure = "\(error)"
        }
        if isClosed { wake() } else { send(SessionRunner.saved(request, outcome, at: now)) }
    }

    /// Writes the session's tags to the stored note by the one tag rule, then files and indexes it
    /// (``AfterChange``), on the executor, after the tag write before it.
    private func writeTags(_ tags: Set<Tag>) {
        let previous = tagWrite, workspace = self.workspace, note = id
        tagWritesInFlight += 1
        tagWrite = Task {
            await previous?.value
            let outcome = await BlockingExecutor.shared.run {
                Result {
                    _ = try workspace.library.updateNote(note) { SessionRunner.applyTags(tags, to: &$0) }
                    _ = try workspace.afterChange().tagsChanged([note])
                }
            }
            tagsWritten(tags, outcome)
        }
    }

    private func tagsWritten(_ tags: Set<Tag>, _ outcome: Result<Void, any Error>) {
        switch outcome {
        case .success: emit(.tags(tags))
        case .failure(let error): emit(.error("could not store the tags: \(error)"))
        }
        tagWritesInFlight -= 1
        if tagWritesInFlight == 0 { tagWrite = nil }
        wake()
    }

    private func recognized(_ page: PageID, _ outcome: Result<[Tag], any Error>) {
        recognitionsInFlight -= 1
        send(SessionRunner.recognized(page, outcome, at: now))
        wake()
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
        let clock = self.clock, at = started + deadline
        timer = Task { [weak self] in
            await clock.sleep(until: at)
            guard !Task.isCancelled, let self else { return }
            await self.tick()
        }
    }

    private func tick() {
        timerDeadline = nil
        send(.tick(at: now))
    }

    /// Hands one event's changes to the journal, as one entry; they are told once it is on disk.
    private func journal(_ changes: [InkChange]) {
        guard !changes.isEmpty else { return }
        let number = confirmations.handed(changes)
        let entry = JournalEntry(pages: changes.map {
            JournalPageChange(page: $0.page, size: $0.size, template: $0.template, added: $0.added.map(\.stroke), removed: $0.removed)
        }, keys: changes.compactMap(\.key))
        journal.append(entry) { [weak self] outcome in
            guard let self else { return }
            Task { await self.journaled(number, outcome) }
        }
    }

    /// The journal append `number` is on disk (or failed): tells the observers what that lets go out.
    private func journaled(_ number: Int, _ outcome: Result<Void, StoreError>) {
        tell(confirmations.appended(number, outcome))
        wake()
    }

    /// Tells the observers `updates`, in order, keeping the pages as told of them.
    private func tell(_ updates: [LiveUpdate]) {
        for update in updates {
            if case .changed(let change, _) = update {
                if let index = told.firstIndex(where: { $0.id == change.page }) {
                    told[index].apply(change)
                } else {
                    var page = Page(id: change.page, size: change.size, template: change.template)
                    page.apply(change)
                    told.append(page)
                }
            }
            emit(update)
        }
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

extension Duration {
    fileprivate var seconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) / 1e18
    }
}

/// Recognition for live notes: one recogniser on one background thread at low priority (nice 10),
/// shared by every open note, so drawing never waits for it and a busy server keeps its cores for
/// pen input. A page asked for again before its turn is read once, in its latest state as saved
/// (read back from the library, as the indexing job reads it), and every request for it hears that
/// outcome. It reads in the library's ``RecognitionContext`` as it is when the page's turn comes (the
/// recogniser is made again only when that context changed). What is read is kept in the index, as
/// the indexing job keeps it.
public final class LiveRecognition: Sendable {
    private typealias Done = @Sendable (PageID, Result<[Tag], any Error>) -> Void
    private let workspace: Workspace
    private let makeRecognizer: RecognizerFactory
    /// The one thread live recognition runs on.
    private let executor = BlockingExecutor(width: 1, name: "inkwell.live-recognition", niceness: 10)
    /// Pages waiting for their turn, in the order asked, each with the note and who waits for it.
    private let queue = Locked<(order: [PageID], jobs: [PageID: (note: NoteID, done: [Done])])>(([], [:]))
    /// The recogniser and the context it was made in (touched only on the executor's thread).
    private let engine = Locked<(context: RecognitionContext, recognizer: any PageRecognizer)?>(nil)

    /// Live recognition in `workspace`, making its recogniser with `makeRecognizer` (Tesseract by default).
    public init(workspace: Workspace, makeRecognizer: @escaping RecognizerFactory = { try $0.makeRecognizer() }) {
        self.workspace = workspace
        self.makeRecognizer = makeRecognizer
    }

    func recognize(_ pages: [PageID], of note: NoteID, then done: @escaping @Sendable (PageID, Result<[Tag], any Error>) -> Void) {
        let fresh = queue.withLock { queue in
            pages.filter { page in
                let isNew = queue.jobs[page] == nil
                if isNew { queue.order.append(page) }
                queue.jobs[page, default: (note, [])].done.append(done)
                return isNew
            }
        }
        for _ in fresh { executor.submit { [self] in readNext() } }
    }

    /// Reads the page whose turn it is and tells everyone who asked for it.
    private func readNext() {
        guard let (page, job) = queue.withLock({ queue -> (PageID, (note: NoteID, done: [Done]))? in
            guard !queue.order.isEmpty else { return nil }
            let page = queue.order.removeFirst()
            return queue.jobs.removeValue(forKey: page).map { (page, $0) }
        }) else { return }
        let outcome = Result { () throws -> [Tag] in
            let stored = try workspace.library.note(matching: job.note.rawValue)
            guard let saved = try workspace.library.pages(of: stored).first(where: { $0.id == page }) else {
                throw StoreError.invalid("page \(page.rawValue) is no longer in the note")
            }
            let result = try recognizer().recognize(saved)
            try workspace.index().record([(stored, [(saved, result)])], in: workspace.library)
            return result.hashtags
        }
        for done in job.done { done(page, outcome) }
    }

    /// The recogniser for the library's context now.
    private func recognizer() throws -> any PageRecognizer {
        let context = try workspace.recognitionContext()
        return try engine.withLock { engine in
            if let engine, engine.context.reads(like: context) { return engine.recognizer }
            let made = try makeRecognizer(context)
            engine = (context, made)
            return made
        }
    }
}
