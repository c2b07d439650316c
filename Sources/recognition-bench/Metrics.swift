import Foundation
import InkCore
import InkRecognize

/// Scores of recognised pages against what they say, summed over pages.
struct Score {
    var pages = 0
    var truthWords = 0
    var matchedWords = 0
    var truthCharacters = 0
    var characterEdits = 0
    var truthTags = 0
    var foundTags = 0
    var falseTags = 0
    /// Distinct truth words found anywhere on their page (bag of words, as the corpus README counts).
    var bagMatched = 0

    var wordAccuracy: Double { truthWords == 0 ? 0 : Double(matchedWords) / Double(truthWords) }
    var bagRecall: Double { truthWords == 0 ? 0 : Double(bagMatched) / Double(truthWords) }
    var characterErrorRate: Double { truthCharacters == 0 ? 0 : Double(characterEdits) / Double(truthCharacters) }
    var tagRecall: Double { truthTags == 0 ? 1 : Double(foundTags) / Double(truthTags) }
    /// False tags as a share of all the tags recognition reported.
    var falseTagRate: Double { foundTags + falseTags == 0 ? 0 : Double(falseTags) / Double(foundTags + falseTags) }

    /// Adds one page: `truthLines` as written, `truthTags`; `text` and `tags` as recognised.
    mutating func add(truthLines: [String], truthTags: [String], text: String, tags: [String]) {
        pages += 1
        let truthWordList = truthLines.flatMap { Score.words($0) }
        let foundWordList = Score.words(text)
        truthWords += truthWordList.count
        matchedWords += Score.alignedMatches(truthWordList, foundWordList)
        var pool: [String: Int] = [:]
        for word in foundWordList { pool[word, default: 0] += 1 }
        for word in truthWordList where (pool[word] ?? 0) > 0 {
            pool[word]! -= 1
            bagMatched += 1
        }
        let truthText = Array(Score.flat(truthLines.joined(separator: " ")))
        let foundText = Array(Score.flat(text))
        truthCharacters += truthText.count
        characterEdits += Score.editDistance(truthText, foundText)
        let truthSet = Set(truthTags), foundSet = Set(tags)
        self.truthTags += truthSet.count
        self.foundTags += truthSet.intersection(foundSet).count
        self.falseTags += foundSet.subtracting(truthSet).count
    }

    static func + (a: Score, b: Score) -> Score {
        var s = a
        s.pages += b.pages
        s.truthWords += b.truthWords
        s.matchedWords += b.matchedWords
        s.truthCharacters += b.truthCharacters
        s.characterEdits += b.characterEdits
        s.truthTags += b.truthTags
        s.foundTags += b.foundTags
        s.falseTags += b.falseTags
        s.bagMatched += b.bagMatched
        return s
    }

    /// Words for comparison: split on white space, case folded, punctuation around them removed
    /// (a leading `#` kept), dashes and quotes normalised.
    static func words(_ text: String) -> [String] {
        text.split(whereSeparator: \.isWhitespace).compactMap { raw -> String? in
            var word = Substring(RecognizedText.normalized(String(raw)).lowercased())
            let hash = word.hasPrefix("#")
            word = word.drop(while: { !($0.isLetter || $0.isNumber) })
            while let last = word.last, !(last.isLetter || last.isNumber) { word = word.dropLast() }
            guard !word.isEmpty else { return nil }
            return (hash ? "#" : "") + word
        }
    }

    /// Text with runs of white space as one space, trimmed.
    static func flat(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Matches in a minimum-edit alignment of two sequences.
    static func alignedMatches(_ a: [String], _ b: [String]) -> Int {
        guard !a.isEmpty, !b.isEmpty else { return 0 }
        // Longest common subsequence: the matches of an alignment with no crossing.
        var previous = [Int](repeating: 0, count: b.count + 1)
        var current = previous
        for i in 1...a.count {
            for j in 1...b.count {
                current[j] = a[i - 1] == b[j - 1] ? previous[j - 1] + 1 : max(previous[j], current[j - 1])
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    static func editDistance<T: Equatable>(_ a: [T], _ b: [T]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}

/// Hashtags in plain recognised text, the way a reader of the CLI's output would take them.
func hashtagsInText(_ text: String) -> [String] {
    var seen: [String] = []
    for word in text.split(whereSeparator: \.isWhitespace) {
        if let tag = RecognizedText.hashtag(in: String(word)), !seen.contains(tag.name) { seen.append(tag.name) }
    }
    return seen
}

func percent(_ value: Double) -> String { String(format: "%.1f%%", value * 100) }
