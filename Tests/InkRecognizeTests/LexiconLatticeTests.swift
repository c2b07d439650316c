import Foundation
import InkCore
@testable import InkRecognize
import Testing

@Suite("Spelling misread words from Tesseract's other choices for each letter")
struct LexiconLatticeTests {
    let lattice = LexiconLattice(lexicon: Lexicon(["largest", "longest", "default", "eraser", "tool", "on"]))

    /// One position per letter: the letter read first, then the other choices with their confidences.
    func choices(_ positions: [[(String, Float)]]) -> [[OCRChoice]] {
        positions.map { $0.map { OCRChoice(text: $0.0, confidence: $0.1) } }
    }

    @Test("a letter among the choices turns a non-word into the word, in the case it was written in")
    func secondChoice() throws {
        // "Lorgest", where Tesseract's second choice for the "o" was "a" (real reMarkable reading).
        let read = choices([[("L", 96)], [("o", 93), ("e", 67), ("a", 55)], [("r", 92)], [("g", 94), ("q", 50)],
                            [("e", 92)], [("s", 90)], [("t", 95)]])
        let spelled = try #require(lattice.spellings(of: "Lorgest", choices: read, limit: 3.5).first)
        #expect(spelled.text == "Largest")
        #expect(abs(spelled.cost - Double(log(Float(93) / 55))) < 1e-6)
        // "Longest" would need an "n" nobody read and a dropped "r": dearer than the limit.
        #expect(lattice.spellings(of: "Lorgest", choices: read, limit: 0.4).isEmpty)
    }

    @Test("punctuation around the word stays; a letter no choice holds costs an insertion")
    func punctuationAndInsertion() throws {
        // "(defavlt," with no "u" among the fifth letter's choices: one letter in, one left out.
        let read = choices([[("(", 90)], [("d", 94)], [("e", 96)], [("f", 96)], [("a", 96)], [("v", 84), ("r", 80)],
                            [("l", 90)], [("t", 92)], [(",", 88)]])
        let spelled = try #require(lattice.spellings(of: "(defavlt,", choices: read, limit: 5.5).first)
        #expect(spelled.text == "(default,")
        #expect(abs(spelled.cost - 5) < 1e-6)
        #expect(lattice.spellings(of: "(defavlt,", choices: read, limit: 4.9).isEmpty)
    }

    @Test("nothing is spelled when no word is within reach, or for a reading with no letters")
    func noCorrection() {
        let read = choices([[("q", 90), ("z", 10)], [("x", 90)], [("k", 90)]])
        #expect(lattice.spellings(of: "qxk", choices: read, limit: 1.5).isEmpty)
        #expect(lattice.spellings(of: "42", choices: choices([[("4", 90)], [("2", 90)]]), limit: 5).isEmpty)
        #expect(lattice.spellings(of: "", choices: [], limit: 5).isEmpty)
        // A scribble read as one long word is not searched at all.
        let long = String(repeating: "tool", count: 9)
        let scribble = choices(long.map { [(String($0), Float(90))] })
        #expect(lattice.spellings(of: long, choices: scribble, limit: 100).isEmpty)
    }

    @Test("the lexicon's word beginnings include the library's own words")
    func beginningsFollowAddedWords() {
        let lexicon = Lexicon(["tool"])
        #expect(lexicon.wordBeginnings.contains("too") && !lexicon.wordBeginnings.contains("rno"))
        let more = lexicon.adding(["Rnote"])
        #expect(more.wordBeginnings.contains("rno") && more.wordBeginnings.contains("too"))
        #expect(!lexicon.wordBeginnings.contains("rno"))
    }
}

extension LexiconLatticeTests {
    @Test("several spellings come cheapest first, what was read never among them")
    func ranked() {
        let read = choices([[("L", 96)], [("o", 93), ("a", 55)], [("r", 92), ("n", 37)], [("g", 94)],
                            [("e", 92)], [("s", 90)], [("t", 95)]])
        let spelled = lattice.spellings(of: "Lorgest", choices: read, limit: 3.5, count: 3)
        #expect(spelled.map(\.text) == ["Largest", "Longest"])
        #expect(spelled[0].cost < spelled[1].cost)
        let tool = choices([[("t", 90)], [("o", 90)], [("o", 90)], [("l", 90), ("k", 50)]])
        #expect(lattice.spellings(of: "tool", choices: tool, limit: 3, count: 3).isEmpty)
    }
}

@Suite("The recogniser spells the words it read")
struct RecognizerSpellingTests {
    func reading(_ text: String, _ letters: [[(String, Float)]], confidence: Float = 0.8) -> TesseractRecognizer.Reading {
        TesseractRecognizer.Reading(word: RecognizedWord(text: text, box: Rect(minX: 0, minY: 0, maxX: 10, maxY: 10),
                                                         confidence: confidence, line: 0),
                                    alternatives: letters.map { $0.map { OCRChoice(text: $0.0, confidence: $0.1) } })
    }

