import Foundation
import InkCore
import InkIndex
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
    /// at once and by name (a server that cannot be reached as ``IndexUnreachable``).
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
            throw IndexUnreachable("\(location.description): cannot connect to PostgreSQL: \(PostgresDatabase.reason(error))")
        }
    }

    /// Runs `body` on a connection of its own. When the connection is lost meanwhile (the server
    /// stopped, restarted or did not answer in time) it throws ``IndexUnreachable``: the server rolled
    /// back whatever `body` had not committed, and the next call connects anew.
    func run<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        // A connection the server closed while it was idle (a restart) is dropped: PostgresNIO would
        // wait forever for the answer to a statement sent on it.
        let reusable = idle.withLock { idle -> PostgresConnection? in
            while let connection = idle.popLast() {
                if !connection.isClosed { return connection }
            }
            return nil
        }
        let connection = try reusable ?? PostgresDatabase.connect(configuration, location)
        // A connection that broke is closed for good: it is dropped (closing it again is harmless).
        defer {
            if connection.isClosed { try? (connection.close() as EventLoopFuture<Void>).wait() } else { idle.withLock { $0.append(connection) } }
        }
        do {
            return try body(connection)
        } catch let error as PSQLError {
            if connection.isClosed || PostgresDatabase.isLostConnection(error) {
                _ = connection.close() as EventLoopFuture<Void>
                throw IndexUnreachable("\(location.description): connection to PostgreSQL lost: \(PostgresDatabase.reason(error))")
            }
            throw PostgresIndexError.server(PostgresDatabase.reason(error))
        } catch let error as NoAnswer {
            throw IndexUnreachable("\(location.description): \(error)")
        }
    }

    /// True for errors that end the connection rather than the statement: the socket failed or closed,
    /// or the server said it is shutting down or cannot take connections (SQLSTATE classes 08 and 57P).
    static func isLostConnection(_ error: PSQLError) -> Bool {
        switch error.code {
        case .clientClosedConnection, .serverClosedConnection, .connectionError, .uncleanShutdown: return true
        default:
            let state = error.serverInfo?[.sqlState] ?? ""
            return state.hasPrefix("08") || state.hasPrefix("57P")
        }
    }

    /// How long a statement may take before its connection is given up as lost: a server that went
    /// away without closing the socket (a host down, a network cut) would otherwise be waited for forever.
    /// Statements are short; the longest wait is for the index's write lock, held a moment by each writer.
    static let statementTimeout = TimeAmount.seconds(60)

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

/// A statement that will never be answered: its connection closed (the server went away), or it got
/// no answer within ``PostgresDatabase/statementTimeout`` (then its connection is closed).
struct NoAnswer: Error, CustomStringConvertible {
    let description: String
}

extension PostgresConnection {
    /// Runs `query` and collects its rows. PostgresNIO sends a statement on a connection that has just
    /// closed into nothing and never answers it (1.33: `channel.write(…, promise: nil)`), so the answer
    /// is given up when the connection was closed as the statement was sent, and after
    /// ``PostgresDatabase/statementTimeout`` (a server gone without closing the socket).
    func rows(_ query: PostgresQuery) throws -> [PostgresRow] {
        let timeout = PostgresDatabase.statementTimeout
        let answer = eventLoop.makePromise(of: PostgresQueryResult.self)
        let timer = eventLoop.scheduleTask(in: timeout) {
            answer.fail(NoAnswer(description: "PostgreSQL gave no answer in \(timeout.nanoseconds / 1_000_000_000) s (connection closed)"))
            _ = self.close() as EventLoopFuture<Void>
        }
        (self.query(query, logger: PostgresDatabase.log) as EventLoopFuture<PostgresQueryResult>).whenComplete { result in
            timer.cancel()
            answer.completeWith(result)
        }
        // Runs on the connection's event loop after the statement was handed to the channel: if the
        // channel had closed, it was dropped unsent. (Failing an answered statement does nothing.)
        eventLoop.execute {
            guard self.isClosed else { return }
            timer.cancel()
            answer.fail(NoAnswer(description: "the server closed the connection"))
        }
        return try answer.futureResult.wait().rows
    }

    /// Runs `query`, ignoring any rows.
    func run(_ query: PostgresQuery) throws {
        _ = try rows(query)
    }
}
