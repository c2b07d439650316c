import Foundation
import InkCore
import Testing

@Suite("Quoted string literals")
struct QuotedStringTests {
    @Test("any text reads back unchanged as a JSON string, on one line", arguments: [
        "plain", "say \"hi\"", "back\\slash", "two\nlines\r\n", "tab\there", "bell\u{07} nul\u{00} del\u{7F} c1\u{85}",
        "émoji 🖋️ and 漢字", "--- # not: yaml", "",
    ])
    func roundTrip(text: String) throws {
        let literal = text.quotedLiteral
        #expect(!literal.contains("\n") && !literal.contains("\r"))
        let decoded = try JSONSerialization.jsonObject(with: Data(literal.utf8), options: [.fragmentsAllowed]) as? String
        #expect(decoded == text)
    }
}
