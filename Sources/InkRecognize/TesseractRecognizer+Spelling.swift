import Foundation
import InkCore
import InkGeometry

// Spelling: misread words spelled as lexicon words, from the neural reader's output over the word or
// from Tesseract's letter choices.
extension TesseractRecognizer {
    /// Words no lexicon holds, spelled again when a lexicon word is close enough: a neural reading on
    /// the model's output over its steps (``CTCSpelling``), a Tesseract reading from its other choices
    /// for each letter (``LexiconLattice``); returns what stays searchable beside them: the readings
    /// replaced and the next closest spellings. Left alone: hashtags (matched to known tags later),
    /// look-alikes of one whose `#` was read as a letter, and readings with digits (`10th`, `5am`). A
    /// spelled word's confidence is the reader's times `exp(−cost)`, so in the vote a word read as it is
    /// outweighs the same word spelled. With `pageWords`, the words read surely on the page's lines
    /// other than `line` cost a neural reading's spelling less (``RecognitionOptions/pageSpellingBonus``).
    func spell(_ readings: inout [Reading], pageWords: PageWords? = nil, line: Int = 0) -> [String] {
        var searchable: [String] = []
        for index in readings.indices {
            let text = readings[index].word.text
            let steps = readings[index].letterSteps
            readings[index].letterSteps = nil
            guard !text.hasPrefix("#"), !readings[index].alternatives.isEmpty, !text.contains(where: \.isNumber),
                  lookalikeHashtag(text) == nil else { continue }
            // A word of the lexicon is spelled again only when it is rare and the model read it: it may be
            // a common one the model read nearly as well ("strake", "stroke").
            let known = lexicon.accepts(text)
            if known, steps == nil || !lexicon.isRare(text) { continue }
            let letters = text.filter(\.isLetter).count
            var spelled: [(text: String, cost: Double)]
            if let steps {
                if ctcSpelling == nil { ctcSpelling = CTCSpelling(lexicon: lexicon) }
                let allowance = known ? options.rareSpellingAllowance : options.neuralSpellingAllowance
                spelled = ctcSpelling!.spellings(of: text, steps: steps, limit: allowance * Double(letters),
                                                 count: max(1, options.spellings), commonOnly: known)
                // The words of the page's other lines cost their bonus less (below nothing: they win ties).
                if !known, let pageWords {
                    let bonus = options.pageSpellingBonus * Double(letters)
                    let onPage = CTCSpelling.spellings(of: text, steps: steps, among: pageWords.words(besides: line),
                                                       limit: allowance * Double(letters) + bonus, count: max(1, options.spellings))
                    let others = spelled.filter { word in !onPage.contains { $0.text == word.text } }
                    spelled = Array((onPage.map { ($0.text, $0.cost - bonus) } + others)
                        .sorted { $0.cost < $1.cost }.prefix(max(1, options.spellings)))
                }
            } else {
                if spelling == nil { spelling = LexiconLattice(lexicon: lexicon) }
                spelled = spelling!.spellings(of: text, choices: readings[index].alternatives,
                                              limit: options.spellingAllowance * Double(letters), count: max(1, options.spellings))
            }
            guard let best = spelled.first else { continue }
            searchable += [text] + spelled.dropFirst().map(\.text)
            readings[index].word.text = best.text
            readings[index].word.confidence *= Float(exp(-max(0, best.cost)))
        }
        return searchable
    }
}
