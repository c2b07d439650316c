import Foundation
import Hummingbird
import HummingbirdWebSocket
import InkwellKit
import Logging
import NIOCore
import NIOWebSocket
import ServiceLifecycle

/// How `inkwell serve` runs.
public struct ServeOptions: Sendable {
    public var host: String
    public var port: Int
    /// Every request must carry it (cookie, `?token=` or `Authorization: Bearer`); nil: none needed
    /// (only allowed on a loopback address).
    public var token: String?
    /// Recognise saved pages in the background (hashtags become tags).
    public var recognize: Bool
    /// The editor session's timings.
    public var session: SessionConfig
    /// How long stopping may take (saving open notes, closing sockets) before the server gives up
    /// and leaves what is unsaved in the notes' journals.
    public var stopWithin: Duration

    public init(host: String = "127.0.0.1", port: Int = 7878, token: String? = nil, recognize: Bool = true,
                session: SessionConfig = SessionConfig(), stopWithin: Duration = .seconds(10)) {
        self.host = host
        self.port = port
        self.token = token
        self.recognize = recognize
        self.session = session
        self.stopWithin = stopWithin
    }

    /// Whether `host` only accepts connections from this machine.
    public static func isLoopback(_ host: String) -> Bool {
        ["127.0.0.1", "localhost", "::1"].contains(host) || host.hasPrefix("127.")
    }
}

/// The web notebook: the library, search and export over HTTP, and one WebSocket per open note
/// carrying pen input to the note's editor session and the session's effects back.
public struct WebServer: Sendable {
    public let workspace: Workspace
    public let options: ServeOptions
    let rooms: LiveRooms
    let thumbnails = ThumbnailCache()
    let backgroundImages = BackgroundImageCache()
    let uploads = UploadGate()
    let sockets = OpenSockets()

    public init(workspace: Workspace, options: ServeOptions) {
        self.workspace = workspace
        self.options = options
        rooms = LiveRooms(workspace: workspace, config: options.session, recognize: options.recognize)
    }

