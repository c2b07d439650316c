import Foundation
import InkCore

// Which indexed words a query word matches besides itself, decided the same way by every backend
// (docs/recognition.md, "Indexing and search"). No GRDB here: the backends read the candidates.

/// The words search takes for real words of the language (English: Debian's `wamerican` and
/// `wbritish`), as the index keeps words. A query word that is one of them is no typo: it matches
/// itself, its inflections and misreadings of it, never another real word.
package struct SearchDictionary: Sendable {
    private let words: Set<String>

    /// The dictionary of `words` as written in a word list: each kept as ``SearchTerms/term(_:)``
    /// gives it, when it is one word there (`abortion's`, two words, is left out; `abortion` is listed too).
    package init(_ words: some Sequence<String>) {
        var terms = Set<String>()
        for word in words {
            let ranges = SearchTerms.wordRanges(in: word)
            if ranges.count == 1 { terms.insert(SearchTerms.term(word[ranges[0]])) }
        }
        self.words = terms
    }

    /// The system's English word lists (``SystemWordList``), read once per process when first asked
    /// for; empty where none is installed (then every word is tolerated as a possible typo).
    package static let system = SearchDictionary(SystemWordList.words(at: SystemWordList.paths(language: "eng")))

    package func contains(_ term: String) -> Bool { words.contains(term) }
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
