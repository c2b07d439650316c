import InkCore
@testable import InkRecognize
import InkSamples
import Testing

@Suite("Line grouping")
struct LineGroupingTests {
    /// Letter-like strokes: a vertical stroke `height` px tall every 15 px from `x` along the baseline `y`.
    func letters(_ count: Int, x: Double, baseline y: Double, firstID: Int, height: Double = 20) -> [Stroke] {
        (0..<count).map { i in line(firstID + i, from: (x + Double(i) * 15, y - height), to: (x + Double(i) * 15 + 3, y)) }
    }

    @Test("strokes written line after line form lines in reading order")
    func twoLines() {
        let strokes = numbered(letters(8, x: 100, baseline: 120, firstID: 1) + letters(6, x: 100, baseline: 200, firstID: 9))
        let lines = LineGrouper.group(strokes)
        #expect(lines.count == 2)
        #expect(lines.first?.strokes == Array(0..<8))
        #expect(lines.last?.strokes == Array(8..<14))
    }

    @Test("a dot and a comma written after the word join its line")
    func marksJoinTheirLine() {
        var strokes = letters(8, x: 100, baseline: 120, firstID: 1)
        strokes.append(stroke(9, [(146, 88), (146.5, 88.5)]))           // an i-dot above the letters
        strokes.append(line(10, from: (220, 120), to: (217, 128)))      // a comma below the baseline
        strokes += letters(6, x: 100, baseline: 200, firstID: 11)
        let lines = LineGrouper.group(numbered(strokes))
        #expect(lines.count == 2)
        #expect(lines.first?.strokes == Array(0..<10))
    }

    @Test("a bullet dash starts its line, and words added to an earlier line later go back to it")
    func bulletsAndLaterAdditions() {
        var strokes = [line(1, from: (80, 110), to: (92, 110))]          // "- " bullet
        strokes += letters(6, x: 100, baseline: 120, firstID: 2)
        strokes += letters(6, x: 100, baseline: 200, firstID: 8)
        strokes += letters(3, x: 200, baseline: 121, firstID: 14)      // back to line 1, after its end
        let lines = LineGrouper.group(numbered(strokes))
        #expect(lines.count == 2)
        #expect(lines.first?.strokes == Array(0..<7) + Array(13..<16))
        #expect(lines.last?.strokes == Array(7..<13))
    }

    @Test("two pieces side by side far apart stay two lines, read left to right")
    func columns() {
        let strokes = numbered(letters(5, x: 700, baseline: 120, firstID: 1) + letters(5, x: 100, baseline: 121, firstID: 6))
        let lines = LineGrouper.group(strokes)
        #expect(lines.count == 2)
        #expect(lines.first?.strokes == Array(5..<10))
    }

    @Test("a piece of a line tall with ascenders, written after the piece before it, joins it (\"- tabs for\" + \"the ability\")")
    func tallPieceJoinsItsLine() {
        var strokes = letters(6, x: 100, baseline: 120, firstID: 1, height: 12)   // x-height letters
        strokes.append(line(7, from: (200, 78), to: (202, 120)))                                   // a tall "t" starts the next piece
        strokes += letters(3, x: 215, baseline: 120, firstID: 8, height: 30)     // ascenders: h, b, l
        strokes += letters(2, x: 260, baseline: 120, firstID: 11, height: 12)
        strokes += letters(6, x: 100, baseline: 200, firstID: 13, height: 12)    // the next line
        let lines = LineGrouper.group(numbered(strokes))
        #expect(lines.map(\.strokes) == [Array(0..<12), Array(12..<18)])
    }

    @Test("a piece written lower and to the left of another on one row is read first (\"3. Largest\" left of \"4. selection eraser\")")
    func slopingPiecesShareARow() {
        var strokes = letters(6, x: 400, baseline: 120, firstID: 1)                                 // written first, on the right
        strokes += letters(5, x: 100, baseline: 132, firstID: 7)                                    // lower, on the left
        strokes.append(line(12, from: (175, 95), to: (177, 132)))                                   // with an ascender
        let lines = LineGrouper.group(numbered(strokes))
        #expect(lines.map(\.strokes) == [Array(6..<12), Array(0..<6)])
    }

    @Test("the lines of generated pages are the lines as written", arguments: HandwritingStyle.allCases, JitterLevel.allCases)
    func generatedPages(style: HandwritingStyle, jitter: JitterLevel) throws {
        for sample in try samplePages(style: style, jitter: jitter, count: 3, sentences: 8) {
            let found = LineGrouper.group(sample.page.strokes)
            let truth = sample.lines.map { line in
                Array(Int(line.strokes.lowerBound.rawValue - 1)...Int(line.strokes.upperBound.rawValue - 1))
            }
            #expect(found.map(\.strokes) == truth)
        }
    }
}

@Suite("Line grouping by geometry")
struct GeometricLineGroupingTests {
    @Test("lines written out of order, with a dot added last, come out as lines in reading order")
    func outOfOrder() {
        func letters(_ count: Int, x: Double, baseline y: Double, firstID: Int) -> [Stroke] {
            (0..<count).map { i in line(firstID + i, from: (x + Double(i) * 15, y - 20), to: (x + Double(i) * 15 + 3, y)) }
        }
        // The second line written first, then the first, then one more word at the end of the second.
        var strokes = letters(6, x: 100, baseline: 200, firstID: 1)
        strokes += letters(8, x: 100, baseline: 120, firstID: 7)
        strokes += letters(3, x: 220, baseline: 201, firstID: 15)
        strokes.append(stroke(18, [(146, 88), (146.5, 88.5)]))  // an i-dot over the first line
        let lines = GeometricLineGrouper.group(numbered(strokes))
        #expect(lines.count == 2)
        #expect(lines.first?.strokes == Array(6..<14) + [17])
        #expect(lines.last?.strokes == Array(0..<6) + Array(14..<17))
    }
}
