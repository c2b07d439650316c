import Foundation
import InkCore
@testable import InkRecognize
import Testing

@Suite("Spelling neural readings as lexicon words on the model's own output")
struct CTCSpellingTests {
    let spelling = CTCSpelling(lexicon: Lexicon(["stroke", "strokes", "style", "workspaces", "tool"]))

    /// Steps as the model gives them: each step's letters with their likelihoods, the rest on the blank.
    func steps(_ letters: [[(Character, Float)]]) -> LetterSteps {
        var likelihoods: [Float] = []
        for step in letters {
            var row = [Float](repeating: 0, count: LetterSteps.width)
            for (letter, p) in step { row[1 + LetterSteps.index(of: letter)!] += p }
            row[0] = max(0, 1 - step.reduce(0) { $0 + $1.1 })
            likelihoods += row
        }
        return LetterSteps(likelihoods: likelihoods)
    }

    @Test("CTC's sum over alignments: repeats need a blank between, and steps too few for a word hold none")
    func logLikelihood() throws {
        // "a" then "b", a step each: one way to read "ab" (0.9 × 0.8).
        let ab = steps([[("a", 0.9)], [("b", 0.8)]])
        let read = try #require(ab.logLikelihood(of: [0, 1]))
        #expect(abs(read - log(0.9 * 0.8)) < 1e-6)
        // "aa" needs a, blank, a: two steps cannot hold it.
        #expect(steps([[("a", 0.9)], [("a", 0.9)]]).logLikelihood(of: [0, 0]) == nil)
        // "a" over two steps: a a, a blank, blank a.
        let a = try #require(steps([[("a", 0.6)], [("a", 0.5)]]).logLikelihood(of: [0]))
        #expect(abs(a - log(0.6 * 0.5 + 0.6 * 0.5 + 0.4 * 0.5)) < 1e-6)
    }

    @Test("a letter the greedy reading left out, and one it added, are spelled back from the steps")
    func insertionsAndDeletions() throws {
        // "stroe": the model saw a "k" after the "o" but less than the blank there.
        let missingK = steps([[("s", 0.9)], [("t", 0.9)], [("r", 0.9)], [("o", 0.9)], [("k", 0.35)], [("e", 0.9)]])
        let spelled = try #require(spelling.spellings(of: "Stroe,", steps: missingK, limit: 3).first)
        #expect(spelled.text == "Stroke,")
        #expect(spelled.cost < 1)
        // "toool": one "o" too many, read where the model was unsure between "o" and a blank.
        let extraO = steps([[("t", 0.9)], [("o", 0.9)], [], [("o", 0.55)], [], [("o", 0.9)], [("l", 0.9)]])
        #expect(spelling.spellings(of: "toool", steps: extraO, limit: 3).first?.text == "tool")
    }

    @Test("nothing beyond the limit, nothing for what is already the word, and nothing for readings with more than letters")
    func limits() {
        let far = steps([[("s", 0.9)], [("t", 0.9)], [("r", 0.9)], [("o", 0.9)], [("k", 0.01)], [("e", 0.9)]])
        #expect(spelling.spellings(of: "stroe", steps: far, limit: 1).isEmpty)
        #expect(!spelling.spellings(of: "stroe", steps: far, limit: 6).isEmpty)
        let word = steps([[("t", 0.9)], [("o", 0.9)], [], [("o", 0.9)], [("l", 0.9)]])
        #expect(spelling.spellings(of: "tool", steps: word, limit: 6).isEmpty)
        #expect(spelling.spellings(of: "t0ol", steps: word, limit: 6).isEmpty)
    }

    @Test("a neural reading of a rare word becomes a common word its steps read nearly as well; a common word, a name with its capital and a rare word read far better stay")
    func rareWords() throws {
        var lexicon = Lexicon(["from", "fran", "mech", "mesh"])
        lexicon.rare = ["fran", "mech"]
        let recognizer = try TesseractRecognizer(knownTags: [], lexicon: lexicon)
        // "fran" where the model nearly read "from"; "mech" where it hardly saw an "s".
        let nearlyFrom = steps([[("f", 0.9)], [("r", 0.9)], [("a", 0.5), ("o", 0.4)], [("n", 0.5), ("m", 0.4)]])
        let clearlyMech = steps([[("m", 0.9)], [("e", 0.9)], [("c", 0.9), ("s", 0.01)], [("h", 0.9)]])
        var readings = [("fran", nearlyFrom), ("Fran", nearlyFrom), ("mech", clearlyMech), ("from", nearlyFrom)].map { text, steps in
            var reading = TesseractRecognizer.Reading(word: RecognizedWord(text: text, box: Rect(minX: 0, minY: 0, maxX: 10, maxY: 10),
                                                                           confidence: 0.8, line: 0),
                                                      alternatives: [[OCRChoice(text: text, confidence: 80)]])
            reading.letterSteps = steps
            return reading
        }
        let searchable = recognizer.spell(&readings)
        #expect(readings.map(\.word.text) == ["from", "Fran", "mech", "from"])
        #expect(searchable == ["fran"])
    }

