import Foundation

/// The neural reader's output over the steps of one word, folded to what the lexicon spells with:
/// at each step, the likelihood of CTC's blank and of each letter a–z (capital and small together).
/// Kept with a word the model read so that the lexicon can weigh whole words against it
/// (``CTCSpelling``), letters left out or added included.
public struct LetterSteps: Sendable, Hashable {
    /// The letters, in the order of their likelihoods after the blank's.
    static let letters = Array("abcdefghijklmnopqrstuvwxyz")
    static let width = 1 + letters.count

    /// Step by step: the blank, then a…z.
    let likelihoods: [Float]

    init(likelihoods: [Float]) {
        precondition(likelihoods.count % Self.width == 0)
        self.likelihoods = likelihoods
    }

    /// How many steps.
    var count: Int { likelihoods.count / Self.width }

    func blank(_ step: Int) -> Double { Double(likelihoods[step * Self.width]) }
    func letter(_ letter: Int, _ step: Int) -> Double { Double(likelihoods[step * Self.width + 1 + letter]) }

    /// The letter index (0 for a … 25 for z) of `text` when it is one letter in either case, else nil.
    static func index(of text: String) -> Int? {
        text.count == 1 ? index(of: text.first!) : nil
    }

    /// The letter index (0 for a … 25 for z) of `character` in either case, nil for anything else.
    static func index(of character: Character) -> Int? {
        guard let ascii = character.asciiValue else { return nil }
        switch ascii {
        case 97...122: return Int(ascii) - 97
        case 65...90: return Int(ascii) - 65
        default: return nil
        }
    }

    /// The natural log of how likely the steps are to read `word` (letters only): CTC's forward sum
    /// over every way of placing its letters on the steps; nil when they cannot hold it.
    func logLikelihood(of word: [Int]) -> Double? {
        guard !word.isEmpty, count > 0 else { return nil }
        // The word with blanks around and between its letters: blank, w0, blank, w1, …, blank.
        let states = 2 * word.count + 1
        func symbol(_ state: Int) -> Int? { state % 2 == 0 ? nil : word[state / 2] }
        func likelihood(_ state: Int, _ step: Int) -> Double {
            symbol(state).map { letter($0, step) } ?? blank(step)
        }
        var alpha = [Double](repeating: 0, count: states)
        alpha[0] = likelihood(0, 0)
        alpha[1] = likelihood(1, 0)
        var logScale = 0.0
        for step in 0..<count {
            if step > 0 {
                var next = [Double](repeating: 0, count: states)
                for state in 0..<states {
                    var sum = alpha[state]
                    if state > 0 { sum += alpha[state - 1] }
                    // A letter may follow the letter before without a blank between, unless it is the same.
                    if state > 1, let s = symbol(state), s != symbol(state - 2) { sum += alpha[state - 2] }
                    next[state] = sum * likelihood(state, step)
                }
                alpha = next
            }
            // Scaled each step so that long words do not vanish below Double's range.
            let total = alpha.reduce(0, +)
            guard total > 0 else { return nil }
            logScale += log(total)
            for state in 0..<states { alpha[state] /= total }
        }
        let end = alpha[states - 1] + alpha[states - 2]
        return end > 0 ? logScale + log(end) : nil
    }
}

/// Spells a word the neural reader misread as lexicon words, weighed on the model's own output: a
/// search through the word's steps (CTC's prefix beam search) that keeps only beginnings of lexicon
/// words, so that a word is found with letters left out or added as well as changed ("strche" for
/// "stroke", "werkspaces" for "workspaces"), which per-letter choices (``LexiconLattice``) cannot spell.
/// A spelling costs how much less likely the model finds it than what it read (natural log).
struct CTCSpelling {
    let lexicon: Lexicon
    private let beginnings: Set<String>
    /// Spellings kept after each step.
    let beam: Int
    /// A letter is tried at a step only where the model gives it at least this.
    static let leastLikelihood = 1e-4

    init(lexicon: Lexicon, beam: Int = 64) {
        self.lexicon = lexicon
        self.beam = beam
        beginnings = lexicon.wordBeginnings
    }

    /// The lexicon words the steps read within `limit` of `reading` (cheapest first, at most `count`),
    /// each in the case of `reading` with its punctuation around it kept, and with its cost; empty when
    /// none is in reach, or when the reading is more than letters and punctuation around them. What
    /// was read is never among them.
    func spellings(of reading: String, steps: LetterSteps, limit: Double, count: Int = 1, commonOnly: Bool = false) -> [(text: String, cost: Double)] {
        guard let parts = Self.parts(of: reading), let read = steps.logLikelihood(of: parts.letters) else { return [] }
        let folded = parts.core.lowercased()
        let found = search(steps)
            .filter { $0.word.count >= 2 && $0.word != folded && lexicon.words.contains($0.word) && !(commonOnly && lexicon.rare.contains($0.word)) }
            .map { (word: $0.word, cost: max(0, read - $0.logLikelihood)) }
        return Self.cheapest(found, within: limit, count: count, like: parts)
    }

