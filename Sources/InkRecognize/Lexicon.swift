import Foundation
import InkCore

/// The words a reading may be made of: the system word list for the language plus the words the
/// library's owner uses (titles, tags, typed text). Several renders of a line vote with it: a
/// reading made only of known words, numbers and one-letter words counts.
public struct Lexicon: Sendable {
    /// Lower-cased words.
    public private(set) var words: Set<String>
    /// Lower-cased words of `words` that people seldom write: those only a larger word list holds
    /// ("strake", "mech"), and names read in small letters ("fran" for "Fran"). A neural reading of
    /// one may be spelled as a common word its steps read nearly as well (``TesseractRecognizer``).
    public internal(set) var rare: Set<String> = []
    /// Every beginning of a word, made when first asked for and shared by the copies of this lexicon.
    private var prefixes = Prefixes()

    /// A lexicon of exactly `words` (case folded).
    public init<Words: Sequence>(_ words: Words) where Words.Element == String {
        self.words = Set(words.map { $0.lowercased() })
    }

    /// The lexicon with `more` words added (case folded): the library's own vocabulary, none of it rare.
    public func adding<Words: Sequence>(_ more: Words) -> Lexicon where Words.Element == String {
        var copy = self
        for word in more {
            copy.words.insert(word.lowercased())
            copy.rare.remove(word.lowercased())
        }
        if copy.words.count != words.count { copy.prefixes = Prefixes() }
        return copy
    }

    /// Every non-empty beginning of a word in the lexicon (case folded), for spelling a word letter
    /// by letter (``LexiconLattice``). Made once per lexicon, on first use (0.08 CPU s for the
    /// English lists' 104,305 words).
    var wordBeginnings: Set<String> { prefixes.of(words) }

    /// True when `text` is a word a reading may hold: in the lexicon (or every part of a hyphenated
    /// word is), a number, or a single letter. Punctuation around it is ignored; punctuation alone is
    /// not a word.
    public func accepts(_ text: String) -> Bool {
        let trimmed = text.trimmingCharacters(in: Self.surrounding)
        guard !trimmed.isEmpty else { return false }
        if trimmed.count == 1 { return trimmed.first!.isLetter || trimmed.first!.isNumber }
        if Self.isNumber(trimmed) { return true }
        let folded = trimmed.lowercased()
        if words.contains(folded) { return true }
        let parts = folded.split(separator: "-", omittingEmptySubsequences: false)
        return parts.count > 1 && parts.allSatisfy { !$0.isEmpty && words.contains(String($0)) }
    }

    /// True when `text` (punctuation around it ignored) is a rare word of the lexicon, or a name read
    /// in small letters.
    public func isRare(_ text: String) -> Bool {
        let trimmed = text.trimmingCharacters(in: Self.surrounding)
        // A capital may begin a name the lists hold ("Fran"): only small letters make one rare.
        return trimmed.first?.isUppercase == false && rare.contains(trimmed.lowercased())
    }

    /// What surrounds a word without belonging to it: punctuation, symbols, spaces.
    static let surrounding = CharacterSet.punctuationCharacters.union(.symbols).union(.whitespaces)
        .subtracting(CharacterSet(charactersIn: "#"))

    /// Digits with the separators numbers, dates, times and prices are written with: `42`, `3.5`,
    /// `10:30`, `2026-11-25`, `1/2`, `5%`, `$12`.
    static func isNumber(_ text: String) -> Bool {
        guard text.contains(where: \.isNumber) else { return false }
        return text.allSatisfy { $0.isNumber || ".,:/-%$€£".contains($0) }
    }

    // MARK: System word lists

    /// The system word lists for a Tesseract language code (``SystemWordList``): Debian's `wamerican`
    /// and `wbritish` for `eng`, `ngerman` for `deu`, …; `/usr/share/dict/words` when none of those is
    /// installed. Empty when there is no list at all: recognition then votes by confidence alone. Each
    /// file is read once per process.
    public static func system(language: String) -> Lexicon {
        cache.lexicon(of: SystemWordList.paths(language: language))
    }

    private static let cache = Cache()

    /// The beginnings of a lexicon's words, made once.
    private final class Prefixes: Sendable {
        private let set = Once<Set<String>>()

        func of(_ words: Set<String>) -> Set<String> {
            set.get {
                var made = Set<String>(minimumCapacity: words.count * 2)
                for word in words {
                    var prefix = ""
                    for character in word {
                        prefix.append(character)
                        made.insert(prefix)
                    }
                }
                return made
            }
        }
    }

    /// Lexicons read so far, by the word lists they were read from.
    private final class Cache: Sendable {
        private let lists = Locked<[[String]: Lexicon]>([:])

        func lexicon(of paths: [String]) -> Lexicon {
            lists.withLock { lists in
                if let lexicon = lists[paths] { return lexicon }
                var lexicon = Lexicon(SystemWordList.words(at: paths))
                // Common: the smaller lists' words as written in small letters (a name's capital kept out).
                let common = SystemWordList.words(at: SystemWordList.commonPaths(besides: paths))
                    .filter { $0.first?.isLowercase == true }.map { $0.lowercased() }
                if !common.isEmpty { lexicon.rare = lexicon.words.subtracting(common) }
                lists[paths] = lexicon
                return lexicon
            }
        }
    }
}
