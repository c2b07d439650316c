import InkCore
import Testing
@testable import InkSamples

@Suite("Pressure and timing")
struct PenTimingTests {
    @Test("pressure stays within 0…1 and rises at the start and falls at the end of strokes",
          arguments: HandwritingStyle.allCases)
    func pressure(style: HandwritingStyle) throws {
        let note = try generated(pages: 2, style: style, jitter: .strong, seed: 3)
        let strokes = note.inkPages.flatMap(\.strokes)
        #expect(strokes.allSatisfy { $0.points.allSatisfy { $0.pressure > 0 && $0.pressure <= 1 } })
        let long = strokes.filter { $0.points.count >= 12 }
        #expect(!long.isEmpty)
        for stroke in long {
            let middle = stroke.points[stroke.points.count / 2].pressure
            #expect(stroke.points[0].pressure < middle)
            #expect(stroke.points[stroke.points.count - 1].pressure < middle)
        }
        let pressures = strokes.flatMap(\.points).map(\.pressure)
        #expect(Set(pressures.map { ($0 * 100).rounded() }).count > 20, "pressure varies")
    }

    @Test("times rise within each stroke and strokes follow each other with pauses",
          arguments: HandwritingStyle.allCases)
    func timing(style: HandwritingStyle) throws {
        let note = try generated(pages: 2, style: style, seed: 4)
        var previousEnd = -1.0
        for page in note.pages {
            #expect(page.startTime >= previousEnd)
            for (index, stroke) in page.page.strokes.enumerated() {
                #expect(stroke.id == StrokeID(UInt64(index + 1)), "ids count from 1 on every page")
                #expect(stroke.points.count >= 2)
                #expect(stroke.points[0].time == 0)
                #expect(zip(stroke.points, stroke.points.dropFirst()).allSatisfy { $0.time < $1.time })
                let start = page.startTime + stroke.startTime
                #expect(start - previousEnd >= 80, "a pause of at least 80 ms before every stroke")
                previousEnd = start + Double(stroke.points.last!.time)
            }
        }
    }

    @Test("points come at the tablet's rate, at a hand's speed")
    func rateAndSpeed() throws {
        let note = try generated(seed: 5)
        let strokes = note.inkPages[0].strokes
        let intervals = strokes.flatMap { stroke in zip(stroke.points, stroke.points.dropFirst()).map { $1.time - $0.time } }
        let sorted = intervals.sorted()
        #expect(abs(Double(sorted[sorted.count / 2]) - 1000 / 120) < 0.01, "120 Hz")
        #expect(sorted.last! <= Float(1.25 * 1000 / 120) + 0.01, "the pen-up point may come a quarter interval late")

        var distance = 0.0, time = 0.0
        for stroke in strokes {
            let positions = stroke.positions
            distance += zip(positions, positions.dropFirst()).reduce(0) { $0 + ($1.1 - $1.0).length }
            time += Double(stroke.points.last!.time) / 1000
        }
        #expect((150...400).contains(distance / time), "mean speed \(distance / time) px/s")
    }

    @Test("pauses are longer between lines than between words, and between words than within them")
    func pauses() throws {
        let note = try generated(sentences: 6, hashtags: 0, seed: 6)
        let page = note.pages[0]
        func pause(before id: StrokeID) -> Double {
            let strokes = page.page.strokes
            let index = strokes.firstIndex { $0.id == id }!
            let previous = strokes[index - 1]
            return strokes[index].startTime - previous.startTime - Double(previous.points.last!.time)
        }
        var lineGaps: [Double] = [], wordGaps: [Double] = [], strokeGaps: [Double] = []
        for line in page.lines.dropFirst() {
            lineGaps.append(pause(before: line.strokes.lowerBound))
            for word in line.words {
                if word.strokes.lowerBound != line.strokes.lowerBound { wordGaps.append(pause(before: word.strokes.lowerBound)) }
                for raw in (word.strokes.lowerBound.rawValue + 1)..<(word.strokes.upperBound.rawValue + 1) {
                    strokeGaps.append(pause(before: StrokeID(raw)))
                }
            }
        }
        let mean = { (values: [Double]) in values.reduce(0, +) / Double(values.count) }
        #expect(mean(lineGaps) > mean(wordGaps))
        #expect(mean(wordGaps) > mean(strokeGaps))
        #expect(strokeGaps.allSatisfy { $0 >= 80 })
        #expect(lineGaps.allSatisfy { $0 >= 450 })
    }
}