    /// The application, ready to run; `onRunning` hears the port it listens on.
    public func application(logger: Logger, onRunning: @escaping @Sendable (Int) async -> Void = { _ in })
        -> some ApplicationProtocol {
        let router = makeRouter()
        return Application(
            router: router,
            server: .http1WebSocketUpgrade(webSocketRouter: router, configuration: .init(ws: .init(maxFrameSize: ClientMessage.maxFrameBytes))),
            configuration: .init(address: .hostname(options.host, port: options.port), serverName: "inkwell"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? 0) },
            logger: logger
        )
    }

    /// Replays the journals a stopped server left, then serves until the process gets SIGINT or
    /// SIGTERM. Then it stops: no note opens any more, every browser on a note is told, every open
    /// note saves what it has and lets go (strokes in progress end as at pen up), the sockets close,
    /// then the server stops listening and closes its other connections. A second signal, or
    /// ``ServeOptions/stopWithin`` passing, ends that at once (see ``ServeStop``). `onRunning` hears
    /// the port it listens on; `onStopping` how many notes are open when the first signal comes.
    public func run(logger: Logger, onRunning: @escaping @Sendable (Int) async -> Void = { _ in },
                    onStopping: @escaping @Sendable (Int) -> Void = { _ in }) async throws -> ServeStop {
        // The journals of notes open here are this process's: `check` elsewhere leaves them alone.
        let lease: AnyObject?
        do {
            lease = try workspace.holdLiveLease()
        } catch {
            lease = nil
            logger.warning("cannot mark the library as served live (\(error)): `inkwell check` may apply open notes' journals")
        }
        defer { withExtendedLifetime(lease) {} }
        // What a server killed before saving kept in the notes' journals goes into the pages first.
        for line in workspace.replayJournals() { logger.notice("\(line)") }

        enum Event { case signal, serverEnded((any Error)?), deadline }
        let (events, event) = AsyncStream<Event>.makeStream()
        let signals = StopSignals { event.yield(.signal) }
        defer { signals.cancel() }
        // No signals of its own: the server is told to shut down only once the notes are saved.
        let services = ServiceGroup(configuration: .init(services: [application(logger: logger, onRunning: onRunning)], logger: logger))
        Task {
            do {
                try await services.run()
                event.yield(.serverEnded(nil))
            } catch {
                event.yield(.serverEnded(error))
            }
        }
        var stopping: Task<Void, Never>?
        var timer: Task<Void, Never>?
        defer { timer?.cancel() }
        for await next in events {
            switch next {
            case .serverEnded(let error as IOError) where [EADDRINUSE, EACCES, EADDRNOTAVAIL].contains(error.errnoCode):
                throw ServeError(bindFailure: error.errnoCode, options: options)
            case .serverEnded(let error):
                if let error { throw error }
                // After a signal the notes were saved before the server was told to shut down; a server
                // that ended by itself has them saved now.
                if stopping == nil { await rooms.stop() }
                return ServeStop(how: .stopped, unsaved: [])
            case .signal where stopping != nil:
                return ServeStop(how: .interrupted, unsaved: await rooms.unsavedWhileStopping.sorted { $0.rawValue < $1.rawValue })
            case .signal:
                onStopping(await rooms.openCount)
                let rooms = rooms
                let sockets = sockets
                stopping = Task {
                    await rooms.stop()
                    // Each socket says "going away" (1001) itself before the graceful shutdown closes what is left.
                    await sockets.waitUntilAllSaidGoodbye(within: .seconds(3))
                    await services.triggerGracefulShutdown()
                }
                let bound = options.stopWithin
                timer = Task {
                    guard (try? await Task.sleep(for: bound)) != nil else { return }
                    event.yield(.deadline)
                }
            case .deadline:
                return ServeStop(how: .timedOut, unsaved: await rooms.unsavedWhileStopping.sorted { $0.rawValue < $1.rawValue })
            }
        }
        return ServeStop(how: .stopped, unsaved: [])  // (the events never end)
    }

    /// Every route, behind the access rules.
    func makeRouter() -> Router<BasicWebSocketRequestContext> {
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.add(middleware: AccessGuard(token: options.token, loopbackOnly: options.token == nil))
        addPages(to: router)
        addLibraryAPI(to: router)
        addLive(to: router)
        return router
    }

    // MARK: HTML and assets

    private func addPages(to router: Router<BasicWebSocketRequestContext>) {
        router.get("/") { _, _ in WebAssets.response(named: "library.html") }
        router.get("/notes/:id") { _, context in
            _ = try noteID(context)
            return WebAssets.response(named: "note.html")
        }
        let rules = WebRules(session: options.session)
        let worker = WebServiceWorker(rules: rules)
        router.get("/sw.js") { _, _ in worker.response }
        router.get("/manifest.webmanifest") { _, _ in WebAssets.response(named: "manifest.webmanifest") }
        router.get("/assets/:name") { _, context in
            let name = context.parameters.get("name") ?? ""
            if name == WebRules.name { return rules.response }
            guard WebAssets.contains(name) else { throw HTTPError(.notFound, message: "no asset \(name)") }
            return WebAssets.response(named: name)
        }
    }

    // MARK: Live writing

    private func addLive(to router: Router<BasicWebSocketRequestContext>) {
        let rooms = rooms
        let workspace = workspace
        let sockets = sockets
        router.ws("/api/notes/:id/live") { request, context in
            guard AccessGuard<BasicWebSocketRequestContext>.sameOrigin(request) else { return .dontUpgrade }
            guard let id = try? noteID(context), (try? await BlockingExecutor.shared.run({ try workspace.note(id: id) })) != nil else {
                return .dontUpgrade
            }
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            // Looked up again: the note may have moved since the upgrade was allowed.
            guard let id = try? noteID(context.requestContext), let entry = try? await BlockingExecutor.shared.run({ try workspace.note(id: id) }) else {
                try await outbound.close(.policyViolation, reason: "no such note")
                return
            }
            let client = UUID()
            // Whose undo history this browser's edits are: the id its page chose, kept across reconnections.
            let owner = WebServer.writerID(context.request.uri.queryParameters.get("writer").map { String($0) }) ?? client.uuidString
            await sockets.opened(client)
            defer { Task { await sockets.saidGoodbye(client) } }
            let room: Room
            do {
                room = try await rooms.join(id)
            } catch let stopping as ServerStopping {
                try await outbound.close(.goingAway, reason: stopping.description)
                return
            } catch {
                try await outbound.close(.unexpectedServerError, reason: "cannot open the note: \(error)")
                return
            }
            let messages = await room.connect(client, note: entry)
            // The socket ends when the browser goes (or sends what is refused), or when the server stops:
            // the room then ends `messages` after its last word, and the socket is closed ("going away").
            let ending = await withTaskGroup(of: SocketEnd.self) { group in
                group.addTask {
                    for await text in messages { try? await outbound.write(.text(text)) }
                    return .serverStopping
                }
                group.addTask { await read(inbound, into: room, from: client, owner: owner) }
                let first = await group.next() ?? .browserLeft(reason: nil)
                if case .serverStopping = first {
                    try? await outbound.close(.goingAway, reason: "server stopping")
                    await sockets.saidGoodbye(client)
                    // A browser answers the close at once, which ends the reading; one that does not
                    // (asleep, or its network gone) is not waited for long.
                    group.addTask {
                        try? await Task.sleep(for: .seconds(2))
                        return .browserLeft(reason: nil)
                    }
                    _ = await group.next()
                }
                group.cancelAll()
                return first
            }
            await room.disconnect(client)
            await rooms.leave(id)
            if case .browserLeft(let closeReason?) = ending {
                context.logger.info("closing a socket of note \(id): \(closeReason)")
                try? await outbound.close(.unacceptableData, reason: String(closeReason.prefix(120)))
            }
        }
    }

    /// A browser's writer id (`?writer=` on the note's socket): 1 to 64 letters, digits and `-`, as the
    /// page makes it; anything else is not taken (the connection is then its own writer).
    static func writerID(_ given: String?) -> String? {
        guard let given, (1...64).contains(given.count), given.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
        else { return nil }
        return "browser:" + given
    }

    /// How a note's socket ended.
    private enum SocketEnd: Sendable {
        /// The browser closed it, or sent something refused (the reason, sent back as the socket closes).
        case browserLeft(reason: String?)
        case serverStopping
    }

    /// Applies a browser's messages until it closes the socket or sends one that is refused.
    private func read(_ inbound: WebSocketInboundStream, into room: Room, from client: UUID, owner: String) async -> SocketEnd {
        do {
            // Up to the frame's limit, so that a message too big is refused by ``ClientMessage/decode(_:)``, saying so.
            for try await message in inbound.messages(maxSize: ClientMessage.maxFrameBytes) {
                guard case .text(let text) = message else { return .browserLeft(reason: "messages are JSON text") }
                do {
                    let message = try ClientMessage.decode(text)
                    if case .pen = message { await room.relay(text, from: client) }
                    try await apply(message, to: room, from: client, owner: owner)
                } catch {
                    return .browserLeft(reason: "\(error)")
                }
            }
        } catch {
            return .browserLeft(reason: "\(error)")
        }
        return .browserLeft(reason: nil)
    }

    private func apply(_ message: ClientMessage, to room: Room, from client: UUID, owner: String) async throws {
        let live = room.live
        switch message {
        case .pen(let input): await live.pen(input, from: client.uuidString, owner: owner)
        case let .tap(x, y, count): await live.tap(x: x, y: y, count: count)
        case let .erase(page, ids, key): await live.erase(ids, on: page, by: owner, key: key)
        case let .eraseAlong(page, points, radius, key):
            await live.erase(along: points, width: 2 * radius, on: page, by: owner, key: key)
        case .undo(let key): await live.undo(by: owner, key: key)
        case .redo(let key): await live.redo(by: owner, key: key)
        case .navigation: await live.navigationWanted()
        case .addPage(let kind): await live.addPage(template: PageTemplate(kind: kind))
        case .visibility(let hidden): await room.visibility(of: client, hidden: hidden)
        case .leave:
            // With others on the note, this browser just goes (its strokes are in the session, which
            // saves them); the last one leaves by the session's rules (asking when changes are unsaved).
            if await room.clientCount > 1 {
                await room.send(.left, to: client)
            } else {
                await live.requestLeave()
            }
        case .answer(let answer): await live.answerLeave(answer)
        case .sendPage(let page): await room.sendPage(page, to: client)
        }
    }
}

