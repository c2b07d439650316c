import CPostgres
import Foundation
import InkIndex

/// One connection to a PostgreSQL server through libpq (loaded on first use, ``CPostgres``), used by
/// one thread at a time: ``PostgresDatabase`` hands each caller a connection of its own. Statements
/// are sent with their values as parameters (``PostgresQuery``), never spliced into the SQL.
final class PostgresConnection: @unchecked Sendable {
    // The libpq connection; only the thread that took this connection from the pool touches it.
    private let handle: UnsafeMutableRawPointer

    /// Connects with libpq's keywords (`host`, `port`, `dbname`, `sslmode`, …). Throws the server's or
    /// libpq's reason when the connection cannot be made.
    init(_ parameters: [(String, String)]) throws {
        if let problem = ink_postgres_load() { throw PostgresFailure(reason: String(cString: problem), sqlState: nil, connectionLost: true) }
        let keywords = parameters.map { strdup($0.0) }, values = parameters.map { strdup($0.1) }
        defer { (keywords + values).forEach { free($0) } }
        let made = (keywords + [nil]).map { UnsafePointer($0) }.withUnsafeBufferPointer { keywordList in
            (values + [nil]).map { UnsafePointer($0) }.withUnsafeBufferPointer { valueList in
                ink_pq_connect(keywordList.baseAddress, valueList.baseAddress)
            }
        }
        guard let made else { throw PostgresFailure(reason: "out of memory", sqlState: nil, connectionLost: true) }
        guard ink_pq_is_open(made) != 0 else {
            let reason = PostgresConnection.text(ink_pq_error_message(made))
            ink_pq_finish(made)
            throw PostgresFailure(reason: reason, sqlState: nil, connectionLost: true)
        }
        handle = made
    }

    deinit { ink_pq_finish(handle) }

    /// False once the connection broke (the server went away, restarted or closed it).
    var isOpen: Bool { ink_pq_is_open(handle) != 0 }

    /// Runs `query` and returns its rows (none for a statement that returns none).
    func rows(_ query: PostgresQuery) throws -> [PostgresRow] {
        let values = query.values.map { value in value.flatMap { strdup($0) } }
        defer { values.forEach { free($0) } }
        let answer = query.types.withUnsafeBufferPointer { types in
            values.map { UnsafePointer($0) }.withUnsafeBufferPointer { valueList in
                ink_pq_exec(handle, query.sql, Int32(values.count), types.baseAddress, valueList.baseAddress)
            }
        }
        guard let answer else {
            throw PostgresFailure(reason: PostgresConnection.text(ink_pq_error_message(handle)), sqlState: nil, connectionLost: !isOpen)
        }
        defer { ink_pq_clear(answer) }
        guard ink_pq_succeeded(answer) != 0 else {
            let state = ink_pq_sqlstate(answer).map { String(cString: $0) }
            let message = ink_pq_primary_message(answer).map { String(cString: $0) } ?? PostgresConnection.text(ink_pq_result_message(answer))
            let lost = !isOpen || state.map { $0.hasPrefix("08") || $0.hasPrefix("57P") } ?? false
            throw PostgresFailure(reason: message, sqlState: state, connectionLost: lost)
        }
        let count = ink_pq_rows(answer), columns = ink_pq_columns(answer)
        return (0..<count).map { row in
            PostgresRow(columns: (0..<columns).map { column in ink_pq_value(answer, row, column).map { String(cString: $0) } })
        }
    }

    /// Runs `query`, ignoring any rows.
    func run(_ query: PostgresQuery) throws {
        _ = try rows(query)
    }

    /// libpq's message without its trailing line end.
    private static func text(_ message: UnsafePointer<CChar>?) -> String {
        message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? "unknown error"
    }
}

/// Why a statement or a connection failed: the server's message and SQLSTATE, or libpq's reason,
/// and whether the connection is gone with it.
struct PostgresFailure: Error, CustomStringConvertible {
    let reason: String
    let sqlState: String?
    let connectionLost: Bool

    var description: String { reason + (sqlState.map { " (SQLSTATE \($0))" } ?? "") }
}

/// A statement and its parameters: values interpolated into it are sent apart from the SQL, as
/// `$1`, `$2`, … with their PostgreSQL type (text, int8, float8, boolean or an array of those).
struct PostgresQuery: ExpressibleByStringInterpolation {
    var sql = ""
    var values: [String?] = []
    var types: [UInt32] = []

    init(unsafeSQL: String) { sql = unsafeSQL }

    init(stringLiteral value: String) { sql = value }

    init(stringInterpolation: StringInterpolation) { self = stringInterpolation.query }

    struct StringInterpolation: StringInterpolationProtocol {
        var query = PostgresQuery(unsafeSQL: "")

