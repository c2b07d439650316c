import Foundation
import InkCore
import Testing
@testable import InkSamples

@Suite("Determinism and jitter")
struct DeterminismTests {
    @Test("the generator's stream is fixed by its seed")
    func generatorStream() {
        var a = SeededGenerator(seed: 1), b = SeededGenerator(seed: 1), c = SeededGenerator(seed: 2)
        let first = (0..<4).map { _ in a.next() }
        #expect(first == (0..<4).map { _ in b.next() })
        #expect(first != (0..<4).map { _ in c.next() })
        // The first output of the reference SplitMix64 for seed 1.
        #expect(first[0] == 0x910A_2DEC_8902_5CC1)
        var d = SeededGenerator(seed: 9)
        let values = (0..<1000).map { _ in d.normal(1) }
        #expect(values.allSatisfy { abs($0) <= 2.5 })
        #expect(abs(values.reduce(0, +) / 1000) < 0.15)
        #expect((0..<1000).map { _ in d.unit() }.allSatisfy { $0 >= 0 && $0 < 1 })
        #expect(d.shuffled(Array(0..<20)).sorted() == Array(0..<20))
    }

    @Test("the same seed gives the same note and the same files", arguments: HandwritingStyle.allCases)
    func sameSeed(style: HandwritingStyle) throws {
        let a = try generated(pages: 2, style: style, jitter: .strong, seed: 11)
        let b = try generated(pages: 2, style: style, jitter: .strong, seed: 11)
        #expect(a == b)
        #expect(ReplayLogWriter.log(for: a) == ReplayLogWriter.log(for: b))
        #expect(try GroundTruth(a).encoded() == GroundTruth(b).encoded())
    }

    @Test("a different seed gives different ink", arguments: JitterLevel.allCases)
    func differentSeed(jitter: JitterLevel) throws {
        let text = NoteText(pages: [["Book a room for the planning session"]])
        let a = try note(text, jitter: jitter, seed: 1), b = try note(text, jitter: jitter, seed: 2)
        #expect(a.pages[0].lines.map(\.text) == b.pages[0].lines.map(\.text))
        #expect(a.inkPages[0].strokes != b.inkPages[0].strokes)
        #expect(a.inkPages[0].id != b.inkPages[0].id)
    }

    @Test("strong jitter varies the writing measurably more than none")
    func jitterLevels() throws {
        let text = NoteText(pages: Array(repeating: [Array(repeating: "minimum", count: 6).joined(separator: " ")], count: 3))
        func spread(_ jitter: JitterLevel) throws -> (size: Double, baseline: Double) {
            let words = try note(text, jitter: jitter, seed: 5).pages.flatMap(\.lines).flatMap(\.words)
            let widths = words.map { $0.bounds.width }
            let bottoms = words.map { $0.bounds.maxY - ($0.bounds.maxY / 80).rounded() * 80 }
            return (deviation(widths), deviation(bottoms))
        }
        let none = try spread(.none), mild = try spread(.mild), strong = try spread(.strong)
        #expect(none.size < 1.5 && none.baseline < 0.5, "without jitter every copy of the word is the same")
        #expect(mild.size > none.size && mild.baseline > none.baseline)
        #expect(strong.size > 2 * mild.size && strong.baseline > mild.baseline)
        #expect(strong.size > 4)
    }

    @Test("without jitter the ink follows the font exactly")
    func noJitterFollowsFont() throws {
        let note = try note(NoteText(pages: [["l"]]), jitter: .none)
        let stroke = note.inkPages[0].strokes[0].positions
        let glyph = try #require(try font(.print).glyph(for: "l"))
        let height = glyph.strokes[0].map(\.y).max()! - glyph.strokes[0].map(\.y).min()!
        let xs = stroke.map(\.x), ys = stroke.map(\.y)
        #expect(xs.max()! - xs.min()! < 0.01, "an upright stem stays straight")
        #expect(abs((ys.max()! - ys.min()!) - height * PageLayout.remarkable.glyphScale) < 0.01)
    }

    private func deviation(_ values: [Double]) -> Double {
        let mean = values.reduce(0, +) / Double(values.count)
        return (values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count)).squareRoot()
    }
}