    /// The words of `candidates` (lower case letters) the steps read within `limit` of `reading`,
    /// cheapest first, at most `count`, as ``spellings(of:steps:limit:count:commonOnly:)`` gives them:
    /// each weighed whole on the steps, without the search.
    static func spellings(of reading: String, steps: LetterSteps, among candidates: [String], limit: Double,
                          count: Int = 1) -> [(text: String, cost: Double)] {
        guard let parts = parts(of: reading), let read = steps.logLikelihood(of: parts.letters) else { return [] }
        let folded = parts.core.lowercased()
        let found = candidates.filter { $0.count >= 2 && $0 != folded }.compactMap { word -> (word: String, cost: Double)? in
            let letters = word.compactMap(LetterSteps.index(of:))
            guard letters.count == word.count, let likelihood = steps.logLikelihood(of: letters) else { return nil }
            return (word, max(0, read - likelihood))
        }
        return cheapest(found, within: limit, count: count, like: parts)
    }

    /// A reading's letters between the punctuation around them; nil when it is more than that, or longer
    /// than the lexicon's spellings go.
    private static func parts(of reading: String) -> (leading: String, core: String, trailing: String, letters: [Int])? {
        let isPunctuation: (Character) -> Bool = { !($0.isLetter || $0.isNumber) }
        let leading = String(reading.prefix(while: isPunctuation))
        let trailing = String(reading.dropFirst(leading.count).reversed().prefix(while: isPunctuation).reversed())
        let core = String(reading.dropFirst(leading.count).dropLast(trailing.count))
        let letters = core.compactMap(LetterSteps.index(of:))
        guard !letters.isEmpty, letters.count == core.count, core.count <= LexiconLattice.longestReading else { return nil }
        return (leading, core, trailing, letters)
    }

    /// The spellings within `limit`, cheapest first, at most `count`, cased like the reading and with its punctuation.
    private static func cheapest(_ found: [(word: String, cost: Double)], within limit: Double, count: Int,
                                 like parts: (leading: String, core: String, trailing: String, letters: [Int])) -> [(text: String, cost: Double)] {
        found.filter { $0.cost <= limit }
            .sorted { ($0.cost, $0.word) < ($1.cost, $1.word) }
            .prefix(count)
            .map { (parts.leading + LexiconLattice.cased($0.word, like: parts.core) + parts.trailing, $0.cost) }
    }

    /// The beginnings of lexicon words the steps are likeliest to read, with the log of how likely.
    private func search(_ steps: LetterSteps) -> [(word: String, logLikelihood: Double)] {
        struct Beam { var blank = 0.0, letter = 0.0; var total: Double { blank + letter } }
        var beams: [String: Beam] = ["": Beam(blank: 1, letter: 0)]
        var logScale = 0.0
        for step in 0..<steps.count {
            let blank = steps.blank(step)
            let tried = (0..<LetterSteps.letters.count).filter { steps.letter($0, step) >= Self.leastLikelihood }
            var next: [String: Beam] = [:]
            for (spelling, beam) in beams {
                next[spelling, default: Beam()].blank += beam.total * blank
                let last = spelling.last.flatMap(LetterSteps.index(of:))
                // The last letter held over another step.
                if let last { next[spelling, default: Beam()].letter += beam.letter * steps.letter(last, step) }
                for letter in tried {
                    let longer = spelling + String(LetterSteps.letters[letter])
                    guard beginnings.contains(longer) else { continue }
                    // The same letter twice needs a blank between.
                    let from = letter == last ? beam.blank : beam.total
                    next[longer, default: Beam()].letter += from * steps.letter(letter, step)
                }
            }
            if next.count > beam {
                next = Dictionary(uniqueKeysWithValues: next.sorted { ($0.value.total, $1.key) > ($1.value.total, $0.key) }.prefix(beam)
                    .map { ($0.key, $0.value) })
            }
            let most = next.values.map(\.total).max() ?? 0
            guard most > 0 else { return [] }
            logScale += log(most)
            beams = next.mapValues { Beam(blank: $0.blank / most, letter: $0.letter / most) }
        }
        return beams.compactMap { $0.value.total > 0 ? ($0.key, logScale + log($0.value.total)) : nil }
    }
}