        init(literalCapacity: Int, interpolationCount: Int) {}

        mutating func appendLiteral(_ literal: String) { query.sql += literal }

        /// SQL written by the program itself, spliced in as it is.
        mutating func appendInterpolation(unescaped sql: String) { query.sql += sql }

        mutating func appendInterpolation(_ value: some PostgresEncodable) { bind(value.postgresText, type: type(of: value).postgresType) }

        mutating func appendInterpolation<Value: PostgresEncodable>(_ value: Value?) {
            bind(value?.postgresText, type: Value.postgresType)
        }

        mutating func appendInterpolation<Element: PostgresEncodable>(_ values: [Element]) {
            // An array literal: `{"a","b"}`, every element quoted, `"` and `\` escaped.
            let elements = values.map { "\"" + $0.postgresText.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
            bind("{" + elements.joined(separator: ",") + "}", type: Element.postgresArrayType)
        }

        private mutating func bind(_ text: String?, type: UInt32) {
            query.values.append(text)
            query.types.append(type)
            query.sql += "$\(query.values.count)"
        }
    }
}

/// A Swift value sent as a statement's parameter, in PostgreSQL's text form.
protocol PostgresEncodable {
    static var postgresType: UInt32 { get }
    static var postgresArrayType: UInt32 { get }
    var postgresText: String { get }
}

// The type OIDs of pg_type (fixed since PostgreSQL 7).
extension String: PostgresEncodable {
    static var postgresType: UInt32 { 25 }
    static var postgresArrayType: UInt32 { 1009 }
    /// libpq sends parameters as C strings; PostgreSQL's text holds no NUL either, so it is left out.
    var postgresText: String { contains("\0") ? replacingOccurrences(of: "\0", with: "") : self }
}

extension Int: PostgresEncodable {
    static var postgresType: UInt32 { 20 }
    static var postgresArrayType: UInt32 { 1016 }
    var postgresText: String { String(self) }
}

extension Double: PostgresEncodable {
    static var postgresType: UInt32 { 701 }
    static var postgresArrayType: UInt32 { 1022 }
    var postgresText: String { isNaN ? "NaN" : isInfinite ? (self < 0 ? "-Infinity" : "Infinity") : "\(self)" }
}

extension Bool: PostgresEncodable {
    static var postgresType: UInt32 { 16 }
    static var postgresArrayType: UInt32 { 1000 }
    var postgresText: String { self ? "t" : "f" }
}

/// One row of an answer, its columns in PostgreSQL's text form (nil for NULL).
struct PostgresRow {
    let columns: [String?]

    /// The row's first column as `type`: `row.decode(Int?.self)`.
    func decode<Value: PostgresDecodable>(_ type: Value.Type) throws -> Value {
        try Value(postgresText: columns.first ?? nil)
    }

    /// The row's columns as `types`, in order: `row.decode((String, Int?).self)`.
    func decode<each Value: PostgresDecodable>(_ types: (repeat each Value).Type) throws -> (repeat each Value) {
        var index = 0
        func next<V: PostgresDecodable>(_: V.Type) throws -> V {
            defer { index += 1 }
            guard index < columns.count else { throw PostgresFailure(reason: "the answer has \(columns.count) columns, not more", sqlState: nil, connectionLost: false) }
            return try V(postgresText: columns[index])
        }
        return (repeat try next((each Value).self))
    }
}

/// A Swift value read from a column's text form.
protocol PostgresDecodable {
    init(postgresText: String?) throws
}

extension PostgresDecodable {
    fileprivate static func unreadable(_ text: String?) -> PostgresFailure {
        PostgresFailure(reason: "cannot read \(text.map { "\"\($0)\"" } ?? "NULL") as \(Self.self)", sqlState: nil, connectionLost: false)
    }
}

extension String: PostgresDecodable {
    init(postgresText text: String?) throws {
        guard let text else { throw Self.unreadable(nil) }
        self = text
    }
}

extension Int: PostgresDecodable {
    init(postgresText text: String?) throws {
        guard let text, let value = Int(text) else { throw Self.unreadable(text) }
        self = value
    }
}

extension Double: PostgresDecodable {
    init(postgresText text: String?) throws {
        guard let text, let value = Double(text) else { throw Self.unreadable(text) }
        self = value
    }
}

extension Bool: PostgresDecodable {
    init(postgresText text: String?) throws {
        guard let text, text == "t" || text == "f" else { throw Self.unreadable(text) }
        self = text == "t"
    }
}

extension Optional: PostgresDecodable where Wrapped: PostgresDecodable {
    init(postgresText text: String?) throws {
        self = try text.map { try Wrapped(postgresText: $0) }
    }
}
