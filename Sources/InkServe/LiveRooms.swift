import Foundation
import InkwellKit
import Logging

/// The notes open for live writing: one ``Room`` (one ``LiveNote``) per note however many browsers
/// have it open; the last one to go closes it, which saves everything.
actor LiveRooms {
    private let workspace: Workspace
    private let config: SessionConfig
    /// One recogniser for every open note (nil: none).
    private let recognition: LiveRecognition?
    private var rooms: [NoteID: (room: Room, clients: Int)] = [:]
    /// Notes being opened (off the actor: opening may wait for the library's lock): a browser joining
    /// meanwhile waits for the same opening.
    private var opening: [NoteID: Task<Room, any Error>] = [:]
    /// Notes being saved and closed: opening one again waits, so it reads what was just saved.
    private var closing: [NoteID: Task<Void, Never>] = [:]
    /// Stroke keys each note's live sessions took, kept across them so a browser reconnecting to a
    /// note that was closed and opened again meanwhile does not draw its strokes twice.
    private var accepted: [NoteID: Set<String>] = [:]
    /// Each note's next stroke ids as its last session left them (``LiveNote/nextStrokeIDs``).
    private var strokeIDs: [NoteID: [PageID: StrokeID]] = [:]
    /// Set once the server is stopping: no note opens any more.
    private var isStopping = false
    /// Notes open when the server began to stop that have not been saved and let go yet.
    private(set) var unsavedWhileStopping: Set<NoteID> = []

    init(workspace: Workspace, config: SessionConfig, recognize: Bool) {
        self.workspace = workspace
        self.config = config
        recognition = recognize ? LiveRecognition(workspace: workspace) : nil
    }

    /// The room of `note`, opened if nobody has it open; counts one more client. Opening runs off the
    /// actor (``LiveNote/open(_:in:config:recognition:acceptedKeys:nextStrokeIDs:clock:)``): joining and
    /// leaving other notes go on while one waits for the library's lock, and browsers joining the note
    /// meanwhile share that opening.
    func join(_ note: NoteID) async throws -> Room {
        while true {
            while let pending = closing[note] { await pending.value }
            guard !isStopping else { throw ServerStopping() }
            if let pending = opening[note] {
                let room = try await pending.value
                // Stopped, or closed again by its last browser, meanwhile: the loop says which.
                guard rooms[note]?.room === room else { continue }
                rooms[note]?.clients += 1
                return room
            }
            if let open = rooms[note] {
                let isClosed = await open.room.live.isClosed
                guard rooms[note]?.room === open.room else { continue }  // changed meanwhile
                if !isClosed {
                    rooms[note]?.clients += 1
                    return open.room
                }
                // Closed by itself (its session let go): opened again.
            }
            guard !isStopping else { throw ServerStopping() }
            opening[note] = startOpening(note)
        }
    }

    /// Opens `note` off the actor; once open, its room is the note's (with no clients yet: each
    /// browser waiting for the opening counts itself) and started.
    private func startOpening(_ note: NoteID) -> Task<Room, any Error> {
        let (workspace, config, recognition) = (workspace, config, recognition)
        let (keys, ids) = (accepted[note] ?? [], strokeIDs[note] ?? [:])
        return Task {
            do {
                let live = try await LiveNote.open(note, in: workspace, config: config, recognition: recognition,
                                                   acceptedKeys: keys, nextStrokeIDs: ids)
                let room = Room(live: live, drawing: workspace.pageDrawing(for: live))
                opening[note] = nil
                rooms[note] = (room, 0)
                await room.start()
                return room
            } catch {
                opening[note] = nil
                throw error
            }
        }
    }

    /// One client of `note` went away; the last closes the note, saving everything (a failed save is
    /// retried for a minute, the note kept open meanwhile).
    func leave(_ note: NoteID) async {
        guard let open = rooms[note] else { return }
        if open.clients > 1 {
            rooms[note]?.clients -= 1
            return
        }
        rooms[note] = nil
        let live = open.room.live
        let close = Task {
            await live.close()
            for _ in 0..<60 where !(await live.isClosed) {
                try? await Task.sleep(for: .seconds(1))
                await live.close()
            }
        }
        closing[note] = close
        await close.value
        accepted[note, default: []].formUnion(await live.acceptedKeys)
        strokeIDs[note] = await live.nextStrokeIDs
        closing[note] = nil
    }

    /// The live note of `note` if a browser has it open.
    func openNote(_ note: NoteID) -> LiveNote? { rooms[note]?.room.live }

    /// How many notes are open (or being opened, or saved and closed).
    var openCount: Int { rooms.count + opening.count + closing.count }

    /// The server is stopping: every browser is told, every open note saves what it has (strokes in
    /// progress ended as at pen up) and lets go, then its browsers' message streams end (their
    /// sockets close); no note opens from now on. Returns once every note is saved and let go; a
    /// note whose save fails is retried each second meanwhile (``unsavedWhileStopping`` names those
    /// not let go yet, for a caller that stops waiting).
    func stop() async {
        isStopping = true
        // Notes being opened are open notes too: their rooms are stopped with the others.
        for pending in opening.values { _ = try? await pending.value }
        let open = rooms
        rooms = [:]
        let pendingClosing = closing
        unsavedWhileStopping = Set(open.keys).union(pendingClosing.keys)
        await withTaskGroup(of: Void.self) { group in
            for (note, entry) in open {
                group.addTask { await self.stop(entry.room, note: note) }
            }
            for (note, pending) in pendingClosing {
                group.addTask {
                    await pending.value
                    await self.saved(note)
                }
            }
        }
    }

    private func stop(_ room: Room, note: NoteID) async {
        await room.stop()
        saved(note)
    }

    private func saved(_ note: NoteID) {
        unsavedWhileStopping.remove(note)
    }
}

