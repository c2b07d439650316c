import InkCore
@testable import InkRecognize
import Testing

@Suite("Hashtag text: dashes and snapping")
struct HashtagTextTests {
    @Test("dash variants become '-', curly quotes straight, ligatures split")
    func normalization() {
        #expect(RecognizedText.normalized("q3\u{2014}plan") == "q3-plan")
        #expect(RecognizedText.normalized("follow\u{2013}up") == "follow-up")
        #expect(RecognizedText.normalized("a\u{2212}b\u{2010}c") == "a-b-c")
        #expect(RecognizedText.normalized("\u{201C}don\u{2019}t\u{201D}") == "\"don't\"")
        #expect(RecognizedText.normalized("\u{FB01}fteen") == "fifteen")
        #expect(RecognizedText.normalized("plain") == "plain")
    }

    @Test("a hashtag word becomes a tag: dashes inside, punctuation after, junk before")
    func hashtagWords() {
        #expect(RecognizedText.hashtag(in: "#q3\u{2014}plan")?.name == "q3-plan")
        #expect(RecognizedText.hashtag(in: "#Budget.")?.name == "budget")
        #expect(RecognizedText.hashtag(in: "#follow\u{2013}up,")?.name == "follow-up")
        #expect(RecognizedText.hashtag(in: "##'roadmap")?.name == "roadmap")
        #expect(RecognizedText.hashtag(in: "#|aunch")?.name == "launch")
        #expect(RecognizedText.hashtag(in: "#") == nil)
        #expect(RecognizedText.hashtag(in: "#...") == nil)
        #expect(RecognizedText.hashtag(in: "budget") == nil)
    }

    let snapper = TagSnapper(known: Set(["budget", "q3-plan", "follow-up", "launch", "travel", "api", "car", "cat"].compactMap { Tag($0) }))

    @Test("close misreadings snap to the known tag")
    func snapsClose() {
        #expect(snapper.snap(Tag("budgot")!).name == "budget")
        #expect(snapper.snap(Tag("q3-pian")!).name == "q3-plan")
        #expect(snapper.snap(Tag("follow-vp")!).name == "follow-up")
        // Confusable letters cost half: two of them in six letters.
        #expect(snapper.snap(Tag("trowel")!).name == "travel")
        #expect(snapper.snap(Tag("laumch")!).name == "launch")
        // Two letters read for one: rn for m.
        #expect(TagSnapper(known: [Tag("home")!, Tag("hiring")!]).snap(Tag("horne")!).name == "home")
    }

    @Test("far readings, ties and short tags are left as read")
    func keepsFar() {
        #expect(snapper.snap(Tag("meeting")!).name == "meeting")
        #expect(snapper.snap(Tag("budgeting-plan")!).name == "budgeting-plan")
        // "cax" is as close to "car" as to "cat": no guess.
        #expect(snapper.match(Tag("cax")!) == nil)
        // Two-letter tags are too short to guess at.
        #expect(TagSnapper(known: [Tag("ux")!]).snap(Tag("ox")!).name == "ox")
        #expect(snapper.match(Tag("budget")!)?.distance == 0)
    }

    @Test("a hashtag run together with the next word is split off")
    func runTogether() {
        let split = snapper.matchPrefix("q3-planmeeting")
        #expect(split?.tag.name == "q3-plan")
        #expect(split?.length == 7)
        #expect(snapper.matchPrefix("budgetly") == nil || snapper.matchPrefix("budgetly")?.tag.name == "budget")
        // Too short to leave a word over, or nothing known at its start: no split, no crash.
        for text in ["", "a", "ab", "bu", "budget", "zzzzzzzzzz"] {
            #expect(snapper.matchPrefix(text) == nil)
        }
    }

    @Test("with no known tags nothing snaps")
    func emptySnapper() {
        #expect(TagSnapper(known: []).snap(Tag("budgot")!).name == "budgot")
    }

    @Test("the letters Tesseract also considered decide between readings")
    func lattice() {
        // Read as "hinnng", but the third letter might be r, the second i.
        let choices: [[OCRChoice]] = [
            [.init(text: "h", confidence: 89)], [.init(text: "i", confidence: 96)],
            [.init(text: "n", confidence: 93), .init(text: "r", confidence: 87)],
            [.init(text: "n", confidence: 98)], [.init(text: "n", confidence: 97)], [.init(text: "g", confidence: 95)],
        ]
        let known = TagSnapper(known: Set(["hiring", "home", "hint"].compactMap { Tag($0) }))
        #expect(known.match(alternatives: choices)?.tag.name == "hiring")
        let nothingClose: [[OCRChoice]] = "zzzzzz".map { [.init(text: String($0), confidence: 90)] }
        #expect(known.match(alternatives: nothingClose) == nil)
    }
}
