import Foundation
import InkStore
import InkwellKit
import Logging
import ServeTestSupport
import Testing

/// `inkwell serve` told to stop (SIGTERM from a supervisor, Ctrl-C) while browsers have a note open
/// (issue 29): it tells them, saves the note, closes the sockets and exits 0 in bounded time, even
/// with a browser that never answers the socket's close (a tablet gone to sleep); a second signal, or
/// the bound passing, exits at once with the confirmed strokes still in the journal.
@Suite("Stopping serve with notes open", .serialized)
struct ServeStopTests {
    let cli = CLI()

    /// A value behind a lock, shared between a test and the callbacks that fill it.
    final class Locked<Value>: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Value
        init(_ value: Value) { self.value = value }
        func withLock<T>(_ body: (inout Value) -> T) -> T {
            lock.lock()
            defer { lock.unlock() }
            return body(&value)
        }
    }

    /// A running `inkwell serve`, its standard error kept as it comes.
    final class Server: @unchecked Sendable {
        let process = Process()
        private(set) var port = 0
        private let errors = Locked("")
        private let exited = DispatchSemaphore(value: 0)

        init(library: URL, arguments: [String] = []) throws {
            process.executableURL = CLI.executable
            process.arguments = ["serve", "--library", library.path, "--port", "0", "--no-recognize"] + arguments
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            err.fileHandleForReading.readabilityHandler = { [errors] handle in
                let data = handle.availableData
                errors.withLock { $0 += String(decoding: data, as: UTF8.self) }
            }
            process.terminationHandler = { [exited] _ in exited.signal() }
            try process.run()
            var line = Data()
            while !line.contains(0x0A) {
                let chunk = out.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                line += chunk
            }
            let text = String(decoding: line, as: UTF8.self)
            let port = text.firstMatch(of: /127\.0\.0\.1:(\d+)\//).flatMap { Int($0.1) }
            self.port = try #require(port, "the server did not start: \(text) \(stderr)")
        }

        var stderr: String { errors.withLock { $0 } }

        func signal(_ number: Int32) { kill(process.processIdentifier, number) }

        /// Seconds until the process exited, or nil if it had not within `seconds` (then it is killed).
        func exitTime(within seconds: Double, since start: ContinuousClock.Instant) -> Double? {
            guard exited.wait(timeout: .now() + seconds) == .success else {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                return nil
            }
            process.waitUntilExit()
            let elapsed = ContinuousClock.now - start
            return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        }

        /// Waits (up to 30 s) until standard error holds `text`.
        func waitForStderr(_ text: String) async throws {
            for _ in 0..<600 where !stderr.contains(text) { try await Task.sleep(for: .milliseconds(50)) }
            #expect(stderr.contains(text))
        }
    }

    /// What a browser got on the note's socket: the messages (JSON text) and how the socket was closed.
    struct Seen: Sendable {
        var messages: [String]
        var close: WebSocketCloseFrame?

        var types: [String] { messages.compactMap { Self.object($0)?["t"] as? String } }
        /// The keys of the strokes the server confirmed (its `ink` and `page` messages).
        var confirmed: [String] { messages.compactMap(Self.object).filter { ["page", "ink"].contains($0["t"] as? String) }.flatMap { $0["keys"] as? [String] ?? [] } }
        static func object(_ text: String) -> [String: Any]? { try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] }
    }

    static func pen(_ key: String, _ kind: String, page: String = "", _ x: Int) -> String {
        switch kind {
        case "down": ##"{"t":"down","k":"\##(key)","page":"\##(page)","pt":[\##(x),100,0.5],"tool":"pen","color":"#000000","w":3}"##
        case "move": #"{"t":"move","k":"\#(key)","pts":[[\#(x + 40),140,0.5]]}"#
        default: #"{"t":"up","k":"\#(key)"}"#
        }
    }

    /// A browser on `note` that writes stroke `w:1` (waiting for its confirmation) and then leaves
    /// `w:2` in progress, with its pen still down; it reads on until the server closes the socket.
    /// `ready` yields once both are sent.
    static func writer(note: String, port: Int, inProgress: Bool = true) -> (ready: AsyncStream<Void>, done: Task<Seen, any Error>) {
        let (ready, readySink) = AsyncStream<Void>.makeStream()
        let done = Task {
            let seen = Locked([String]())
            let close = try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/api/notes/\(note)/live", logger: Logger(label: "test")) { inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 22).makeAsyncIterator()
                func next() async throws -> String? {
                    guard case .text(let text)? = try await messages.next() else { return nil }
                    seen.withLock { $0.append(text) }
                    return text
                }
                let hello = try #require(try await next().flatMap(Seen.object))
                let page = try #require((hello["pages"] as? [[String: Any]])?.first?["id"] as? String)
                for kind in ["down", "move", "up"] { try await outbound.write(.text(pen("w:1", kind, page: page, 100))) }
                while let text = try await next(), !(Seen.object(text)?["keys"] as? [String] ?? []).contains("w:1") {}
                if inProgress {
                    for kind in ["down", "move"] { try await outbound.write(.text(pen("w:2", kind, page: page, 400))) }
                }
                readySink.yield()
                while try await next() != nil {}
            }
            return Seen(messages: seen.withLock { $0 }, close: close)
        }
        return (ready, done)
    }

    /// A browser on `note` that stops reading once it has seen `w:2`'s move relayed (so the server
    /// has applied `w:2`'s pen down and first move): it never answers the server's close, as a tablet
    /// gone to sleep or off the network does not. Cancel its task to let it go.
    static func sleeper(note: String, port: Int) -> (ready: AsyncStream<Void>, done: Task<Void, any Error>) {
        let (ready, readySink) = AsyncStream<Void>.makeStream()
        let done = Task {
            _ = try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/api/notes/\(note)/live", logger: Logger(label: "test")) { inbound, _, _ in
                var messages = inbound.messages(maxSize: 1 << 22).makeAsyncIterator()
                _ = try await messages.next()  // the hello: it is in the note's room
                readySink.yield()
                while case .text(let text)? = try await messages.next() {
                    let message = Seen.object(text)
                    if message?["t"] as? String == "move", message?["k"] as? String == "w:2" { break }
                }
                readySink.yield()
                try await Task.sleep(for: .seconds(120))
            }
        }
        return (ready, done)
    }

    func makeNote() throws -> (Library, NoteID) {
        try cli.ok(["init"])
        try cli.ok(["note", "create", "Open in a browser"])
        let library = try Library(opening: cli.library)
        return (library, try library.notes()[0].note.id)
    }

    func strokes(_ library: Library, _ note: NoteID) throws -> [Int] {
        try library.pages(of: library.note(matching: note.rawValue)).map(\.strokes.count)
    }

    /// Whether a process could take the library's live lock exclusively now (nobody holds it).
    func liveLockIsFree() throws -> Bool {
        let path = cli.library.appendingPathComponent(".journal/.live.lock").path
        let fd = open(path, O_RDWR)
        guard fd >= 0 else { return true }
        defer { close(fd) }
        return flock(fd, LOCK_EX | LOCK_NB) == 0
    }

    @Test("SIGTERM or SIGINT with a note open in two browsers, one asleep: told, saved (the stroke in progress too), sockets closed, exit 0 in bounded time",
          .timeLimit(.minutes(20)), arguments: [SIGTERM, SIGINT])
    func stopsCleanly(signal: Int32) async throws {
        let (library, note) = try makeNote()
        let server = try Server(library: cli.library)
        let sleeper = Self.sleeper(note: note.rawValue, port: server.port)
        var sleeperReady = sleeper.ready.makeAsyncIterator()
        _ = await sleeperReady.next()
        let writer = Self.writer(note: note.rawValue, port: server.port)
        var writerReady = writer.ready.makeAsyncIterator()
        _ = await writerReady.next()
        _ = await sleeperReady.next()

        let start = ContinuousClock.now
        server.signal(signal)
        let took = server.exitTime(within: 15, since: start)
        sleeper.done.cancel()
        let seen = try await writer.done.value
        let time = try #require(took, "did not exit within 15 s of the signal: \(server.stderr)")
        #expect(time < 10, "exited \(time) s after the signal")
        #expect(server.process.terminationStatus == 0, "\(server.stderr)")
        #expect(server.stderr.contains("stopping: saving 1 open note") && server.stderr.hasSuffix("stopped\n"), "\(server.stderr)")
        // The browser was told, heard the stroke in progress confirmed (ended as at pen up), and the
        // socket was closed as a server going away (its reconnecting takes over).
        #expect(seen.types.contains("stopping"), "\(seen.types)")
        #expect(seen.confirmed.contains("w:2"), "\(seen.confirmed)")
        #expect(seen.close?.closeCode == .goingAway, "\(String(describing: seen.close))")
        // Both strokes are in the page file, nothing is left to replay, the live lock is free.
        #expect(try strokes(library, note) == [2])
        #expect(library.notesWithJournal().isEmpty)
        #expect(try liveLockIsFree())
        #expect(!(try cli.ok(["check"])).contains("journal"))
    }

    /// Holds the library's write lock (saves wait for it) until `release` is signalled.
    func holdWriteLock(_ library: Library) -> (held: DispatchSemaphore, release: DispatchSemaphore) {
        let held = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? library.withWriteLock {
                held.signal()
                release.wait()
            }
        }
        held.wait()
        return (held, release)
    }

    @Test("a second SIGTERM while saving exits at once; the journal keeps the confirmed stroke, and check applies it",
          .timeLimit(.minutes(20)))
    func secondSignalExitsAtOnce() async throws {
        let (library, note) = try makeNote()
        // No bound of its own: while the lock is held only the second signal can end the server.
        let server = try Server(library: cli.library, arguments: ["--stop-within", "3600"])
        let writer = Self.writer(note: note.rawValue, port: server.port, inProgress: false)
        var ready = writer.ready.makeAsyncIterator()
        _ = await ready.next()
        // Saving waits for the library's lock (another program holds it until the server is gone).
        let lock = holdWriteLock(try Library(opening: cli.library))
        server.signal(SIGTERM)
        try await server.waitForStderr("stopping: saving 1 open note")
        let start = ContinuousClock.now
        server.signal(SIGTERM)
        // Exiting at all while the lock is held is exiting at once (how soon depends on the machine's load).
        let took = server.exitTime(within: 60, since: start)
        lock.release.signal()
        writer.done.cancel()
        _ = try #require(took, "did not exit within 60 s of the second signal, the library's lock held: \(server.stderr)")
        #expect(server.process.terminationStatus == 1)
        #expect(server.stderr.contains("stopped at once (a second signal), before saving \(note.rawValue)") && server.stderr.contains("journals"),
                "\(server.stderr)")
        #expect(try strokes(library, note) == [0])
        #expect(library.notesWithJournal() == [note])
        #expect(try liveLockIsFree())
        let check = try cli.run(["check"])
        #expect(check.stderr.contains("journal replayed (1 stroke(s) added"), "\(check.stderr)")
        #expect(try strokes(library, note) == [1])
    }

    @Test("past --stop-within, serve exits 1 saying which notes wait in their journals", .timeLimit(.minutes(20)))
    func boundedWhenSavingHangs() async throws {
        let (library, note) = try makeNote()
        let server = try Server(library: cli.library, arguments: ["--stop-within", "1"])
        let writer = Self.writer(note: note.rawValue, port: server.port, inProgress: false)
        var ready = writer.ready.makeAsyncIterator()
        _ = await ready.next()
        let lock = holdWriteLock(try Library(opening: cli.library))
        let start = ContinuousClock.now
        server.signal(SIGTERM)
        // The lock is held until the server is gone: exiting at all is the bound at work, not the save
        // finishing (how soon after the bound depends on the machine's load).
        let took = server.exitTime(within: 60, since: start)
        lock.release.signal()
        writer.done.cancel()
        let time = try #require(took, "did not exit within 60 s, the library's lock held: \(server.stderr)")
        #expect(time >= 1, "exited \(time) s after the signal, before the 1 s bound")
        #expect(server.process.terminationStatus == 1)
        #expect(server.stderr.contains("not done in 1 s, before saving \(note.rawValue)"), "\(server.stderr)")
        #expect(library.notesWithJournal() == [note])
    }
}
