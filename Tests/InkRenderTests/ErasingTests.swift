import Foundation
import InkCore
@testable import InkGeometry
import Testing
@testable import InkRender

@Suite("Erasers")
struct ErasingTests {
    func page(_ strokes: [Stroke]) -> Page {
        Page(id: PageID(rawValue: "erasepage001"), size: PageSize(width: 200, height: 200), strokes: strokes)
    }

    let horizontal = stroke(line(from: (0, 50), to: (100, 50), count: 11),
                            pressure: (0..<11).map { Float($0) / 10 }, width: 2, id: 1)
    let eraser = stroke(line(from: (50, 0), to: (50, 100), count: 5), width: 10, tool: .eraser, id: 2)

    @Test("whole-stroke mode removes every earlier stroke the eraser touches, and the eraser")
    func whole() {
        let other = stroke(line(from: (0, 150), to: (100, 150), count: 5), width: 2, id: 3)
        let later = stroke(line(from: (0, 60), to: (100, 60), count: 5), width: 2, id: 4)
        let result = Erasing.apply(page([horizontal, other, eraser, later]), mode: .wholeStroke)
        #expect(result.strokes.map(\.id) == [StrokeID(3), StrokeID(4)], "only earlier strokes are erased")
    }

    @Test("split mode cuts where the eraser passes; the cut ends sit at the eraser's edge")
    func split() {
        let result = Erasing.apply(page([horizontal, eraser]), mode: .split)
        #expect(result.strokes.count == 2)
        let left = result.strokes[0], right = result.strokes[1]
        #expect(left.id == StrokeID(1), "the first piece keeps the id")
        #expect(right.id == StrokeID(3), "later pieces get new ids above the page's highest")
        // Eraser radius 5 plus the stroke's half width 1.
        #expect(abs(Double(left.points.last!.x) - 44) < 1e-4)
        #expect(abs(Double(right.points.first!.x) - 56) < 1e-4)
        #expect(left.points.first!.x == 0 && right.points.last!.x == 100)
        // Pressure and time are interpolated at the cut.
        #expect(abs(Double(left.points.last!.pressure) - 0.44) < 1e-4)
        #expect(abs(Double(right.points.first!.time) - 5.6 * 8) < 1e-3)
        #expect(Set(result.strokes.map(\.id)).count == result.strokes.count)
    }

    @Test("an eraser over an end shortens the stroke and keeps its id")
    func splitEnd() {
        let tip = stroke(line(from: (99, 40), to: (99, 60), count: 3), width: 4, tool: .eraser, id: 2)
        let result = Erasing.apply(page([horizontal, tip]), mode: .split)
        #expect(result.strokes.count == 1)
        #expect(result.strokes[0].id == StrokeID(1))
        #expect(abs(Double(result.strokes[0].points.last!.x) - 96) < 1e-4)
    }

    @Test("an eraser that misses changes nothing but disappears")
    func miss() {
        let far = stroke(line(from: (150, 150), to: (190, 190), count: 3), width: 4, tool: .eraser, id: 2)
        for mode in EraserMode.allCases {
            #expect(Erasing.apply(page([horizontal, far]), mode: mode).strokes == [horizontal])
        }
    }

    @Test("a tap of the eraser removes a dot; erasing is idempotent and pure")
    func tap() {
        let dot = stroke([(30, 30)], width: 3, id: 1)
        let tap = stroke([(31, 31)], width: 4, tool: .eraser, id: 2)
        #expect(Erasing.apply(page([dot, tap]), mode: .split).strokes.isEmpty)
        #expect(Erasing.apply(page([dot, tap]), mode: .wholeStroke).strokes.isEmpty)
        let input = page([horizontal, eraser])
        let once = Erasing.apply(input, mode: .split)
        #expect(Erasing.apply(once, mode: .split) == once)
        #expect(Erasing.apply(input, mode: .split) == once)
        let clean = page([horizontal])
        #expect(Erasing.apply(clean, mode: .split) == clean)
    }

    @Test("an eraser along a stroke removes it entirely; crossing twice makes three pieces")
    func along() {
        let along = stroke(line(from: (-5, 50), to: (105, 50), count: 4), width: 6, tool: .eraser, id: 2)
        #expect(Erasing.apply(page([horizontal, along]), mode: .split).strokes.isEmpty)
        let twice = stroke([(30, 0), (30, 100), (70, 100), (70, 0)], width: 4, tool: .eraser, id: 2)
        let result = Erasing.apply(page([horizontal, twice]), mode: .split)
        #expect(result.strokes.count == 3)
        #expect(result.strokes.map(\.id) == [StrokeID(1), StrokeID(3), StrokeID(4)])
    }
}
