import Foundation

/// Spells a word Tesseract misread as a lexicon word, from what else it thought each letter might be
/// (its per-letter choices, `lstm_choice_mode` 2): handwriting often reads as a non-word a letter or
/// two away from the word, each of whose letters was among Tesseract's choices ("Lorgest" for
/// "Largest", "defavlt" for "default").
///
/// The search walks the choices letter by letter, keeping only beginnings of lexicon words, and
/// prices each step: the letter read costs nothing, another choice the log of how much less likely
/// Tesseract found it, leaving out a punctuation mark little, leaving out or adding a letter a lot.
/// The cheapest lexicon word within the limit wins.
struct LexiconLattice {
    /// What each step of a spelling costs.
    struct Costs: Sendable {
        /// Leaving out a position whose reading is a letter or digit.
        var dropLetter = 2.5
        /// Leaving out a position whose reading is punctuation.
        var dropMark = 0.3
        /// Adding a letter Tesseract did not read at all.
        var insertLetter = 2.5
        /// Largest cost of taking one of a position's other choices (a very unlikely one).
        var maxChoice = 3.0
        /// Spellings kept after each position.
        var beam = 200
        /// Choices looked at per position (the likeliest).
        var choices = 6
        /// Largest cost of a spelling, whatever the length: two edits or so.
        var most = 6.0
    }

    let lexicon: Lexicon
    let costs: Costs
    private let beginnings: Set<String>
    private static let letters = Array("abcdefghijklmnopqrstuvwxyz")
    /// Readings longer than this are not spelled: longer than any word in the lists (scribbles read
    /// as one long word), and the search grows with the length.
    static let longestReading = 32

    init(lexicon: Lexicon, costs: Costs = Costs()) {
        self.lexicon = lexicon
        self.costs = costs
        beginnings = lexicon.wordBeginnings
    }

    /// The lexicon words `choices` (per position, best first) spell within `limit`, cheapest first and at
    /// most `count` of them, each in the case of `reading`, with the punctuation around it kept, and
    /// with its cost; empty when none is in reach. What was read is never among them.
    func spellings(of reading: String, choices: [[OCRChoice]], limit: Double, count: Int = 1) -> [(text: String, cost: Double)] {
        let limit = min(limit, costs.most)
        let lattice = choices.map { position -> [(Character, Double)] in
            let options = OCRChoice.letters(position).prefix(costs.choices)
            guard let top = options.first?.confidence, top > 0 else { return options.prefix(1).map { ($0.letter, 0) } }
            return options.map { ($0.letter, $0.confidence <= 0 ? costs.maxChoice : min(costs.maxChoice, max(0, Double(log(top / $0.confidence))))) }
        }
        func isWordy(_ position: [(Character, Double)]) -> Bool {
            guard let top = position.first?.0 else { return false }
            return top.isLetter || top.isNumber
        }
        guard let first = lattice.firstIndex(where: isWordy), let last = lattice.lastIndex(where: isWordy),
              last - first < Self.longestReading,
              lattice[first...last].contains(where: { $0.first?.0.isLetter == true }) else { return [] }

        var spellings: [String: Double] = ["": 0]
        /// Keeps the cheaper way to reach `spelling`.
        func reach(_ spelling: String, at cost: Double, in spellings: inout [String: Double]) {
            spellings[spelling] = min(spellings[spelling] ?? .infinity, cost)
        }
        func insertions(_ from: [String: Double]) -> [String: Double] {
            var more = from
            for (spelling, cost) in from where cost + costs.insertLetter <= limit {
                for letter in Self.letters where beginnings.contains(spelling + String(letter)) {
                    reach(spelling + String(letter), at: cost + costs.insertLetter, in: &more)
                }
            }
            return pruned(more)
        }
        func pruned(_ spellings: [String: Double]) -> [String: Double] {
            guard spellings.count > costs.beam else { return spellings }
            let kept = spellings.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.prefix(costs.beam)
            return Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
        }
        for position in lattice[first...last] {
            spellings = insertions(spellings)
            var next: [String: Double] = [:]
            let drop = isWordy(position) ? costs.dropLetter : costs.dropMark
            for (spelling, cost) in spellings {
                if cost + drop <= limit { reach(spelling, at: cost + drop, in: &next) }
                for (character, price) in position where cost + price <= limit && beginnings.contains(spelling + String(character)) {
                    reach(spelling + String(character), at: cost + price, in: &next)
                }
            }
            spellings = pruned(next)
            if spellings.isEmpty { return [] }
        }
        spellings = insertions(spellings)
        // The punctuation around the word as read; the letters in between are what was spelled.
        let isPunctuation: (Character) -> Bool = { !($0.isLetter || $0.isNumber) }
        let leading = String(reading.prefix(while: isPunctuation))
        let trailing = String(reading.dropFirst(leading.count).reversed().prefix(while: isPunctuation).reversed())
        let core = String(reading.dropFirst(leading.count).dropLast(trailing.count))
        return spellings.filter { $0.key.count >= 2 && $0.key != core.lowercased() && lexicon.words.contains($0.key) }
            .sorted { ($0.value, $0.key) < ($1.value, $1.key) }.prefix(count)
            .map { (leading + Self.cased($0.key, like: core) + trailing, $0.value) }
    }

    /// `word` in the case `model` was written in: all capitals, a capital first, or lower case.
    static func cased(_ word: String, like model: String) -> String {
        let letters = model.filter(\.isLetter)
        if letters.count > 1, letters.allSatisfy(\.isUppercase) { return word.uppercased() }
        if letters.first?.isUppercase == true { return word.prefix(1).uppercased() + word.dropFirst() }
        return word
    }
}
