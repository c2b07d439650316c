import Foundation
import Testing
@testable import InkIndex

/// The system dictionary kept as a sorted file in the user's cache folder: the same answers as the
/// word lists read into a set, made once, and made again when a list changes.
struct SearchDictionaryCacheTests {
    /// A folder of its own under the test's temporary folder, removed by the caller.
    func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("dictionary-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static let list = ["Abortion", "abortion's", "adoption", "Café", "well-known", "zebra", "zebras", "Zürich", "a", "AOL", "x2", "ñandú"]

    @Test("a sorted file answers as the set does, for every word in it and for words near them that are not")
    func sortedTermsAnswerAsTheSet() throws {
        var generator = SystemRandomNumberGenerator()
        let letters = Array("abcdeéz'")
        var words = Set(Self.list)
        for _ in 0..<400 { words.insert(String((0..<Int.random(in: 1...7, using: &generator)).map { _ in letters.randomElement(using: &generator)! })) }
        let set = SearchDictionary(words)
        let terms = Set(words.map { SearchTerms.terms(in: $0) }.filter { $0.count == 1 }.map { $0[0] })
        let sorted = try #require(SortedTerms(SortedTerms.data(of: terms)))
        var probes = terms
        for term in terms { probes.formUnion([term + "a", String(term.dropLast()), "0" + term, term + "\u{FFFF}"]) }
        probes.insert("")
        for probe in probes {
            #expect(sorted.contains(probe) == set.contains(probe), "\(probe)")
        }
        #expect(SortedTerms(Data("abc".utf8)) == nil, "a file cut short is no dictionary")
        #expect(SortedTerms(Data())?.contains("a") == false)
    }

    @Test("the first search writes the cache, the next reads it, and a changed word list makes a new one")
    func cacheIsMadeOnceAndRenewed() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let listFile = root.appendingPathComponent("words")
        try Self.list.joined(separator: "\n").write(to: listFile, atomically: true, encoding: .utf8)
        let cache = root.appendingPathComponent("cache")

        let first = SearchDictionary.loading(lists: [listFile.path], cache: cache)
        #expect(first.contains("abortion") && first.contains("cafe") && first.contains("zurich") && !first.contains("s"))
        let files = try FileManager.default.contentsOfDirectory(atPath: cache.path)
        #expect(files.count == 1 && files[0].hasPrefix("search-words-"), "\(files)")

        // The second load answers from the file: what the file says, not what the list says.
        try Data("adoption\nzzz\n".utf8).write(to: cache.appendingPathComponent(files[0]))
        let second = SearchDictionary.loading(lists: [listFile.path], cache: cache)
        #expect(second.contains("zzz") && !second.contains("abortion"))

        // A list that changed is read again, into a cache file of its own.
        try (Self.list + ["quarterly"]).joined(separator: "\n").write(to: listFile, atomically: true, encoding: .utf8)
        let third = SearchDictionary.loading(lists: [listFile.path], cache: cache)
        #expect(third.contains("quarterly") && third.contains("abortion") && !third.contains("zzz"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.path).count == 2)
    }

    @Test("a cache folder that cannot be written, or a damaged cache file, costs time and never an answer")
    func unwritableOrDamagedCache() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let listFile = root.appendingPathComponent("words")
        try Self.list.joined(separator: "\n").write(to: listFile, atomically: true, encoding: .utf8)
        let blocked = root.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: blocked)
        let dictionary = SearchDictionary.loading(lists: [listFile.path], cache: blocked)
        #expect(dictionary.contains("adoption") && dictionary.contains("nandu"))

        let cache = root.appendingPathComponent("cache")
        _ = SearchDictionary.loading(lists: [listFile.path], cache: cache)
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: cache.path).first)
        try Data("adoption\nzeb".utf8).write(to: cache.appendingPathComponent(file))
        let again = SearchDictionary.loading(lists: [listFile.path], cache: cache)
        #expect(again.contains("zebra") && again.contains("abortion"), "a cut-short cache is made again")
    }
}
