import Foundation
import Testing
import TestSupport
@testable import InkIndexPostgres

/// Values sent to PostgreSQL as parameters through libpq and read back as they were: text with
/// quotes, backslashes and other scripts, arrays of them, numbers at their limits, NULL.
struct PostgresQueryTests {
    @Test("every kind of value the index sends comes back as it was sent, alone and in arrays")
    func valuesRoundTrip() throws {
        let database = try PostgresDatabase(try PostgresLocation(url: try PostgresTestServer.newDatabase()))
        let texts = ["", "plain", "it's", "a \"quoted\" word", "back\\slash", "{braces,commas}", "NULL", "Zürich ñandú 東京 🖋",
                     "line\nbreak\ttab", " spaced "]
        let numbers = [0, -1, Int.max, Int.min, 42]
        let doubles = [0.0, -0.5, 1e-300, 123456.789, Double.greatestFiniteMagnitude, .infinity, -.infinity]
        try database.run { connection in
            for text in texts {
                #expect(try connection.rows("SELECT \(text)").first?.decode(String.self) == text)
            }
            let array = try connection.rows("SELECT unnest(\(texts)::text[])").map { try $0.decode(String.self) }
            #expect(array == texts)
            for number in numbers { #expect(try connection.rows("SELECT \(number)").first?.decode(Int.self) == number) }
            #expect(try connection.rows("SELECT unnest(\(numbers)::int8[])").map { try $0.decode(Int.self) } == numbers)
            for double in doubles { #expect(try connection.rows("SELECT \(double)").first?.decode(Double.self) == double) }
            #expect(try connection.rows("SELECT \(Double.nan)").first?.decode(Double.self).isNaN == true)
            let flags = try #require(try connection.rows("SELECT \(true), \(false)").first).decode((Bool, Bool).self)
            #expect(flags.0 && !flags.1)
            let missing: String? = nil
            let row = try #require(try connection.rows("SELECT \(missing), \("here" as String?), \(7)").first)
            let (none, some, seven) = try row.decode((String?, String?, Int).self)
            #expect(none == nil && some == "here" && seven == 7)
            // The value is never part of the statement: SQL in it is only text.
            let hostile = "x'); DROP TABLE inkwell_schema; --"
            #expect(try connection.rows("SELECT \(hostile)").first?.decode(String.self) == hostile)
        }
    }

    @Test("a statement the server refuses says why, with its SQLSTATE, and the connection goes on")
    func refusedStatementSaysWhy() throws {
        let database = try PostgresDatabase(try PostgresLocation(url: try PostgresTestServer.newDatabase()))
        #expect {
            try database.run { connection in try connection.run("SELECT * FROM no_such_table") }
        } throws: { error in
            "\(error)".contains("no_such_table") && "\(error)".contains("42P01")
        }
        #expect(try database.run { try $0.rows("SELECT 1").first?.decode(Int.self) } == 1)
    }
}
