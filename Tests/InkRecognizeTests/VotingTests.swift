import Foundation
import InkCore
@testable import InkRecognize
import Testing

@Suite("Lexicon, word slots and the vote between renders")
struct VotingTests {
    let lexicon = Lexicon(["this", "is", "a", "test", "pen", "eraser", "mech", "pencil"])

    @Test("words, numbers and single letters count; junk and bare punctuation do not")
    func lexiconAccepts() {
        for word in ["This", "test.", "(pen)", "\"is\"", "mech-pencil", "42", "3.5", "10:30", "2026-11-25", "x", "I"] {
            #expect(lexicon.accepts(word), "\(word)")
        }
        for word in ["Ths", "fo0l", "|", "--", "", "pen-cil", "rnote"] {
            #expect(!lexicon.accepts(word), "\(word)")
        }
        #expect(lexicon.adding(["Rnote"]).accepts("rnote"))
    }

    @Test("the system word list for English is found (the deps script installs wamerican and wbritish)")
    func systemList() {
        let english = Lexicon.system(language: "eng")
        #expect(english.words.count > 50_000)
        #expect(english.accepts("notebook") && english.accepts("Thursday") && english.accepts("colour") && english.accepts("color"))
        #expect(!english.accepts("Ths"))
    }

    @Test("a reading most renders agree on, all of it words, wins over a surer one-off")
    func majorityOfValidReadings() {
        // Five renders of a two-slot line: ("This is" | "test").
        let renders: [[(String, Float)]] = [
            [("Ths", 0.9), ("is", 0.9), ("test", 0.5)],
            [("This", 0.4), ("is", 0.6), ("tesf", 0.9)],
            [("This", 0.5), ("is", 0.5), ("test", 0.4)],
            [("Thus", 0.95), ("is", 0.95), ("best", 0.9)],
            [("T", 0.3), ("h", 0.3), ("is", 0.3), ("test", 0.3)],
        ]
        let slots = [[0, 0, 1], [0, 0, 1], [0, 0, 1], [0, 0, 1], [0, 0, 0, 1]]
        let valid: (String) -> Bool = { ["this", "is", "test", "thus", "best", "t", "h"].contains($0.lowercased()) }
        let chosen = SlotVote.choose(renders, slots: slots, text: \.0, confidence: \.1, valid: valid)
        // Slot 0: "This is" twice (1.4 + 1.5) beats "Thus is" (1.95) and "T h is" (1.3).
        // Slot 1: "test" three times beats "best" once.
        #expect(chosen.words.map(\.0) == ["This", "is", "test"])
        // What lost is kept, most voted first, for search.
        #expect(chosen.alternatives == ["Thus is", "T h is", "Ths is", "best", "tesf"])
    }

    @Test("a slot no render reads as words takes the render with the most words on the line")
    func fallbackToTheBestLine() {
        let renders: [[(String, Float)]] = [
            [("pen", 0.5), ("qwx", 0.9)],
            [("pen", 0.5), ("eraser", 0.5), ("zzk", 0.2)],
            [("pcn", 0.9), ("vvk", 0.9)],
        ]
        let slots = [[0, 1], [0, 1, 2], [0, 1]]
        let chosen = SlotVote.choose(renders, slots: slots, text: \.0, confidence: \.1, valid: lexicon.accepts)
        // Slot 0: "pen" (valid twice). Slot 1: "eraser" (render 1's only valid reading). Slot 2:
        // nothing valid: render 1 has the most words on its line.
        #expect(chosen.words.map(\.0) == ["pen", "eraser", "zzk"])
        #expect(SlotVote.choose([[("qq", Float(0.5))], []], slots: [[0], []], text: \.0, confidence: \.1, valid: lexicon.accepts).words.map(\.0) == ["qq"])
    }