/// The note id in the route, checked to be an id (never a path).
func noteID(_ context: some RequestContext) throws -> NoteID {
    guard let raw = context.parameters.get("id"), NoteID.isWellFormed(raw) else {
        throw HTTPError(.badRequest, message: "not a note id")
    }
    return NoteID(rawValue: raw)
}

/// Why the server could not start, said as the user can act on it.
public struct ServeError: Error, CustomStringConvertible {
    public let description: String

    /// The address could not be bound: taken by another program, a port that needs privileges, or an
    /// address this machine does not have.
    init(bindFailure errno: CInt, options: ServeOptions) {
        let address = "\(options.host):\(options.port)"
        switch errno {
        case EADDRINUSE: description = "\(address) is in use by another program: choose another port with --port (or stop the other server)"
        case EACCES: description = "\(address): permission denied (ports below 1024 need privileges): choose another port with --port"
        default: description = "\(address): this machine has no such address: choose another with --host"
        }
    }
}

/// The note sockets being served, until each has said goodbye (closed, or sent "going away" as the
/// server stops): stopping waits for them, so that the graceful shutdown, which closes what is still
/// open with a plain 1000, comes after their 1001.
actor OpenSockets {
    private var open: Set<UUID> = []

    func opened(_ client: UUID) { open.insert(client) }
    func saidGoodbye(_ client: UUID) { open.remove(client) }

    /// Returns when every socket has said goodbye, or after `bound`.
    func waitUntilAllSaidGoodbye(within bound: Duration) async {
        let deadline = ContinuousClock.now + bound
        while !open.isEmpty, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
    }
}
