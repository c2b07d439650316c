import Foundation

/// The test suite's PostgreSQL server: a throwaway cluster (scripts/pg-test-server.sh) started on
/// first use and stopped when the test process exits. Each test gets a database of its own, so tests
/// run in parallel without seeing each other's rows.
public enum PostgresTestServer {
    /// The URL of a new, empty database on the server.
    public static func newDatabase() throws -> String {
        let server = try shared.get()
        let name = "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let created = try tool(["psql", "-q", "-v", "ON_ERROR_STOP=1", server.url, "-c", "CREATE DATABASE \(name)"])
        guard created.status == 0 else { throw ServerError("psql could not create a database: \(created.output)") }
        return server.url.replacingOccurrences(of: "/inkwell?", with: "/\(name)?")
    }

    /// The server's base URL (its `inkwell` database), starting it if need be.
    public static func baseURL() throws -> String { try shared.get().url }

    /// Runs `psql` with `sql` against `url`, returning its output (tuples only, unaligned).
    public static func psql(_ url: String, _ sql: String) throws -> String {
        let result = try tool(["psql", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", url, "-c", sql])
        guard result.status == 0 else { throw ServerError("psql failed: \(result.output)") }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A server of one test's own, which the test may stop and start again (the shared server goes on
    /// serving the other tests meanwhile); removed by ``remove()``.
    public struct OwnServer: Sendable {
        /// Its folder, as scripts/pg-test-server.sh printed it.
        public let folder: String
        /// Its `inkwell` database.
        public let url: String

        /// Stops it as an administrator would (`pg_ctl stop -m fast`: sessions are ended, connections closed).
        public func down() throws { try OwnServer.run("down", folder) }
        /// Starts it again on the same port.
        public func up() throws { try OwnServer.run("up", folder) }
        /// Stops it for good and removes its folder.
        public func remove() { _ = try? tool([PostgresTestServer.script, "stop", folder]) }

        static func run(_ command: String, _ folder: String) throws {
            let result = try tool([PostgresTestServer.script, command, folder])
            guard result.status == 0 else { throw ServerError("pg-test-server.sh \(command): \(result.output)") }
        }
    }

    /// Starts a server of the caller's own.
    public static func ownServer() throws -> OwnServer {
        let server = try start()
        return OwnServer(folder: server.folder, url: server.url)
    }

    struct ServerError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    private struct Server: Sendable {
        let folder: String
        let url: String
    }

    private static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../scripts/pg-test-server.sh").standardizedFileURL.path

    private static func start() throws -> Server {
        let started = try tool([script, "start"])
        let lines = started.output.split(separator: "\n").map(String.init)
        guard started.status == 0, lines.count >= 2, lines[lines.count - 1].hasPrefix("postgres://") else {
            throw ServerError("could not start the test PostgreSQL server (scripts/pg-test-server.sh; scripts/install-deps.sh installs postgresql): \(started.output)")
        }
        return Server(folder: lines[lines.count - 2], url: lines[lines.count - 1])
    }

    private static let shared = Lazily<Server> {
        let server = try start()
        startedFolder.withLock { $0 = server.folder }
        atexit {
            if let folder = PostgresTestServer.startedFolder.withLock({ $0 }) {
                _ = try? tool([PostgresTestServer.script, "stop", folder])
            }
        }
        return server
    }

    private static let startedFolder = Mutex<String?>(nil)
}

/// A value made once, on first use, by whichever thread asks first (a failure is kept and rethrown).
final class Lazily<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var made: Result<Value, any Error>?
    private let make: () throws -> Value

    init(_ make: @escaping () throws -> Value) { self.make = make }

    func get() throws -> Value {
        try lock.withLock {
            if made == nil { made = Result { try make() } }
            return try made!.get()
        }
    }
}

/// A value behind a lock.
final class Mutex<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) -> T) -> T { lock.withLock { body(&value) } }
}
