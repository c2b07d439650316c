import Foundation
import Testing
@testable import InkIndex

/// The text side of search, as Sources/FuzzSearch checks it: a query's own text yields a snippet marking
/// its words. Fixtures/fuzz holds the inputs that once broke it (scripts/fuzz.sh copies new ones there).
struct SearchTermsTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/fuzz")

    func expectSnippetMarksWords(of text: String) {
        let terms = SearchTerms.terms(in: text)
        guard !terms.isEmpty else { return }
        let snippet = Snippet.make(from: text, matching: terms.map { WordMatch(word: $0, completions: [], nearby: []) })
        #expect(snippet?.unicodeScalars.contains("«") == true, "\(text.debugDescription) gives snippet \(String(describing: snippet))")
    }

    @Test("a word whose folded form has another length (ß, a decomposed é) is still marked in a snippet")
    func foldingChangesLength() {
        #expect(SearchTerms.terms(in: "Straße") == ["strasse"])
        #expect(Snippet.make(from: "die Straße entlang", matching: [WordMatch(word: "strasse", completions: [], nearby: [])])
            == "die «Straße» entlang")
        #expect(Snippet.make(from: "le cafe\u{301} noir", matching: [WordMatch(word: "cafe", completions: [], nearby: [])])
            == "le «cafe\u{301}» noir")
    }

    @Test("inputs that once broke the fuzz target's checks give snippets of their own words")
    func fuzzRegressions() throws {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path)) ?? []
        #expect(!names.isEmpty)
        for name in names.sorted() where name.hasPrefix("search-") {
            let data = try Data(contentsOf: Self.fixtures.appendingPathComponent(name))
            let text = String(decoding: data, as: UTF8.self)
            expectSnippetMarksWords(of: String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? ""))
        }
    }
}
