import Foundation
import InkCore
import Testing
@testable import InkInterchange

@Suite("synthetic timing")
struct SyntheticTimingTests {
    func stroke(_ points: [(Float, Float)], times: [Double]? = nil) -> ImportedStroke {
        ImportedStroke(pen: RecordedPen(), points: points.map { RecordedPoint(x: $0.0, y: $0.1) }, times: times)
    }

    @Test("the pen moves at 250 px/s along the stroke, samples at least 4 ms apart")
    func penSpeed() {
        let times = SyntheticTiming.strokeTimes([RecordedPoint(x: 0, y: 0), RecordedPoint(x: 250, y: 0), RecordedPoint(x: 250, y: 0)], start: 2)
        #expect(times == [2, 3, 3.004])
    }

    @Test("pauses between strokes are 120–300 ms, longer when the next stroke starts far away; pages 1 s")
    func pauses() {
        let page = ImportedPage(size: .remarkable, strokes: [stroke([(0, 0), (10, 0)]), stroke([(10, 0)]), stroke([(1000, 0)])])
        let events = ImportedPage.events([page, page])
        let downs = events.compactMap { if case let .penDown(_, _, at) = $0 { at } else { nil } }
        let ups = events.compactMap { if case let .penUp(_, at) = $0 { at } else { nil } }
        #expect(abs(downs[1] - ups[0] - 0.12) < 1e-9)
        #expect(abs(downs[2] - ups[1] - 0.30) < 1e-9)
        let pages = events.compactMap { if case let .newPage(_, _, at) = $0 { at } else { nil } }
        #expect(abs(pages[1] - ups[2] - 1) < 1e-9)
        #expect(events.map(\.time) == events.map(\.time).sorted())
        #expect(ImportedPage.events([page, page]) == events)
    }

    @Test("recorded times are kept, moved to start at 0, and never go backwards")
    func recorded() {
        let page = ImportedPage(size: .remarkable, strokes: [
            stroke([(0, 0), (1, 0)], times: [1000, 1000.5]),
            stroke([(0, 0), (1, 0)], times: [1003, 1003.25]),
            stroke([(0, 0), (1, 0)], times: [999, 998]), // clock went back: placed after a short pause
        ])
        let events = ImportedPage.events([page])
        let times = events.map(\.time)
        #expect(times == times.sorted())
        let downs = events.compactMap { if case let .penDown(_, _, at) = $0 { at } else { nil } }
        #expect(downs[0] == 0 && downs[1] == 3)
        #expect(abs(downs[2] - (3.25 + SyntheticTiming.pause(from: RecordedPoint(x: 1, y: 0), to: RecordedPoint(x: 0, y: 0)))) < 1e-9)
    }
}
