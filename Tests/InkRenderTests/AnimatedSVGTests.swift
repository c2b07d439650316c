import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import InkCore
import Testing
@testable import InkRender

/// `inkwell render --format svg --animate`: the writing played back, ending as the page exports.
@Suite struct AnimatedSVGTests {
    /// Two strokes 10 s apart (the pause is shortened) and an eraser (which acts at the end only).
    func page() -> Page {
        let first = Stroke(id: StrokeID(1), startTime: 0, points: [
            InkPoint(x: 100, y: 100, time: 0), InkPoint(x: 300, y: 100, time: 400),
        ])
        let second = Stroke(id: StrokeID(2), tool: .highlighter, width: 20, startTime: 10_400, points: [
            InkPoint(x: 100, y: 300, time: 0), InkPoint(x: 300, y: 300, time: 600),
        ])
        let eraser = Stroke(id: StrokeID(3), tool: .eraser, width: 30, startTime: 12_000, points: [
            InkPoint(x: 200, y: 50, time: 0), InkPoint(x: 200, y: 150, time: 100),
        ])
        return Page(id: .random(), strokes: [first, second, eraser])
    }

    @Test func eachInkStrokeIsDrawnInTurnAtItsSpeedThenThePageAsItExports() throws {
        let renderer = Renderer()
        let animated = renderer.animatedSVG(page(), maxPause: 1.5)
        _ = try XMLDocument(data: Data(animated.utf8))  // well-formed
        let animation = try Regex(#"<animate [^>]*begin="([^"]+)" dur="([^"]+)""#)
        let timing = animated.matches(of: animation).map { (String($0.output[1].substring ?? ""), String($0.output[2].substring ?? "")) }
        #expect(timing.count == 2, "one per ink stroke, none for the eraser")
        #expect(timing.map(\.0) == ["0s", "1.9s"], "the second stroke begins after the first (0.4 s) and a pause shortened to 1.5 s")
        #expect(timing.map(\.1) == ["0.4s", "0.6s"])
        let reveal = try Regex(#"<set attributeName="visibility" to="visible" begin="([^"]+)""#)
        #expect(animated.firstMatch(of: reveal).map { String($0.output[1].substring ?? "") } == "2.5s")
        // The finished ink is exactly the still SVG's.
        let still = renderer.svg(page())
        let inkPaths = { (svg: String) in svg.split(separator: "\n").filter { $0.hasPrefix("<path fill=\"#") } }
        #expect(inkPaths(animated) == inkPaths(still))
        #expect(!inkPaths(still).isEmpty)
    }
}
