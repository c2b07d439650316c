import Foundation
import InkCore
import InkIndex

/// Connections to one PostgreSQL database, used from ordinary threads: each call takes an idle
/// connection (or opens one), runs its statements, and gives it back. The indexing job's worker
/// threads each get their own connection this way. libpq's calls block the calling thread, as
/// SQLite's do.
final class PostgresDatabase: Sendable {
    let location: PostgresLocation
    private let parameters: [(String, String)]
    private let idle = Locked<[PostgresConnection]>([])

    /// Connects once, so that a wrong address, a refused connection or a refused login is reported
    /// at once and by name (a server that cannot be reached as ``IndexUnreachable``).
    init(_ location: PostgresLocation) throws {
        self.location = location
        parameters = PostgresDatabase.parameters(of: location)
        let first = try PostgresDatabase.connect(parameters, location)
        idle.withLock { $0.append(first) }
    }

    /// libpq's connection keywords for `location`. A server that goes away without closing the
    /// socket (a host down, a network cut) is given up after about a minute: TCP keepalives probe an
    /// idle wait for an answer, and unacknowledged data is abandoned after 60 s.
    static func parameters(of location: PostgresLocation) -> [(String, String)] {
        var parameters: [(String, String)] = [
            ("host", location.socketFolder ?? location.host), ("port", String(location.port)), ("user", location.user),
            ("dbname", location.database), ("sslmode", location.tls.rawValue), ("connect_timeout", "10"),
            ("client_encoding", "UTF8"), ("application_name", "inkwell"),
        ]
        if location.socketFolder == nil {
            parameters += [("keepalives", "1"), ("keepalives_idle", "30"), ("keepalives_interval", "10"), ("keepalives_count", "3"),
                           ("tcp_user_timeout", "60000")]
        }
        if let password = location.password { parameters.append(("password", password)) }
        return parameters
    }

    private static func connect(_ parameters: [(String, String)], _ location: PostgresLocation) throws -> PostgresConnection {
        do {
            return try PostgresConnection(parameters)
        } catch {
            throw IndexUnreachable("\(location.description): cannot connect to PostgreSQL: \(PostgresDatabase.reason(error))")
        }
    }

    /// Runs `body` on a connection of its own. When the connection is lost meanwhile (the server
    /// stopped, restarted or did not answer in time) it throws ``IndexUnreachable``: the server rolled
    /// back whatever `body` had not committed, and the next call connects anew.
    func run<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        // A connection the server closed while it was idle (a restart) is dropped.
        let reusable = idle.withLock { idle -> PostgresConnection? in
            while let connection = idle.popLast() {
                if connection.isOpen { return connection }
            }
            return nil
        }
        let connection = try reusable ?? PostgresDatabase.connect(parameters, location)
        // A connection that broke is dropped (libpq closes it when it is freed); an open one is kept.
        defer { if connection.isOpen { idle.withLock { $0.append(connection) } } }
        do {
            return try body(connection)
        } catch let failure as PostgresFailure {
            if failure.connectionLost || !connection.isOpen {
                throw IndexUnreachable("\(location.description): connection to PostgreSQL lost: \(PostgresDatabase.reason(failure))")
            }
            throw PostgresIndexError.server(PostgresDatabase.reason(failure))
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

    /// Why `error` happened, in words.
    static func reason(_ error: any Error) -> String {
        if let error = error as? PostgresIndexError { return error.description }
        guard let failure = error as? PostgresFailure else { return "\(error)" }
        if failure.sqlState == nil, failure.reason.contains("Connection refused") {
            return "connection refused (is the server running and listening there?)"
        }
        // libpq's connection messages run over lines ("…failed: …\n\tIs the server running…"): one line here.
        return failure.description.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }
}