    @Test("a heavier render (the neural reader's) outweighs renders that agree with each other, and speaks where none reads words")
    func weightedRenders() {
        // The neural reading first, worth three renders, against two Tesseract renders agreeing on "best".
        let renders: [[(String, Float)]] = [[("test", 0.6), ("qzx", 0.5)], [("best", 0.7), ("zzk", 0.9)], [("best", 0.7), ("vvk", 0.9)]]
        let slots = renders.map { _ in [0, 1] }
        let valid: (String) -> Bool = { ["test", "best"].contains($0) }
        let weighted = SlotVote.choose(renders, slots: slots, weights: [3, 1, 1], text: \.0, confidence: \.1, valid: valid)
        #expect(weighted.words.map(\.0) == ["test", "qzx"])
        // Each render one vote: the two agreeing renders win, and the surer line speaks where no reading is a word.
        let even = SlotVote.choose(renders, slots: slots, text: \.0, confidence: \.1, valid: valid)
        #expect(even.words.map(\.0) == ["best", "zzk"])
    }

    @Test("with partly valid readings voting, two neural near misses outvote Tesseract's lexicon words; without, they do not")
    func partlyValidReadings() {
        // A slot of two words written close together ("different shapes"): two neural readings (worth three
        // renders each) with one word misread, against three Tesseract renders reading words that are wrong.
        let renders: [[(String, Float)]] = [
            [("diffevent", 0.8), ("shapes", 0.9)], [("diffevent", 0.7), ("shapes", 0.8)],
            [("lent", 0.4), ("crepes", 0.4)], [("lent", 0.3), ("crepes", 0.5)], [("dent", 0.6), ("capes", 0.3)],
        ]
        let slots = renders.map { _ in [0, 0] }
        let valid: (String) -> Bool = { ["shapes", "lent", "crepes", "dent", "capes"].contains($0) }
        let weights = [3.0, 3, 1, 1, 1]
        // Each neural reading: 3 × (1 + 0.7 or 0.8) × ½ valid = 2.55 + 2.7; "lent crepes": 1.4 + 1.3.
        let partly = SlotVote.choose(renders, slots: slots, weights: weights, partlyValidVotes: true, text: \.0, confidence: \.1, valid: valid)
        #expect(partly.words.map(\.0) == ["diffevent", "shapes"])
        #expect(partly.alternatives.first == "lent crepes")
        // Only wholly valid readings vote: Tesseract's words win.
        let whole = SlotVote.choose(renders, slots: slots, weights: weights, text: \.0, confidence: \.1, valid: valid)
        #expect(whole.words.map(\.0) == ["lent", "crepes"])
        // A reading with no valid word never votes, whatever its weight.
        let none = SlotVote.choose([[("qzx", 0.9)], [("test", 0.1)]], slots: [[0], [0]], weights: [10, 1], partlyValidVotes: true,
                                   text: \.0, confidence: \.1, valid: { $0 == "test" })
        #expect(none.words.map(\.0) == ["test"])
    }

    @Test("a word the page's other lines read surely outweighs one more render's reading of it")
    func pageWordsInTheVote() {
        // The "new Cyan" line of a real page: three renders read "yew", two "new"; "new" was read
        // surely on the line above.
        let renders: [[(String, Float)]] = [[("yew", 0.52)], [("hew", 0.84)], [("yew", 0.48)], [("new", 0.63)],
                                            [("yew", 0.32)], [("ew", 0.28)], [("new", 0.60)]]
        let slots = renders.map { _ in [0] }
        let words = Lexicon(["yew", "hew", "new", "green"])
        let page = PageWords([[[("new", 0.9), ("Green", 0.8)]], renders.map { [$0[0]] }], lexicon: words, minimumConfidence: 0.7)
        #expect(page.isRead("new", besides: 1) && page.isRead("New,", besides: 1))
        #expect(!page.isRead("new", besides: 0), "only the line itself read it")
        #expect(!page.isRead("hew", besides: 1), "read surely, but on the line being voted")
        #expect(page.isRead("hew", besides: 0))
        #expect(!page.isRead("yew", besides: 0), "never read surely")
        let alone = SlotVote.choose(renders, slots: slots, text: \.0, confidence: \.1, valid: words.accepts)
        #expect(alone.words.map(\.0) == ["yew"])
        let withPage = SlotVote.choose(renders, slots: slots, text: \.0, confidence: \.1,
                                       prior: { page.isRead($0, besides: 1) ? 1.5 : 0 }, valid: words.accepts)
        #expect(withPage.words.map(\.0) == ["new"])
        #expect(withPage.alternatives.first == "yew")
    }

