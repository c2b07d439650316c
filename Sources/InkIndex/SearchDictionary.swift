import Foundation
import InkCore

// Which indexed words a query word matches besides itself, decided the same way by every backend
// (docs/recognition.md, "Indexing and search"). No GRDB here: the backends read the candidates.

/// The words search takes for real words of the language (English: Debian's `wamerican` and
/// `wbritish`), as the index keeps words. A query word that is one of them is no typo: it matches
/// itself, its inflections and misreadings of it, never another real word.
///
/// Reading two lists of 100,000 words into a set costs every `inkwell search` a tenth of a second
/// (several times that in a debug build), so the system dictionary is kept, once made, as a sorted
/// file in the user's cache folder and looked up there by binary search (``SortedTerms``).
package struct SearchDictionary: Sendable {
    private enum Storage: Sendable {
        case terms(Set<String>)
        case sorted(SortedTerms)
    }

    private let storage: Storage

    /// The dictionary of `words` as written in a word list: each kept as ``SearchTerms/term(_:)``
    /// gives it, when it is one word there (`abortion's`, two words, is left out; `abortion` is listed too).
    package init(_ words: some Sequence<String>) {
        storage = .terms(Self.terms(of: words))
    }

    private init(sorted: SortedTerms) {
        storage = .sorted(sorted)
    }

    /// The system's English word lists (``SystemWordList``), read once per process when first asked
    /// for; empty where none is installed (then every word is tolerated as a possible typo).
    package static let system = loading(lists: SystemWordList.paths(language: "eng"), cache: defaultCacheFolder)

    package func contains(_ term: String) -> Bool {
        switch storage {
        case .terms(let terms): terms.contains(term)
        case .sorted(let sorted): sorted.contains(term)
        }
    }

    /// The dictionary of the word lists at `lists`, from the sorted file in `cache` made from these
    /// very lists (named by their paths, sizes and modification times), or read from the lists and
    /// written there for the next process. A cache that cannot be written costs only the time.
    package static func loading(lists: [String], cache: URL?) -> SearchDictionary {
        guard !lists.isEmpty, let cache, let file = cacheFile(for: lists, in: cache) else {
            return SearchDictionary(SystemWordList.words(at: lists))
        }
        if let data = try? Data(contentsOf: file, options: .alwaysMapped), let sorted = SortedTerms(data) {
            return SearchDictionary(sorted: sorted)
        }
        let terms = Self.terms(of: SystemWordList.words(at: lists))
        let data = SortedTerms.data(of: terms)
        do {
            try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
            // Written beside it and renamed: a process reading the cache meanwhile sees the whole file or none.
            let partial = cache.appendingPathComponent(".\(file.lastPathComponent).\(getpid())")
            try data.write(to: partial)
            if rename(partial.path, file.path) != 0 { try? FileManager.default.removeItem(at: partial) }
        } catch {}
        return SearchDictionary(terms)
    }

    /// `$XDG_CACHE_HOME/inkwell`, or `~/.cache/inkwell`; nil without a home.
    static var defaultCacheFolder: URL? {
        let environment = ProcessInfo.processInfo.environment
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("inkwell")
        }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return URL(fileURLWithPath: home).appendingPathComponent(".cache/inkwell")
    }

    /// The cache file of `lists` as they are now: a list replaced by a newer one names another file.
    static func cacheFile(for lists: [String], in folder: URL) -> URL? {
        var identity = "search-words-1"
        for path in lists {
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                  let size = attributes[.size] as? NSNumber, let modified = attributes[.modificationDate] as? Date else { return nil }
            identity += "\n\(path) \(size) \(modified.timeIntervalSince1970)"
        }
        return folder.appendingPathComponent("search-words-\(FNV1a.hex(identity.utf8)).txt")
    }

    /// The terms of a word list's lines (see ``init(_:)``).
    private static func terms(of words: some Sequence<String>) -> Set<String> {
        var terms = Set<String>()
        for word in words {
            let ranges = SearchTerms.wordRanges(in: word)
            if ranges.count == 1 { terms.insert(SearchTerms.term(word[ranges[0]])) }
        }
        return terms
    }
}

/// Terms one to a line, sorted by their UTF-8 bytes: a set that is read from a file without
/// building anything, and searched by halving the bytes.
struct SortedTerms: Sendable {
    private let bytes: Data

    /// The terms of `data`, or nil when it is not such a file (it must end with a line end).
    init?(_ data: Data) {
        guard data.isEmpty || data.last == 0x0A else { return nil }
        bytes = data
    }

