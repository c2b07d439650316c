import InkCore
import Testing
@testable import InkSamples

@Suite("Hashtags")
struct HashtagTests {
    @Test("hashtags are recognised in words", arguments: [
        ("#meeting", "meeting"), ("#Q3-Plan,", "q3-plan"), ("#budget.", "budget"), ("#work/ideas", "work/ideas"),
        ("#", nil), ("##x", nil), ("meeting", nil), ("#a!b", nil),
    ] as [(String, String?)])
    func recognized(word: String, tag: String?) {
        #expect(NoteText.hashtag(in: word)?.name == tag)
    }

    @Test("a hashtag is written with the # glyph's strokes, then its name", arguments: HandwritingStyle.allCases)
    func hashGlyphIsInk(style: HandwritingStyle) throws {
        let note = try note(NoteText(pages: [["Plan the #q3-plan review", "#meeting"]]), style: style, jitter: .none)
        let page = note.pages[0]
        #expect(page.hashtags.map(\.name) == ["q3-plan", "meeting"])

        let hash = try #require(try font(style).glyph(for: "#"))
        #expect(hash.strokes.count == 4 && hash.strokes.allSatisfy { $0.count == 2 })
        let words = page.lines.flatMap(\.words)
        for word in words where word.text.hasPrefix("#") {
            let strokes = page.page.strokes.filter { word.strokes.contains($0.id) }
            #expect(strokes.count > 4)
            // The first four strokes are the # itself: straight bars, two steep and two flat.
            let bars = strokes.prefix(4).map { stroke -> Vector in
                let p = stroke.positions
                let path = zip(p, p.dropFirst()).reduce(0) { $0 + ($1.1 - $1.0).length }
                #expect(abs(path - (p.last! - p.first!).length) < 0.5, "a straight bar")
                return p.last! - p.first!
            }
            #expect(bars.filter { abs($0.y) > 2 * abs($0.x) }.count == 2)
            #expect(bars.filter { abs($0.x) > 2 * abs($0.y) }.count == 2)
            // and the # sits left of the name.
            let hashRight = strokes.prefix(4).flatMap(\.positions).map(\.x).max()!
            let nameLeft = strokes.dropFirst(4).flatMap(\.positions).map(\.x).min()!
            #expect(hashRight < nameLeft + 2)
        }
    }

    @Test("generated pages carry the asked number of hashtags, and the truth lists them")
    func generatedHashtags() throws {
        let note = try generated(pages: 2, hashtags: 3, seed: 8)
        let truth = GroundTruth(note)
        for (page, pageTruth) in zip(note.pages, truth.pages) {
            let written = page.lines.flatMap(\.words).filter { $0.text.hasPrefix("#") }
            #expect(written.count == 3)
            #expect(pageTruth.hashtags == page.hashtags.map(\.name))
            #expect(Set(pageTruth.hashtags) == Set(written.map { String($0.text.dropFirst()) }))
            #expect(pageTruth.hashtags.allSatisfy { $0 == $0.lowercased() && !$0.hasPrefix("#") })
            #expect(pageTruth.hashtags.allSatisfy { Corpus.topics[0].hashtags.contains($0) })
        }
    }
}
