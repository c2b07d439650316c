import InkCore

/// A stroke being drawn (pen down, not yet up), named by its key: each writer sharing the note draws
/// its own at the same time as the others, and a replay draws one at a time. It is added to its page
/// when its pen lifts.
public struct StrokeInProgress: Sendable, Equatable {
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
    /// Who is writing it (nil: the note's one writer); its undo step is theirs.
    let writer: String?

    /// Appends `points`, each stamped with the milliseconds since the pen went down.
    mutating func add(_ points: [InkPoint], at now: Double) {
        let time = Float((now - startedAt) * 1000)
        for point in points {
            var sample = point
            sample.time = time
            stroke.points.append(sample)
        }
        lastMove = now
    }
}

extension OpenNote {
    /// Starts the stroke `key` of `writer` on `page`, hiding navigation.
    mutating func strokeDown(_ key: String, page: PageID, _ point: InkPoint, tool: Tool, color: RGBA, width: Float,
                             writer: String?, _ step: inout Step) {
        guard strokesInProgress[key] == nil, let index = pageIndex[page] else { return }
        hideNavigation(&step)
        var first = point
        first.time = 0
        let stroke = Stroke(id: StrokeID(0), tool: tool, color: color, width: width,
                            startTime: (step.now - tracking[index].origin) * 1000, points: [first])
        strokesInProgress[key] = StrokeInProgress(pageID: page, stroke: stroke, pageIndex: index, startedAt: step.now,
                                                  lastMove: step.now, writer: writer)
        scheduleStrokeStall(step)
    }

    /// Adds `points` to the stroke `key`, each stamped with the milliseconds since its pen down.
    mutating func strokeMove(_ key: String, _ points: [InkPoint], _ step: inout Step) {
        guard strokesInProgress[key] != nil else { return }
        strokesInProgress[key]?.add(points, at: step.now)  // in place: a long stroke is not copied a move
        scheduleStrokeStall(step)
    }

    /// Ends the stroke `key`: it gets the page's next id and is added to the page (one undo step).
    mutating func strokeUp(_ key: String, _ step: inout Step) {
        guard var drawing = strokesInProgress.removeValue(forKey: key) else { return }
        drawing.stroke.id = tracking[drawing.pageIndex].takeStrokeID()
        perform(.draw(page: drawing.pageIndex, drawing.stroke), key: key, by: drawing.writer, &step)
        scheduleStrokeStall(step)
    }

    /// Ends, where they got to, the strokes that went `strokeStallTimeout` without a move.
    mutating func endStalledStrokes(_ step: inout Step) {
        let stalled = strokesInProgress.filter { $0.value.lastMove + step.config.strokeStallTimeout <= step.now }
        for key in Self.oldestFirst(stalled) { strokeUp(key, &step) }
        scheduleStrokeStall(step)
    }

    /// Ends every stroke in progress, oldest first (leaving, or the draft made final).
    mutating func finishAllStrokes(_ step: inout Step) {
        for key in Self.oldestFirst(strokesInProgress) { strokeUp(key, &step) }
    }

    /// The keys of `strokes`, the earliest pen down first, so their ids follow the order the pens went down.
    private static func oldestFirst(_ strokes: [String: StrokeInProgress]) -> [String] {
        strokes.sorted { ($0.value.startedAt, $0.key) < ($1.value.startedAt, $1.key) }.map(\.key)
    }

    /// The stall deadline: the least recently moved stroke's last move plus the timeout (none when the
    /// timeout is infinite).
    private mutating func scheduleStrokeStall(_ step: Step) {
        deadlines.strokeStall = strokesInProgress.values.map(\.lastMove).min().map { $0 + step.config.strokeStallTimeout }
            .flatMap { $0.isFinite ? $0 : nil }
    }
}