    /// The file of `terms`.
    static func data(of terms: Set<String>) -> Data {
        var data = Data()
        for term in terms.map({ Array($0.utf8) }).sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            data.append(contentsOf: term)
            data.append(0x0A)
        }
        return data
    }

    func contains(_ term: String) -> Bool {
        let key = Array(term.utf8)
        return bytes.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Bool in
            let lines = raw.bindMemory(to: UInt8.self)
            // `low` is always the start of a line; every line before it is less than `key`, every
            // line from `high` on greater.
            var low = 0, high = lines.count
            while low < high {
                var start = (low + high) / 2
                while start > low, lines[start - 1] != 0x0A { start -= 1 }
                var end = start
                while end < high, lines[end] != 0x0A { end += 1 }
                let line = UnsafeBufferPointer(rebasing: lines[start..<end])
                if line.elementsEqual(key) { return true }
                if line.lexicographicallyPrecedes(key) { low = end + 1 } else { high = start }
            }
            return false
        }
    }
}

/// English inflections: the forms of one word that a search for any of them finds (`pen`, `pens`;
/// `study`, `studies`, `studied`; `plan`, `planned`, `planning`; `make`, `making`). Regular endings of
/// nouns and verbs only: `-er` and `-est` make other words too often (`corn`, `corner`).
package enum Inflection {
    /// The forms `term` may stand for: its own inflections, the words of three letters or more it may
    /// be an inflection of, and their inflections (`studies` → `study`, `studied`, …). Not `term`
    /// itself; some are not words, which is harmless: only forms the index holds are matched.
    package static func forms(of term: String) -> Set<String> {
        guard term.count >= 3, term.allSatisfy({ $0.isASCII && $0.isLetter }) else { return [] }
        var forms = Set(inflections(of: term))
        for base in bases(of: term) where base.count >= 3 {
            forms.insert(base)
            forms.formUnion(inflections(of: base))
        }
        forms.remove(term)
        return forms
    }

    /// Regular English endings added to `base`.
    static func inflections(of base: String) -> [String] {
        guard let last = base.last else { return [] }
        var forms = [base + "s", base + "ed", base + "ing"]
        if takesES(base) { forms.append(base + "es") }
        if last == "e" {
            forms.append(base + "d")
            // `make`, `making`; not `the`, `thing`.
            if base.count >= 4 { forms.append(String(base.dropLast()) + "ing") }
        }
        if last == "y", base.count > 2, !isVowel(base[base.index(base.endIndex, offsetBy: -2)]) {
            forms += [String(base.dropLast()) + "ies", String(base.dropLast()) + "ied"]
        }
        if endsConsonantVowelConsonant(base) { forms += [base + String(last) + "ed", base + String(last) + "ing"] }
        return forms
    }

    /// The words `term` may be a regular inflection of (``inflections(of:)`` the other way).
    static func bases(of term: String) -> [String] {
        var bases: [String] = []
        func strip(_ suffix: String, add: String = "") {
            guard term.hasSuffix(suffix) else { return }
            let stem = String(term.dropLast(suffix.count))
            // Three letters before an `e` put back: `making` is a form of `make`, `thing` none of `the`.
            guard add != "e" || stem.count >= 3 else { return }
            bases.append(stem + add)
            // A doubled last consonant (`planned`, `running`).
            if add.isEmpty, suffix != "s", let last = stem.last, stem.dropLast().last == last, !isVowel(last) {
                bases.append(String(stem.dropLast()))
            }
        }
        strip("s")
        if term.hasSuffix("es"), takesES(String(term.dropLast(2))) { strip("es") }
        strip("ed")
        strip("ing")
        if term.hasSuffix("ed") { strip("d") }
        strip("ing", add: "e")
        strip("ies", add: "y")
        strip("ied", add: "y")
        return bases
    }

    private static func isVowel(_ character: Character) -> Bool { "aeiou".contains(character) }

    /// `box`, `wish`, `church`, `go`: words whose plural or third person ends in `-es`.
    private static func takesES(_ word: String) -> Bool {
        ["s", "x", "z", "ch", "sh", "o"].contains { word.hasSuffix($0) }
    }

    /// `plan`, `stop`, `big`: a consonant, a vowel and a consonant other than w, x, y at the end.
    private static func endsConsonantVowelConsonant(_ word: String) -> Bool {
        let letters = Array(word.suffix(3))
        guard letters.count == 3 else { return false }
        return !isVowel(letters[0]) && isVowel(letters[1]) && !isVowel(letters[2]) && !"wxy".contains(letters[2])
    }
}