    /// Each letter of `text` read at 90, with `also` as a second choice where given.
    func letters(_ text: String, also: [Int: (String, Float)] = [:]) -> [[(String, Float)]] {
        text.enumerated().map { i, c in [(String(c), Float(90))] + (also[i].map { [$0] } ?? []) }
    }

    @Test("a misread word becomes the word, keeping its punctuation and capitals; the reading stays searchable")
    func spellsWords() throws {
        let recognizer = try TesseractRecognizer(knownTags: [], lexicon: Lexicon(["largest", "budget"]))
        var readings = [
            reading("Lorgest…", letters("Lorgest") + [[("…", 90)]]),
            reading("LORGEST", letters("LORGEST", also: [1: ("A", 60)])),
            reading("largest", letters("largest")),
        ]
        readings[0].alternatives[1].append(OCRChoice(text: "a", confidence: 60))
        let searchable = recognizer.spell(&readings)
        #expect(readings.map(\.word.text) == ["Largest…", "LARGEST", "largest"])
        // Spelled words count for less in the vote than words read as they are.
        #expect(readings[0].word.confidence < 0.8 && readings[2].word.confidence == 0.8)
        #expect(searchable == ["Lorgest…", "LORGEST"])
    }

    @Test("hashtags, their look-alikes with the # read as a letter, and words with digits are not spelled")
    func leavesTagsAndNumbers() throws {
        let recognizer = try TesseractRecognizer(knownTags: [Tag("budget")!], lexicon: Lexicon(["budget", "loth", "sam"]))
        var readings = [
            reading("#budgel", letters("#budgel", also: [6: ("t", 60)])),
            reading("Hbudget", letters("Hbudget")),
            reading("10th", letters("10th", also: [0: ("l", 80), 1: ("o", 80)])),
            reading("5am", letters("5am", also: [0: ("s", 80)])),
        ]
        #expect(recognizer.spell(&readings).isEmpty)
        #expect(readings.map(\.word.text) == ["#budgel", "Hbudget", "10th", "5am"])
    }

    @Test("a letter and a full stop that Tesseract also took for a digit may be a list item's number")
    func listNumbers() throws {
        let recognizer = try TesseractRecognizer(knownTags: [], lexicon: Lexicon(["medium"]))
        // A real page's "2. medium", read "Q." with 2 as the Q's second choice (ln(83/34) = 0.9, within 1.2).
        #expect(recognizer.listNumber(reading("Q.", [[("Q", 83), ("2", 34)], [(".", 90)]])) == "2.")
        #expect(recognizer.listNumber(reading("I)", [[("I", 79), ("l", 56), ("1", 55)], [(")", 90)]])) == "1)")
        // A digit far less likely, no digit, more than a letter and its mark: nothing.
        #expect(recognizer.listNumber(reading("Q.", [[("Q", 85), ("2", 2)], [(".", 90)]])) == nil)
        #expect(recognizer.listNumber(reading("L.", [[("L", 96), ("l", 42)], [(".", 88)]])) == nil)
        #expect(recognizer.listNumber(reading("Qa", [[("Q", 83), ("2", 80)], [("a", 90)]])) == nil)
        #expect(recognizer.listNumber(reading("to.", letters("to.", also: [0: ("7", 80)]))) == nil)
        #expect(TesseractRecognizer.isListNumber("12)") && TesseractRecognizer.isListNumber("3."))
        #expect(!TesseractRecognizer.isListNumber("3.5") && !TesseractRecognizer.isListNumber("Q.") && !TesseractRecognizer.isListNumber("123."))
    }

    @Test("on a page whose lines start with numbers, letters read for a number where one can stand become it")
    func numberedPages() {
        func words(_ texts: [(String, String?)], confidence: Float = 0.8) -> [TesseractRecognizer.Reading] {
            texts.map { text, number in
                var word = reading(text, [], confidence: confidence)
                word.listNumber = number
                return word
            }
        }
        let items = [words([("I.", "1."), ("Smallest", nil), ("Q.", "2."), ("medium", nil)]),
                     words([("better", nil), ("than", nil), ("I.", "1.")])]
        var numbered = [[words([("1.", nil), ("Back", nil)])], items]
        TesseractRecognizer.numberListItems(&numbered, minimumConfidence: 0.7)
        #expect(numbered[1][0].map(\.word.text) == ["1.", "Smallest", "2.", "medium"])
        #expect(numbered[1][1].map(\.word.text) == ["better", "than", "I."], "a line's last word is no item's number")
        // A number read unsurely, or not first on its line, does not make a numbered page.
        for first in [words([("1.", nil), ("Back", nil)], confidence: 0.5), words([("at", nil), ("5.", nil)])] {
            var page = [[first], items]
            TesseractRecognizer.numberListItems(&page, minimumConfidence: 0.7)
            #expect(page[1][0].map(\.word.text) == ["I.", "Smallest", "Q.", "medium"])
        }
    }
}
