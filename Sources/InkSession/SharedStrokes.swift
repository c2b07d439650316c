import InkCore

/// A stroke of one of several writers sharing the note, in progress: named by its writer's key, drawn
/// at the same time as the others, and added to its page when its pen lifts.
public struct SharedStroke: Sendable, Equatable {
    /// The page it will be added to.
    public let pageID: PageID
    /// The stroke so far: tool, colour, width, start time and points (its id is given when it ends, so
    /// a page's strokes stay in id order whichever pen lifts first).
    public internal(set) var stroke: Stroke
    let pageIndex: Int
    /// Event time of the pen down, in seconds.
    let startedAt: Double
    /// Event time of the latest pen down or move, in seconds.
    public internal(set) var lastMove: Double
}

extension OpenNote {
    /// Starts the shared stroke `key` on `page` (hiding navigation, as any pen down does).
    mutating func strokeDown(_ key: String, page: PageID, _ point: InkPoint, tool: Tool, color: RGBA, width: Float,
                             _ step: inout Step) {
        guard sharedStrokes[key] == nil, let index = pageIndex[page] else { return }
        hideNavigation(&step)
        var first = point
        first.time = 0
        let stroke = Stroke(id: StrokeID(0), tool: tool, color: color, width: width,
                            startTime: (step.now - tracking[index].origin) * 1000, points: [first])
        sharedStrokes[key] = SharedStroke(pageID: page, stroke: stroke, pageIndex: index, startedAt: step.now, lastMove: step.now)
        scheduleStrokeStall(step)
    }

    /// Adds `points` to the shared stroke `key`, each stamped with the milliseconds since its pen down.
    mutating func strokeMove(_ key: String, _ points: [InkPoint], _ step: inout Step) {
        guard var shared = sharedStrokes[key] else { return }
        for point in points {
            var sample = point
            sample.time = Float((step.now - shared.startedAt) * 1000)
            shared.stroke.points.append(sample)
        }
        shared.lastMove = step.now
        sharedStrokes[key] = shared
        scheduleStrokeStall(step)
    }

    /// Ends the shared stroke `key`: it gets the page's next id and is added to the page (one undo step).
    mutating func strokeUp(_ key: String, _ step: inout Step) {
        guard var shared = sharedStrokes.removeValue(forKey: key) else { return }
        shared.stroke.id = tracking[shared.pageIndex].takeStrokeID()
        perform(.draw(page: shared.pageIndex, shared.stroke), key: key, &step)
        scheduleStrokeStall(step)
    }

    /// Ends, where they got to, the shared strokes that went `strokeStallTimeout` without a move.
    mutating func endStalledStrokes(_ step: inout Step) {
        let stalled = sharedStrokes.filter { $0.value.lastMove + step.config.strokeStallTimeout <= step.now }
        // Oldest first, so ids follow the order the pens went down.
        for key in stalled.sorted(by: { ($0.value.startedAt, $0.key) < ($1.value.startedAt, $1.key) }).map(\.key) {
            strokeUp(key, &step)
        }
        scheduleStrokeStall(step)
    }

    /// Finishes the stroke in progress and every shared stroke (leaving, or the draft made final).
    mutating func finishAllStrokes(_ step: inout Step) {
        finishStroke(&step)
        for key in sharedStrokes.sorted(by: { ($0.value.startedAt, $0.key) < ($1.value.startedAt, $1.key) }).map(\.key) {
            strokeUp(key, &step)
        }
    }

    /// The stall deadline: the least recently moved shared stroke's last move plus the timeout.
    private mutating func scheduleStrokeStall(_ step: Step) {
        deadlines.strokeStall = sharedStrokes.values.map(\.lastMove).min().map { $0 + step.config.strokeStallTimeout }
    }
}
