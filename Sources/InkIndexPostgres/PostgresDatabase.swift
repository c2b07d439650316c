import Foundation
import InkCore
import Logging
import PostgresNIO

/// Connections to one PostgreSQL database, used from ordinary threads: each call takes an idle
/// connection (or opens one), runs its statements, and gives it back. The indexing job's worker
/// threads each get their own connection this way. Statements are sent and waited for with
/// PostgresNIO's future API, on NIO's own threads, so a caller on any thread (Swift's concurrency
/// pool included: tests run there) never waits for a thread it is itself holding.
final class PostgresDatabase: Sendable {
    let location: PostgresLocation
    private let configuration: PostgresConnection.Configuration
    private let idle = Locked<[PostgresConnection]>([])
    private static let logger = Logger(label: "inkwell.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Connects once, so that a wrong address, a refused connection or a refused login is reported
    /// at once and by name.
    init(_ location: PostgresLocation) throws {
        self.location = location
        var configuration: PostgresConnection.Configuration
        let tls: PostgresConnection.Configuration.TLS
        switch location.tls {
        case .disable: tls = .disable
        case .prefer: tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        case .require: tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
        if let folder = location.socketFolder {
            configuration = .init(unixSocketPath: folder + "/.s.PGSQL.\(location.port)", username: location.user,
                                  password: location.password, database: location.database)
        } else {
            configuration = .init(host: location.host, port: location.port, username: location.user, password: location.password,
                                  database: location.database, tls: tls)
        }
        configuration.options.connectTimeout = .seconds(10)
        self.configuration = configuration
        let first = try PostgresDatabase.connect(configuration, location)
        idle.withLock { $0.append(first) }
    }

    deinit {
        for connection in idle.withLock({ $0 }) { try? (connection.close() as EventLoopFuture<Void>).wait() }
    }

    private static func connect(_ configuration: PostgresConnection.Configuration, _ location: PostgresLocation) throws -> PostgresConnection {
        do {
            return try PostgresConnection.connect(on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration,
                                                  id: Int.random(in: 0..<Int.max), logger: logger).wait()
        } catch {
            throw PostgresIndexError.cannotConnect(location.description, PostgresDatabase.reason(error))
        }
    }

    /// Runs `body` on a connection of its own.
    func run<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        let connection = try idle.withLock { $0.popLast() } ?? PostgresDatabase.connect(configuration, location)
        // A connection that broke is closed for good: it is dropped (closing it again is harmless).
        defer {
            if connection.isClosed { try? (connection.close() as EventLoopFuture<Void>).wait() } else { idle.withLock { $0.append(connection) } }
        }
        do {
            return try body(connection)
        } catch let error as PSQLError {
            throw PostgresIndexError.server(PostgresDatabase.reason(error))
        }
    }

    /// Runs `body` in a transaction (rolled back if it throws), holding the index's write lock:
    /// changes to notes, pages and the vocabulary are made one transaction at a time across every
    /// process, so they never deadlock. They are short; claiming pages does not take the lock.
    func write<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try run { connection in
            try connection.run("BEGIN")
            do {
                try connection.run("SELECT pg_advisory_xact_lock(\(PostgresDatabase.writeLock))")
                let value = try body(connection)
                try connection.run("COMMIT")
                return value
            } catch {
                try? connection.run("ROLLBACK")
                throw error
            }
        }
    }

    /// The advisory lock key of index writes (and schema changes): "Inkw".
    static let writeLock = 0x496E_6B77

    /// Why `error` happened, in words (PostgresNIO's own description hides the server's message).
    static func reason(_ error: any Error) -> String {
        if let error = error as? PostgresIndexError { return error.description }
        guard let error = error as? PSQLError else { return "\(error)" }
        if let message = error.serverInfo?[.message] {
            let state = error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
            return message + state
        }
        if let underlying = error.underlying {
            let text = "\(underlying)"
            if text.contains("refused") || text.contains("ECONNREFUSED") {
                return "connection refused (is the server running and listening there?)"
            }
            return text
        }
        return "\(error.code)"
    }

    static var log: Logger { logger }
}

extension PostgresConnection {
    /// Runs `query` and collects its rows.
    func rows(_ query: PostgresQuery) throws -> [PostgresRow] {
        try (self.query(query, logger: PostgresDatabase.log) as EventLoopFuture<PostgresQueryResult>).wait().rows
    }

    /// Runs `query`, ignoring any rows.
    func run(_ query: PostgresQuery) throws {
        _ = try rows(query)
    }
}
