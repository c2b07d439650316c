import Foundation
import InkCore

/// Text clean-up for recognised handwriting: a pen draws one kind of dash and one kind of quote,
/// so the typographic variants Tesseract picks are mapped to ASCII.
public enum RecognizedText {
    private static let dashes: Set<Character> = ["\u{2010}", "\u{2011}", "\u{2012}", "\u{2013}", "\u{2014}", "\u{2015}",
                                                 "\u{2212}", "\u{FE58}", "\u{FE63}", "\u{FF0D}", "\u{00AD}"]
    private static let replacements: [Character: String] = [
        "\u{2018}": "'", "\u{2019}": "'", "\u{201A}": "'", "\u{201B}": "'", "\u{201C}": "\"", "\u{201D}": "\"",
        "\u{201E}": "\"", "\u{00AB}": "\"", "\u{00BB}": "\"", "\u{2026}": "...", "\u{FB01}": "fi", "\u{FB02}": "fl",
        "\u{FB00}": "ff",
    ]

    /// `word` with every dash variant (en, em, minus, figure dash…) as `-`, curly quotes straight,
    /// ligatures split, and a lone `|` as `I`.
    public static func normalized(_ word: String) -> String {
        // A lone stroke read as a bar is the pronoun (handwriting has no pipes).
        if !word.isEmpty, word.count <= 2, word.first == "|", word.allSatisfy({ $0 == "|" || $0 == "!" }) { return "I" }
        guard word.unicodeScalars.contains(where: { !$0.isASCII }) else { return word }
        var result = ""
        for character in word {
            if dashes.contains(character) {
                result.append("-")
            } else if let replacement = replacements[character] {
                result += replacement
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// The tag a recognised hashtag word writes, or nil: `#` (one or more) then a tag name; junk
    /// before the name, punctuation after it and dash variants are dealt with (`#q3—plan.` is
    /// `q3-plan`). Characters a tag cannot hold are dropped, `|` is read as `l`.
    public static func hashtag(in word: String) -> Tag? {
        guard word.hasPrefix("#") else { return nil }
        return tag(fromBody: String(word.drop(while: { $0 == "#" })))
    }

    /// A tag from the text after `#`.
    static func tag(fromBody raw: String) -> Tag? {
        var body = Substring(normalized(raw).replacingOccurrences(of: "|", with: "l"))
        body = body.drop(while: { !($0.isLetter || $0.isNumber) })
        while let last = body.last, !(last.isLetter || last.isNumber) { body = body.dropLast() }
        let cleaned = String(body.compactMap { character -> Character? in
            if character.isASCII, character.isLetter || character.isNumber || "-_/".contains(character) { return character }
            return nil
        })
        return Tag(cleaned)
    }
}

/// Snaps recognised hashtags to tags the library already has, when the reading is close enough to
/// one of them to be a misreading of it and clearly closer to it than to any other: recognised
/// `#budgot` becomes `#budget`. Closeness is an edit distance in which the letters handwriting
/// recognition confuses (a/o, e/c, n/m, u/v, v/w, r/n…) cost half; when Tesseract's alternatives for
/// each letter are known, a letter it also considered costs less still.
public struct TagSnapper: Sendable {
    public let known: Set<Tag>
    private let names: [(tag: Tag, characters: [Character])]

    public init(known: Set<Tag>) {
        self.known = known
        names = known.sorted().map { ($0, Array($0.name)) }
    }

    /// Largest distance accepted for a known tag of `length` characters: about one edit in three.
    public static func allowance(forLength length: Int) -> Double {
        length <= 2 ? 0 : max(1, 0.34 * Double(length))
    }

    /// The best must be at least this much closer than the next best known tag.
    public static let margin = 0.5

    /// The known tag `tag` is a misreading of, with the distance; nil when none is close enough, or
    /// when another known tag is nearly as close.
    public func match(_ tag: Tag) -> (tag: Tag, distance: Double)? {
        if known.contains(tag) { return (tag, 0) }
        let text = Array(tag.name)
        return best { candidate, limit in
            abs(candidate.count - text.count) > Int(limit.rounded(.up)) ? .infinity : weightedDistance(text, candidate, limit: limit)
        }
    }

    /// The known tag best explaining a word read with `alternatives` (per character, best first).
    public func match(alternatives: [[OCRChoice]]) -> (tag: Tag, distance: Double)? {
        let lattice = alternatives.map { OCRChoice.letters($0).map { ($0.letter, Double($0.confidence)) } }
        guard !lattice.isEmpty else { return nil }
        return best { candidate, limit in
            abs(candidate.count - lattice.count) > Int(limit.rounded(.up)) + 1 ? .infinity : latticeDistance(candidate, lattice)
        }
    }

    /// The known tag that `text` starts with, when Tesseract ran the hashtag together with the next
    /// word (`q3-planmeeting`): the tag, the distance, and how many characters of `text` it took.
    /// At least two letters must be left over, the prefix must be within half the usual allowance,
    /// and the match must be clearly the best, as in ``match(_:)``.
    public func matchPrefix(_ text: String) -> (tag: Tag, distance: Double, length: Int)? {
        let characters = Array(text.lowercased())
        var scored: [(tag: Tag, distance: Double, length: Int, accepted: Bool)] = []
        for (tag, name) in names {
            // Stricter than a whole match: where the tag ends is a guess too.
            let limit = max(1, Self.allowance(forLength: name.count) / 2)
            let slack = Int(limit.rounded(.up))
            var best = (distance: Double.infinity, length: 0)
            let shortest = max(1, name.count - slack), longest = min(characters.count - 2, name.count + slack)
            if shortest <= longest {
                for length in shortest...longest {
                    let d = weightedDistance(Array(characters[..<length]), name, limit: limit + Self.margin)
                    if d < best.distance { best = (d, length) }
                }
            }
            scored.append((tag, best.distance, best.length, best.distance <= limit))
        }
        guard let winner = scored.filter(\.accepted).min(by: { $0.distance < $1.distance }) else { return nil }
        let runnerUp = scored.filter { $0.tag != winner.tag }.map(\.distance).min() ?? .infinity
        guard runnerUp - winner.distance >= Self.margin,
              characters[winner.length...].filter({ $0.isLetter }).count >= 2 else { return nil }
        return (winner.tag, winner.distance, winner.length)
    }

    /// `tag` itself, or the known tag it is a misreading of.
    public func snap(_ tag: Tag) -> Tag { match(tag)?.tag ?? tag }

    /// The known tag with the smallest distance, if within its allowance and clearly ahead of every
    /// other known tag.
    private func best(_ distance: ([Character], Double) -> Double) -> (tag: Tag, distance: Double)? {
        var scored: [(tag: Tag, distance: Double, accepted: Bool)] = []
        for (tag, characters) in names {
            let limit = Self.allowance(forLength: characters.count)
            let d = distance(characters, limit + Self.margin)
            scored.append((tag, d, d <= limit))
        }
        guard let winner = scored.filter(\.accepted).min(by: { $0.distance < $1.distance }) else { return nil }
        let runnerUp = scored.filter { $0.tag != winner.tag }.map(\.distance).min() ?? .infinity
        guard runnerUp - winner.distance >= Self.margin else { return nil }
        return (winner.tag, winner.distance)
    }

    /// Pairs of letters handwriting recognition mistakes for each other.
    static let confusable: Set<String> = {
        let pairs = ["ao", "ae", "ec", "eo", "co", "nm", "nu", "nr", "uv", "vw", "rv", "uw", "lt", "li", "ij", "hk",
                     "hb", "gq", "gy", "gp", "jy", "sa", "l1", "i1", "o0", "s5", "z2", "tf", "b6", "ea", "ie", "cr", "ft",
                     "yv", "kh", "il", "rs"]
        return Set(pairs.flatMap { [$0, String($0.reversed())] })
    }()

    static func substitution(_ a: Character, _ b: Character) -> Double {
        a == b ? 0 : confusable.contains(String([a, b])) ? 0.5 : 1
    }

    /// Two letters read for one (or one for two): `rn` for `m`, `cl` for `d`…
    static let confusablePairs: Set<String> = {
        let pairs = ["rn:m", "nn:m", "in:m", "ri:n", "cl:d", "vv:w", "ii:u", "ri:u", "lc:k", "lr:k", "ln:h", "li:h"]
        return Set(pairs.flatMap { pair -> [String] in
            let parts = pair.split(separator: ":")
            return ["\(parts[0]):\(parts[1])", "\(parts[1]):\(parts[0])"]
        })
    }()

    /// Edit distance with half-cost substitutions between confusable letters (and letter pairs, such
    /// as `rn` for `m`); gives up past `limit`.
    func weightedDistance(_ a: [Character], _ b: [Character], limit: Double) -> Double {
        if a.isEmpty { return Double(b.count) }
        if b.isEmpty { return Double(a.count) }
        var table = [[Double]](repeating: [Double](repeating: 0, count: b.count + 1), count: a.count + 1)
        for j in 0...b.count { table[0][j] = Double(j) }
        for i in 1...a.count {
            table[i][0] = Double(i)
            var rowMin = table[i][0]
            for j in 1...b.count {
                var d = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + Self.substitution(a[i - 1], b[j - 1]))
                if i >= 2, Self.confusablePairs.contains(String([a[i - 2], a[i - 1]]) + ":" + String(b[j - 1])) {
                    d = min(d, table[i - 2][j - 1] + 0.5)
                }
                if j >= 2, Self.confusablePairs.contains(String(a[i - 1]) + ":" + String([b[j - 2], b[j - 1]])) {
                    d = min(d, table[i - 1][j - 2] + 0.5)
                }
                table[i][j] = d
                rowMin = min(rowMin, d)
            }
            if rowMin > limit { return .infinity }
        }
        return table[a.count][b.count]
    }

    /// Alignment cost of `tag` against a lattice of character choices with confidences: a letter
    /// that is the reading costs 0, one among the alternatives less the closer its confidence is to
    /// the reading's, a confusable one 0.5; a spurious punctuation mark 0.3; anything else 1.
    func latticeDistance(_ tag: [Character], _ lattice: [[(Character, Double)]]) -> Double {
        func cost(_ c: Character, _ choices: [(Character, Double)]) -> Double {
            guard let top = choices.first else { return 1 }
            if top.0 == c { return 0 }
            var best = Self.substitution(c, top.0)
            if let alternative = choices.first(where: { $0.0 == c }), top.1 > 0 {
                best = min(best, max(0.1, 1 - 0.9 * alternative.1 / top.1))
            }
            return best
        }
        func skip(_ choices: [(Character, Double)]) -> Double {
            guard let top = choices.first else { return 0 }
            return top.0.isLetter || top.0.isNumber ? 1 : 0.3
        }
        var previous = [0.0]
        for choices in lattice { previous.append(previous[previous.count - 1] + skip(choices)) }
        var current = previous
        for i in 1...tag.count {
            current[0] = Double(i)
            for j in 1...lattice.count {
                current[j] = min(previous[j] + 1, current[j - 1] + skip(lattice[j - 1]),
                                 previous[j - 1] + cost(tag[i - 1], lattice[j - 1]))
            }
            swap(&previous, &current)
        }
        return previous[lattice.count]
    }
}
