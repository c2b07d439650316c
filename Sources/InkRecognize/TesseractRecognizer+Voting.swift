import Foundation
import InkCore
import InkGeometry

// Voting: deciding between the readings of a line's renders, and numbered lists.
extension TesseractRecognizer {
    /// The line's words from several renders' readings, voted slot by slot (``SlotVote``). A word
    /// counts as valid when the lexicon accepts it; a hashtag when it reads as a known tag closely
    /// (within ``RecognitionOptions/confidentTagDistance``: loose snaps of several misreadings would
    /// outvote the one render that read the tag right), or, with no known tags, as lexicon words.
    /// Words vote by their letters whatever the case; hashtags by the known tag they read as. `prior`
    /// gives a one-word reading extra votes (``RecognitionOptions/pageWordVotes``); `weights[r]` multiplies render r's.
    /// `partlyValid` lets a slot's reading with some invalid words vote (``SlotVote``): for the neural reader, whose
    /// near misses ("diffevent shapes") are likelier right than Tesseract's lexicon words ("lent crepes").
    func vote(_ renders: [[Reading]], slots: [[Int]], weights: [Double], partlyValid: Bool,
              prior: (String) -> Double) -> (words: [Reading], alternatives: [String]) {
        func knownTag(_ text: String) -> Tag? {
            guard text.hasPrefix("#"), !snapper.known.isEmpty,
                  let reading = readTag(body: String(text.drop(while: { $0 == "#" })), alternatives: [], next: nil),
                  let distance = reading.relativeDistance, distance <= options.confidentTagDistance else { return nil }
            return reading.tag
        }
        return SlotVote.choose(renders, slots: slots, weights: weights, partlyValidVotes: partlyValid, text: \.word.text, confidence: \.word.confidence,
                               meaning: { knownTag($0).map { "#" + $0.name } ?? $0.lowercased() }, prior: prior) { text in
            guard text.hasPrefix("#") else { return lexicon.accepts(text) }
            if !snapper.known.isEmpty { return knownTag(text) != nil }
            let body = text.drop(while: { $0 == "#" })
            return !body.isEmpty && body.split(separator: "-").allSatisfy { lexicon.accepts(String($0)) }
        }
    }

    /// Numbered lists: on a page where a line starts with a number and a full stop or bracket read
    /// surely (`1.`, `12)`, in some render, confidence ≥ `minimumConfidence`), a letter with its mark
    /// that Tesseract also took for a digit (``Reading/listNumber``) is read as that number, with the
    /// confidence it had: on such a page the number is the likelier reading. Only where a list item's
    /// number can stand: first on its line, or with more of the line after it ("1. smallest 2. medium"),
    /// not ending a line ("than I."). `renders[line][render]` are each line's renders' words.
    static func numberListItems(_ renders: inout [[[Reading]]], minimumConfidence: Float) {
        let numbered = renders.joined().contains { words in
            words.first.map { isListNumber($0.word.text) && $0.word.confidence >= minimumConfidence } ?? false
        }
        guard numbered else { return }
        for l in renders.indices {
            for r in renders[l].indices {
                for w in renders[l][r].indices.dropLast() {
                    guard let number = renders[l][r][w].listNumber else { continue }
                    renders[l][r][w].word.text = number
                }
            }
        }
    }

    /// What follows a list item's number: `1.`, `1)`.
    private static let listMarks: Set<Character> = [".", ")"]

    /// `1.`, `12)`: a list item's number.
    static func isListNumber(_ text: String) -> Bool {
        guard let mark = text.last, listMarks.contains(mark) else { return false }
        let digits = text.dropLast()
        return (1...2).contains(digits.count) && digits.allSatisfy(\.isASCII) && digits.allSatisfy(\.isNumber)
    }

    /// The number a one-letter reading with a full stop or bracket (`Q.`) may be, when Tesseract's
    /// choices for the letter hold a digit within ``RecognitionOptions/listNumberAllowance``.
    func listNumber(_ reading: Reading) -> String? {
        let text = reading.word.text
        guard options.listNumberAllowance > 0, text.count == 2, text.first!.isLetter, Self.listMarks.contains(text.last!),
              let choices = reading.alternatives.first, let top = choices.first?.confidence, top > 0 else { return nil }
        guard let digit = OCRChoice.letters(choices).first(where: { $0.letter.isASCII && $0.letter.isNumber }),
              digit.confidence > 0 else { return nil }
        return Double(log(top / digit.confidence)) <= options.listNumberAllowance ? String(digit.letter) + String(text.last!) : nil
    }
}