    @Test("a misread word becomes the word written on another line of the page rather than another lexicon word the steps read as well")
    func wordsOfThePage() throws {
        let lexicon = Lexicon(["mech", "mesh", "pencil"])
        let recognizer = try TesseractRecognizer(knownTags: [], lexicon: lexicon)
        // "meeh": the third letter's step thought "s" more likely, and "c" less.
        let meeh = steps([[("m", 0.9)], [("e", 0.9)], [], [("e", 0.3), ("s", 0.35), ("c", 0.2)], [("h", 0.9)]])
        func spelled(_ pageWords: PageWords?, line: Int) -> String {
            var readings = [TesseractRecognizer.Reading(word: RecognizedWord(text: "meeh", box: Rect(minX: 0, minY: 0, maxX: 10, maxY: 10),
                                                                              confidence: 0.8, line: line),
                                                         alternatives: [[OCRChoice(text: "meeh", confidence: 80)]])]
            readings[0].letterSteps = meeh
            _ = recognizer.spell(&readings, pageWords: pageWords, line: line)
            return readings[0].word.text
        }
        // Line 0 read "mech" surely, line 1 is the one misread.
        let page = PageWords([[[(text: "mech", confidence: 0.9), (text: "thin", confidence: 0.9)]], [[(text: "meeh", confidence: 0.8)]]],
                             lexicon: lexicon, minimumConfidence: 0.7)
        #expect(spelled(page, line: 1) == "mech")
        #expect(spelled(nil, line: 1) == "mesh")
        #expect(spelled(page, line: 0) == "mesh")   // its own line's words are no evidence
    }

    @Test("the system's rare words: only in wamerican-large, not in wamerican; the library's own words are never rare",
          .enabled(if: ["/usr/share/dict/american-english-large", "/usr/share/dict/american-english"].allSatisfy(FileManager.default.isReadableFile),
                   "needs Debian's wamerican and wamerican-large (scripts/install-deps.sh installs them)"))
    func systemRareWords() {
        let lexicon = Lexicon.system(language: "eng")
        #expect(lexicon.isRare("strake") && lexicon.isRare("mech"))
        #expect(!lexicon.isRare("stroke") && !lexicon.isRare("from") && !lexicon.isRare("Strake"))
        #expect(!lexicon.adding(["mech"]).isRare("mech"))
    }

    @Test("decoding keeps a word's steps from the read before it to the read after it, folded to letters")
    func decodingKeepsLetterSteps() throws {
        // blank, a, B, b, comma, space: "aB," then "b"; "B" and "b" fold to one letter.
        let characters = ["", "a", "B", "b", ",", " "]
        var scores = [Float](repeating: 0, count: 8 * 6)
        for (t, (k, p)) in [(1, 0.9), (0, 1), (2, 0.6), (4, 0.9), (0, 1), (5, 0.9), (3, 0.9), (0, 1)].enumerated() {
            scores[t * 6 + k] = Float(p)
            if k != 0 { scores[t * 6] = Float(1 - p) }
        }
        scores[2 * 6 + 3] = 0.3  // the "B" step also thought "b"
        scores[2 * 6] = 0.1
        let words = NeuralLineReader.decode(scores, steps: 8, characters: characters, stepWidth: 4, height: 48)
        #expect(words.map(\.text) == ["aB,", "b"])
        // "aB" over steps 0–2 (the comma read at step 3); "b" over step 5's end to the last step.
        let first = try #require(words[0].letterSteps)
        #expect(first.count == 3)
        #expect(abs(first.letter(1, 2) - 0.9) < 1e-6)
        #expect(try #require(words[1].letterSteps).count == 2)
    }
}