    @Test("a slot keeps its five most voted other readings for search")
    func fiveAlternatives() {
        let renders: [[(String, Float)]] = [[("pen", 0.9)], [("pen", 0.8)], [("pan", 0.7)], [("pin", 0.6)], [("pun", 0.5)],
                                            [("pon", 0.4)], [("pyn", 0.3)], [("p9n", 0.2)]]
        let chosen = SlotVote.choose(renders, slots: renders.map { _ in [0] }, text: \.0, confidence: \.1,
                                     valid: Lexicon(["pen", "pan", "pin", "pun", "pon"]).accepts)
        #expect(chosen.words.map(\.0) == ["pen"])
        #expect(chosen.alternatives == ["pan", "pin", "pun", "pon", "pyn"])
    }

    @Test("page words are lexicon words of three letters or more")
    func pageWordsAreWords() {
        let page = PageWords([[[("ok", 0.99), ("mech", 0.95), ("pen", 0.95)]], []], lexicon: lexicon, minimumConfidence: 0.7)
        #expect(page.isRead("pen", besides: 1) && page.isRead("mech", besides: 1))
        let short = PageWords([[[("is", 0.99), ("qwx", 0.99)]], []], lexicon: lexicon, minimumConfidence: 0.7)
        #expect(!short.isRead("is", besides: 1) && !short.isRead("qwx", besides: 1))
        // A hashtag is no page word; a hyphenated one is, as a whole.
        let tagged = PageWords([[[("#pencil", 0.99), ("mech-pencil,", 0.9)]], []], lexicon: lexicon, minimumConfidence: 0.7)
        #expect(!tagged.isRead("pencil", besides: 1) && tagged.isRead("Mech-pencil", besides: 1))
    }

    @Test("strokes further apart than the gap start a new slot; words go to the slot under their centre")
    func wordSlots() {
        let strokes = [(100.0, 130.0), (128.0, 160.0), (200.0, 240.0), (238.0, 250.0), (400.0, 420.0)].enumerated().map { i, x in
            StrokeShape(Stroke(id: StrokeID(UInt64(i + 1)), points: [InkPoint(x: Float(x.0), y: 100), InkPoint(x: Float(x.1), y: 120)]), index: i)
        }
        let slots = WordSlots(shapes: strokes, gap: 20)
        #expect(slots.extents.map(\.minX) == [100, 200, 400])
        #expect(slots.extents.map(\.maxX) == [160, 250, 420])
        #expect(slots.slot(of: Rect(minX: 95, minY: 0, maxX: 165, maxY: 10)) == 0)
        #expect(slots.slot(of: Rect(minX: 190, minY: 0, maxX: 260, maxY: 10)) == 1)
        #expect(slots.slot(of: Rect(minX: 330, minY: 0, maxX: 360, maxY: 10)) == 2)
    }

    @Test("a line's x-height is where its ink is densest, and its slant is measured from the strokes")
    func lineMetrics() {
        // Letters with a 20 px x-height (y 100…120): stems, every third one an ascender to y 80, and
        // round letters (o) between them, all leaning right by 0.3 (x grows by 0.3 per pixel going up).
        var strokes: [Stroke] = []
        func lean(_ x: Float, _ y: Float) -> InkPoint { InkPoint(x: x + 0.3 * (120 - y), y: y) }
        for i in 0..<30 {
            let x = Float(100 + 30 * i), top: Float = i % 3 == 0 ? 80 : 100
            strokes.append(Stroke(id: StrokeID(UInt64(i + 1)), points: stride(from: Float(120), through: top, by: -2).map { lean(x, $0) }))
            let o = (0...24).map { k -> InkPoint in
                let angle = Float(k) / 24 * 2 * .pi
                return lean(x + 15 + 7 * cos(angle), 110 + 10 * sin(angle))
            }
            strokes.append(Stroke(id: StrokeID(UInt64(100 + i)), points: o))
        }
        let metrics = LineMetrics(strokes, indices: Array(strokes.indices), strokeHeight: 20)
        #expect(abs(metrics.xHeight - 20) <= 4, "x-height \(metrics.xHeight)")
        #expect(abs(metrics.slant - (-0.3)) <= 0.05, "slant \(metrics.slant)")
        #expect(LineMetrics([Stroke(id: StrokeID(1), points: [InkPoint(x: 0, y: 0)])], indices: [0], strokeHeight: 10).xHeight >= 3)
    }
}
