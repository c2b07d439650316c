import Foundation
@testable import InkServe
import InkwellKit
import Testing

@Suite("The rules the browser draws with come from the engine")
struct WebRulesTests {
    /// The object `rules.js` exports, parsed.
    func exported(_ rules: WebRules) throws -> [String: Any] {
        let script = String(decoding: rules.script, as: UTF8.self)
        let marker = "export const RULES = "
        let start = try #require(script.range(of: marker)).upperBound
        let json = script[start...].trimmingCharacters(in: .whitespacesAndNewlines).dropLast()  // the closing ";"
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    @Test("rules.js is a module exporting InkRules and the socket's limits; the session's band follows the server's configuration")
    func moduleHoldsTheEngineValues() throws {
        var session = SessionConfig()
        session.topEdgeBand = 96
        let rules = try exported(WebRules(session: session))
        let limits = try #require(rules["limits"] as? [String: Int])
        #expect(limits == ["message": ClientMessage.maxBytes, "points": ClientMessage.maxPoints])
        let ink = try #require(rules["ink"] as? [String: Any])
        #expect(ink["topEdgeBand"] as? Double == 96)
        // The same values InkRules gives, through JSON.
        let expected = try JSONSerialization.jsonObject(with: JSONEncoder().encode(InkRules(session: session))) as? NSDictionary
        #expect((ink as NSDictionary) == expected)
    }
}
