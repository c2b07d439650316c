import Foundation
import InkCore

/// A stroke as a foreign format holds it, before timing: page pixels, pressure, and times where known.
struct ImportedStroke {
    var pen: RecordedPen
    var points: [RecordedPoint]
    /// Seconds on the file's own clock for each point (same count as `points`), or nil when the
    /// format has none.
    var times: [Double]?
}

extension ImportedStroke {
    /// The stroke moved by (`dx`, `dy`) page pixels, everything else about its points kept.
    func moved(dx: Float, dy: Float) -> ImportedStroke {
        guard dx != 0 || dy != 0 else { return self }
        var moved = self
        moved.points = points.map { point in
            var point = point
            point.x += dx
            point.y += dy
            return point
        }
        return moved
    }
}

/// A page as a foreign format holds it.
struct ImportedPage {
    var size: PageSize
    var template: PageTemplate = PageTemplate()
    var strokes: [ImportedStroke] = []

    /// Moves the ink and the printed text by (`dx`, `dy`): where the page's corner moved to hold ink
    /// above or left of the source's origin.
    mutating func move(dx: Float, dy: Float) {
        guard dx != 0 || dy != 0 else { return }
        strokes = strokes.map { $0.moved(dx: dx, dy: dy) }
        for index in template.printed.indices {
            template.printed[index].x += dx
            template.printed[index].baseline += dy
        }
    }
}

/// How Inkwell times pen input that a format stores without time: a steady, realistic hand.
///
/// Within a stroke the pen moves at ``penSpeed`` along the path (each sample at least ``minimumSampleGap``
/// after the one before). Between strokes the pen is lifted for ``shortPause`` plus a share of
/// ``farPause`` that grows with the distance to the next stroke (full at ``farDistance``). A new page
/// starts ``pagePause`` after the last stroke of the page before. The result depends only on the points:
/// the same file always replays the same way.
public enum SyntheticTiming {
    /// Pen speed along a stroke, page pixels per second.
    public static let penSpeed = 250.0
    /// Shortest time between two samples of a stroke, seconds (a 250 Hz digitiser).
    public static let minimumSampleGap = 0.004
    /// Pause between strokes that start where the last ended, seconds.
    public static let shortPause = 0.12
    /// Extra pause, seconds, when the next stroke starts ``farDistance`` or more away.
    public static let farPause = 0.18
    public static let farDistance = 400.0
    /// Pause before a new page, seconds.
    public static let pagePause = 1.0
    /// Longest pause kept from a recording's own clock, seconds: longer ones (a recording resumed the next
    /// day) are shortened to this, which changes nothing the session does (it has saved long before).
    public static let longestGap = 3600.0

    /// Times for `points` starting at `start`: seconds for each point.
    static func strokeTimes(_ points: [RecordedPoint], start: Double) -> [Double] {
        var times: [Double] = []
        times.reserveCapacity(points.count)
        var t = start
        var previous: RecordedPoint?
        for point in points {
            if let previous {
                let dx = Double(point.x - previous.x), dy = Double(point.y - previous.y)
                t += max((dx * dx + dy * dy).squareRoot() / penSpeed, minimumSampleGap)
            }
            times.append(t)
            previous = point
        }
        return times
    }

    /// The pen-up pause before a stroke that starts at `next`, after one that ended at `last`.
    static func pause(from last: RecordedPoint?, to next: RecordedPoint?) -> Double {
        guard let last, let next else { return shortPause }
        let dx = Double(next.x - last.x), dy = Double(next.y - last.y)
        let distance = (dx * dx + dy * dy).squareRoot()
        return shortPause + farPause * min(distance / farDistance, 1)
    }
}

extension ImportedPage {
    /// Emits this note's pages as recorded events: a `newPage` per page, then each stroke's pen down, moves
    /// and up. Recorded times are kept (moved to start at 0, never going backwards); strokes without
    /// times are timed by ``SyntheticTiming``.
    static func events(_ pages: [ImportedPage]) -> [RecordedEvent] {
        var events: [RecordedEvent] = []
        events.reserveCapacity(pages.reduce(pages.count) { $0 + $1.strokes.reduce(0) { $0 + $1.points.count + 1 } })
        var clock = 0.0
        var lastEnd: RecordedPoint?
        // The file's clock minus the replay's, set by the first timed stroke; reset when the file's clock
        // would take a stroke back before the one already replayed.
        var fileOrigin: Double?
        for (pageIndex, page) in pages.enumerated() {
            if pageIndex > 0 { clock += SyntheticTiming.pagePause }
            events.append(.newPage(size: page.size, template: page.template, at: clock))
            lastEnd = nil
            for stroke in page.strokes where !stroke.points.isEmpty {
                let first = events.count == 1
                let pause = first ? 0 : SyntheticTiming.pause(from: lastEnd, to: stroke.points.first)
                var times: [Double]
                if let recorded = stroke.times, recorded.count == stroke.points.count, let begin = recorded.first {
                    var start = clock + pause
                    if let origin = fileOrigin, begin - origin > clock || (first && begin - origin >= clock) {
                        start = begin - origin
                        if start - clock > SyntheticTiming.longestGap {
                            start = clock + SyntheticTiming.longestGap
                            fileOrigin = begin - start
                        }
                    } else {
                        fileOrigin = begin - start
                    }
                    var previous = start
                    times = recorded.map { value in
                        let t = max(start + (value - begin), previous)
                        previous = t
                        return t
                    }
                } else {
                    times = SyntheticTiming.strokeTimes(stroke.points, start: clock + pause)
                }
                guard let start = times.first else { continue }
                events.append(.penDown(stroke.points[0], pen: stroke.pen, at: start))
                for index in stroke.points.indices.dropFirst() {
                    events.append(.penMove(stroke.points[index], at: times[index]))
                }
                clock = times.last ?? start
                events.append(.penUp(nil, at: clock))
                lastEnd = stroke.points.last
            }
        }
        return events
    }
}
