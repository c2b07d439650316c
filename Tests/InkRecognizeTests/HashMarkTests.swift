import Foundation
import InkCore
@testable import InkRecognize
import InkSamples
import Testing

@Suite("Finding # from its strokes")
struct HashMarkTests {
    /// Font units (y down, baseline at 9, cap line at -12) to page pixels at 1.5 px a unit.
    func at(_ x: Double, _ y: Double, origin: Double = 200) -> (Double, Double) { (origin + x * 1.5, 300 + y * 1.5) }

    /// The Hershey `#`: two slanted strokes down, two across.
    func hash(origin: Double = 200, firstID: Int = 1) -> [Stroke] {
        [line(firstID, from: at(1, -16, origin: origin), to: at(-6, 16, origin: origin)),
         line(firstID + 1, from: at(7, -16, origin: origin), to: at(0, 16, origin: origin)),
         line(firstID + 2, from: at(-6, -3, origin: origin), to: at(8, -3, origin: origin)),
         line(firstID + 3, from: at(-7, 3, origin: origin), to: at(7, 3, origin: origin))]
    }

    func marks(_ strokes: [Stroke]) -> [HashMark] { HashMarkDetector.find(in: numbered(strokes), textHeight: 21) }

    @Test("a # is four strokes in two crossing pairs")
    func findsHash() {
        let found = marks(hash())
        #expect(found.count == 1)
        #expect(found.first?.strokes == [0, 1, 2, 3])
    }

    @Test("a # among letters, drawn in any stroke order")
    func findsHashAmongLetters() {
        let before = [line(1, from: at(-20, -5), to: at(-20, 9)), line(2, from: at(-15, -5), to: at(-14, 9))]
        let h = hash()
        let reordered = [h[2], h[0], h[3], h[1]]
        let after = [line(9, from: at(12, -5), to: at(12, 9)), line(10, from: at(16, -12), to: at(16, 9))]
        let found = marks(before + reordered + after)
        #expect(found.count == 1)
        #expect(found.first?.strokes == [2, 3, 4, 5])
    }

    @Test("H, HH, E, tt, ++, ==, xx and a large grid are not #")
    func noFalseHits() {
        let H = [line(1, from: at(0, -12), to: at(0, 9)), line(2, from: at(14, -12), to: at(14, 9)),
                 line(3, from: at(0, -1), to: at(14, -1))]
        let H2 = H.map { stroke in
            var moved = stroke
            moved.points = stroke.points.map { InkPoint(x: $0.x + 30, y: $0.y, time: $0.time) }
            return moved
        }
        // Bars that overshoot the stems a little, as hands draw them.
        let sloppyH = [line(1, from: at(0, -12), to: at(0, 9)), line(2, from: at(14, -12), to: at(14, 9)),
                       line(3, from: at(-1, -1), to: at(15, -1.5))]
        let E = [line(1, from: at(0, -12), to: at(0, 9)), line(2, from: at(0, -12), to: at(12, -12)),
                 line(3, from: at(0, -2), to: at(9, -2)), line(4, from: at(0, 9), to: at(12, 9))]
        let tt = [line(1, from: at(0, -12), to: at(0, 9)), line(2, from: at(-4, -5), to: at(4, -5)),
                  line(3, from: at(10, -12), to: at(10, 9)), line(4, from: at(6, -5), to: at(14, -5))]
        // Each bar long enough to cross both stems, at nearly the same height.
        let longBars = [line(1, from: at(0, -12), to: at(0, 9)), line(2, from: at(-4, -5), to: at(14, -5)),
                        line(3, from: at(10, -12), to: at(10, 9)), line(4, from: at(-4, -4.5), to: at(14, -4.5))]
        let plusPlus = [line(1, from: at(0, -8), to: at(0, 8)), line(2, from: at(-8, 0), to: at(8, 0)),
                        line(3, from: at(20, -8), to: at(20, 8)), line(4, from: at(12, 0), to: at(28, 0))]
        let equalsEquals = [line(1, from: at(0, -3), to: at(12, -3)), line(2, from: at(0, 3), to: at(12, 3)),
                            line(3, from: at(18, -3), to: at(30, -3)), line(4, from: at(18, 3), to: at(30, 3))]
        let xx = [line(1, from: at(0, -5), to: at(10, 9)), line(2, from: at(10, -5), to: at(0, 9)),
                  line(3, from: at(14, -5), to: at(24, 9)), line(4, from: at(24, -5), to: at(14, 9))]
        let grid = hash().map { stroke in
            var large = stroke
            large.points = stroke.points.map { InkPoint(x: 200 + ($0.x - 200) * 8, y: 300 + ($0.y - 300) * 8, time: $0.time) }
            return large
        }
        for (name, strokes) in [("H", H), ("HH", H + H2), ("sloppy H", sloppyH), ("E", E), ("tt", tt), ("tt with long bars", longBars),
                                ("++", plusPlus), ("==", equalsEquals), ("xx", xx), ("large grid", grid)] {
            #expect(marks(strokes).isEmpty, "\(name) was taken for #")
        }
    }

    @Test("three of a #'s strokes, or curved strokes, are not a #")
    func incompleteOrCurved() {
        #expect(marks(Array(hash().prefix(3))).isEmpty)
        var curved = hash()
        curved[0] = stroke(1, (0...20).map { i in
            let t = Double(i) / 20
            return (200 + 1.5 - 10.5 * t + 12 * sin(t * .pi), 300 - 24 + 48 * t)
        })
        #expect(marks(curved).isEmpty)
    }

    @Test("every # of generated pages is found, and nothing else", arguments: HandwritingStyle.allCases, JitterLevel.allCases)
    func generatedPages(style: HandwritingStyle, jitter: JitterLevel) throws {
        var expected = 0, found = 0
        for sample in try samplePages(style: style, jitter: jitter, count: 4, sentences: 6, hashtags: 3) {
            let truth = Set(sample.lines.flatMap(\.words).filter { $0.text.hasPrefix("#") }.map { word in
                (0..<4).map { Int(word.strokes.lowerBound.rawValue) - 1 + $0 }
            })
            let marks = HashMarkDetector.find(in: sample.page.strokes)
            expected += truth.count
            found += marks.count
            #expect(Set(marks.map(\.strokes)) == truth)
        }
        #expect(expected >= 12)
        #expect(found == expected)
    }
}