/// Why a note cannot be opened: the server is stopping.
struct ServerStopping: Error, CustomStringConvertible {
    var description: String { "server stopping" }
}

/// One open note and the browsers on it: turns the note's updates into messages and fans them out.
/// A change of ink goes out as the session made it, the strokes added and removed (each drawn once
/// for everyone), not the page: what a stroke costs does not grow with the page.
actor Room {
    let live: LiveNote
    private var clients: [UUID: AsyncStream<String>.Continuation] = [:]
    /// Browsers whose tab is in the background: the session is told only when every one is.
    private var hidden: Set<UUID> = []
    private var isBackground = false
    private let drawing: PageDrawing
    /// The note's updates, in order, to be turned into messages (and markers a ``stop()`` waits for).
    private var updates: AsyncStream<Queued>.Continuation?
    /// Set once the server is stopping: the session letting go is not passed on as leaving.
    private var isStopping = false

    private enum Queued {
        case update(LiveUpdate)
        /// Every update before it has been published.
        case flushed(CheckedContinuation<Void, Never>)
    }
    /// The pages as the browsers were told of them (by ``publish(_:)``, in order): each change is
    /// applied to them as it goes out, and a browser joining is shown them.
    private var pages: [Page] = []

    init(live: LiveNote, drawing: PageDrawing) {
        self.live = live
        self.drawing = drawing
    }

    /// Starts listening to the note: its updates are turned into messages one at a time, in order.
    func start() async {
        let (updates, sink) = AsyncStream<Queued>.makeStream()
        self.updates = sink
        pages = await live.observe { sink.yield(.update($0)) }
        Task { [weak self] in
            for await queued in updates {
                switch queued {
                case .update(let update):
                    guard let self else { return }
                    await self.publish(update)
                case .flushed(let done): done.resume()
                }
            }
        }
        await live.start()
    }

    /// The server is stopping: tells every browser, saves the note and lets it go (a failed save is
    /// retried each second until it holds), sends the browsers what that changed (the confirmations
    /// of strokes it ended), then ends their message streams, which closes their sockets.
    func stop() async {
        isStopping = true
        let notice = ServerMessage.stopping("server stopping").json
        for continuation in clients.values { continuation.yield(notice) }
        await live.close()
        while !(await live.isClosed) {
            try? await Task.sleep(for: .seconds(1))
            await live.close()
        }
        await withCheckedContinuation { done in
            if let updates { updates.yield(.flushed(done)) } else { done.resume() }
        }
        for continuation in clients.values { continuation.finish() }
    }

    /// How many browsers are on the note.
    var clientCount: Int { clients.count }

    /// Adds a browser; returns its stream of messages, beginning with the note as it is now.
    func connect(_ client: UUID, note: NoteEntry) async -> AsyncStream<String> {
        // A slow browser gets the newest messages; a browser that lost some asks for the page again.
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(1000))
        let now = await live.snapshot()
        let hello = ServerMessage.Hello(
            note: .init(id: note.note.id.rawValue, title: note.note.title, notebook: note.notebook.description),
            pages: pages.map { view(of: $0) }, nav: now.isNavigationVisible, saving: Self.saving(now.saving, now: now.now),
            tags: now.tags.map(\.name).sorted())
        continuation.yield(ServerMessage.hello(hello).json)
        clients[client] = continuation
        // A browser that joins is shown: a session put in the background by the others' hidden tabs
        // comes back, or the newcomer's pen would be ignored.
        await settleBackground()
        return stream
    }

    /// A browser's tab went to the background or came back.
    func visibility(of client: UUID, hidden isHidden: Bool) async {
        if isHidden { hidden.insert(client) } else { hidden.remove(client) }
        await settleBackground()
    }

    /// Sends one message to one browser.
    func send(_ message: ServerMessage, to client: UUID) {
        clients[client]?.yield(message.json)
    }

    /// Sends one browser the whole page it asked for.
    func sendPage(_ id: PageID, to client: UUID) async {
        guard let page = pages.first(where: { $0.id == id }) else { return }
        send(.page(view(of: page)), to: client)
    }

    /// Shows a stroke in progress to the other browsers on the note as it is written: the writer's own
    /// pen message, passed on as it came (it was decoded and checked), drawn on their live canvas
    /// until the update with its key arrives.
    func relay(_ text: String, from writer: UUID) {
        for (client, continuation) in clients where client != writer { continuation.yield(text) }
    }

    func disconnect(_ client: UUID) async {
        clients[client]?.finish()
        clients[client] = nil
        hidden.remove(client)
        await live.writerLeft(client.uuidString)
        await settleBackground()
    }

    /// The session is in the background while every browser on the note is.
    private func settleBackground() async {
        let allHidden = !clients.isEmpty && hidden.isSuperset(of: clients.keys)
        guard allHidden != isBackground else { return }
        isBackground = allHidden
        await live.background(allHidden)
    }

    private func publish(_ update: LiveUpdate) async {
        let message: ServerMessage
        switch update {
        case .navigation(let visible): message = .nav(visible: visible)
        case .saving(let state): message = .saving(Self.saving(state, now: await live.now))
        case .changed(let change, let keys): message = apply(change, keys: keys)
        case .confirmed(let id, let keys):
            guard let page = pages.first(where: { $0.id == id }) else { return }
            message = .ink(.init(page: id.rawValue, strokes: page.strokes.count, add: [], remove: [], keys: keys))
        case .tags(let tags): message = .tags(tags.map(\.name).sorted())
        // Stopping saves without asking, and the browsers stay on the note (to reconnect), not leave it.
        case .confirmLeave: if isStopping { return } else { message = .confirmLeave }
        case .left: if isStopping { return } else { message = .left }
        case .error(let text): message = .error(text)
        }
        let text = message.json
        for continuation in clients.values { continuation.yield(text) }
    }

    /// Applies `change` to the pages as the browsers have them and says what they are sent for it:
    /// the strokes added (each before the next stroke of its layer they have) and removed; the whole
    /// page when it is new to them, or has eraser strokes (before or after).
    private func apply(_ change: InkChange, keys: [String]) -> ServerMessage {
        guard let index = pages.firstIndex(where: { $0.id == change.page }) else {
            var page = Page(id: change.page, size: change.size, template: change.template)
            page.apply(change)
            pages.append(page)
            return whole(page, keys: keys)
        }
        let wasWhole = drawing.drawsWhole(pages[index])
        pages[index].apply(change)
        let page = pages[index]
        if wasWhole || drawing.drawsWhole(page) { return whole(page, keys: keys) }
        let addedIDs = Set(change.added.map(\.stroke.id))
        let inks = change.added.map { placed -> ServerMessage.StrokeInk in
            var ink = inkOf(placed.stroke, on: page)
            // Before the next stroke of its layer the browsers already have.
            ink.before = page.strokes[(placed.index + 1)...].first { !addedIDs.contains($0.id) && drawing.isUnderInk($0) == ink.under }
                .map(\.id.rawValue)
            return ink
        }
        return .ink(.init(page: page.id.rawValue, strokes: page.strokes.count, add: inks, remove: change.removed.map(\.rawValue), keys: keys))
    }

    /// The whole of `page`, confirming `keys`.
    private func whole(_ page: Page, keys: [String]) -> ServerMessage {
        var whole = view(of: page)
        whole.keys = keys
        return .page(whole)
    }

    private func inkOf(_ stroke: Stroke, on page: Page) -> ServerMessage.StrokeInk {
        let drawn = drawing.ink(of: stroke, on: page)
        return .init(id: stroke.id.rawValue, under: drawn.underInk, svg: drawn.svg)
    }

    /// A page as the browser shows it: its size, template, stroke count, the SVG of its paper and its
    /// ink stroke by stroke (or whole, on a page with eraser strokes).
    private func view(of page: Page) -> ServerMessage.PageView {
        // The PDF page under the ink is linked, not embedded: the browser fetches it once (its address
        // names the document, the page and the size), not with every stroke.
        var paper = drawing.paper(page, backgroundHref: page.template.background.map { WebServer.backgroundAddress(note: live.id, page: page, $0) })
        if let start = paper.range(of: "<svg") { paper = String(paper[start.lowerBound...]) }
        let whole = drawing.drawsWhole(page)
        return .init(id: page.id.rawValue, width: Double(page.size.width), height: Double(page.size.height),
                     template: page.template.kind.description, tolerance: drawing.tolerance(page), strokes: page.strokes.count, paper: paper,
                     ink: whole ? [] : page.strokes.map { inkOf($0, on: page) }, wholeInk: whole ? drawing.wholeInk(page) : nil)
    }

    /// The saving state as the browser shows it; a retry says in how many seconds.
    static func saving(_ state: SavingState, now: Double) -> ServerMessage.Saving {
        switch state {
        case .saved: .init(state: "saved")
        case .unsaved: .init(state: "unsaved")
        case .saving: .init(state: "saving")
        case let .retrying(at, reason): .init(state: "retrying", in: max(0, at - now), reason: reason)
        }
    }
}
