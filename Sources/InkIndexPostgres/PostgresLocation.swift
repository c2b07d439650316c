import Foundation

/// Where a PostgreSQL index lives, read from a URL: `postgres://user[:password]@host[:port]/database`,
/// with `?sslmode=disable|prefer|require` (default `prefer`) and `host=/path` for a Unix socket folder.
public struct PostgresLocation: Sendable, Equatable {
    public enum TLSMode: String, Sendable {
        case disable, prefer, require
    }

    public var host: String
    public var port: Int
    /// The folder of the server's Unix socket, when connecting through one.
    public var socketFolder: String?
    public var user: String
    public var password: String?
    public var database: String
    public var tls: TLSMode

    /// True when `text` names a PostgreSQL index rather than a file.
    public static func isPostgresURL(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// Reads `url`, refusing one that is not a complete PostgreSQL URL, with the reason.
    public init(url: String) throws {
        guard PostgresLocation.isPostgresURL(url) else {
            throw PostgresIndexError.badURL(url, "it must start with postgres:// (for example postgres://inkwell@db.example/inkwell)")
        }
        guard let components = URLComponents(string: url) else {
            throw PostgresIndexError.badURL(url, "it is not a URL (characters such as spaces or @ in a password must be %-encoded)")
        }
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
        socketFolder = query["host"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        host = components.host ?? ""
        if host.isEmpty, socketFolder == nil {
            throw PostgresIndexError.badURL(url, "it names no host (postgres://USER@HOST/DATABASE, or ?host=/socket/folder)")
        }
        port = components.port ?? 5432
        guard (1...65535).contains(port) else { throw PostgresIndexError.badURL(url, "port \(port) is out of range") }
        user = components.user ?? ProcessInfo.processInfo.environment["USER"] ?? "postgres"
        password = components.password
        database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else {
            throw PostgresIndexError.badURL(url, "it names no database (postgres://USER@HOST/DATABASE)")
        }
        let mode = query["sslmode"] ?? "prefer"
        guard let tls = TLSMode(rawValue: mode) else {
            throw PostgresIndexError.badURL(url, "sslmode \(mode) is not one of disable, prefer, require")
        }
        self.tls = tls
        let unknown = Set(query.keys).subtracting(["sslmode", "host"])
        guard unknown.isEmpty else {
            throw PostgresIndexError.badURL(url, "unknown parameter \(unknown.sorted().joined(separator: ", ")) (known: sslmode, host)")
        }
    }

    /// The URL without its password, for messages and `--status`.
    public var description: String {
        let server = socketFolder.map { "?host=\($0)" } ?? ""
        return "postgres://\(user)@\(host.isEmpty ? "" : host + ":\(port)")/\(database)\(server)"
    }
}

/// Why a PostgreSQL index could not be used.
public enum PostgresIndexError: Error, CustomStringConvertible, Equatable {
    /// The URL is not one Inkwell can use.
    case badURL(String, String)
    /// The database holds an index made by a newer Inkwell.
    case newerSchema(database: String, found: Int, supported: Int)
    /// The server refused a statement.
    case server(String)

    public var description: String {
        switch self {
        case .badURL(let url, let reason):
            return "\(PostgresIndexError.redacted(url)): not a PostgreSQL index URL: \(reason)"
        case .newerSchema(let database, let found, let supported):
            return "\(database): the index there was made by a newer Inkwell (schema version \(found); this one knows up to \(supported)): "
                + "upgrade Inkwell, or point --index at another database; nothing was changed"
        case .server(let reason):
            return "PostgreSQL: \(reason)"
        }
    }

    /// `url` with any password replaced by `***`.
    static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? url
    }
}
