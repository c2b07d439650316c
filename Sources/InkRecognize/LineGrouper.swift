import Foundation
import InkCore

/// A line of handwriting found in the strokes.
public struct InkLine: Sendable, Hashable {
    /// Indices into the page's strokes, in drawing order.
    public var strokes: [Int]
    /// The line's ink, in page pixels (stroke centrelines, not widened by the pen).
    public var bounds: Rect
}

/// Groups strokes into text lines by writing order and geometry, the way a hand writes: each stroke
/// continues the line being written when it sits in that line's band (the vertical range most of its
/// recent strokes cover) and not far past its end; otherwise it goes back to an earlier line it fits
/// (a dot or a correction added later) or starts a new line. Pieces of one line written at different
/// times are merged afterwards. Lines come out in reading order: top to bottom, left to right.
public enum LineGrouper {
    /// Lines of `strokes`, considering only the strokes at `candidates` (indices, in drawing order;
    /// all when nil). `textHeight` is a letter stroke's typical height, estimated when nil.
    public static func group(_ strokes: [Stroke], candidates: [Int]? = nil, textHeight: Double? = nil) -> [InkLine] {
        let shapes = strokes.enumerated().map { StrokeShape($0.element, index: $0.offset) }
        let order = candidates ?? Array(strokes.indices)
        let height = textHeight ?? typicalHeight(of: order.map { shapes[$0] })
        return group(shapes: shapes, order: order, textHeight: height)
    }

    /// The typical height of a letter stroke: the median height of strokes that are not dots or
    /// bars (those under 40% of the overall median).
    static func typicalHeight(of shapes: [StrokeShape]) -> Double {
        let heights = shapes.filter { !$0.isEmpty }.map { max($0.bounds.height, 0) }
        let overall = median(heights)
        let letters = heights.filter { $0 >= 0.4 * overall }
        return max(1, median(letters))
    }

    /// A line while it is being built.
    private struct Building {
        var strokes: [Int] = []
        var bounds = Rect.null
        /// The band of recent letter-sized strokes: medians of their tops and bottoms.
        var core = Rect.null
        var recentTops: [Double] = []
        var recentBottoms: [Double] = []
        var hasLetters: Bool { !recentTops.isEmpty }

        mutating func add(_ shape: StrokeShape, textHeight: Double) {
            strokes.append(shape.index)
            bounds = bounds.union(shape.bounds)
            let h = shape.bounds.height
            if h >= 0.6 * textHeight, h <= 2.5 * textHeight {
                recentTops.append(shape.bounds.minY)
                recentBottoms.append(shape.bounds.maxY)
                if recentTops.count > 12 {
                    recentTops.removeFirst()
                    recentBottoms.removeFirst()
                }
            }
            if recentTops.isEmpty {
                // Only dots, dashes and bars so far (a bullet): a letter's height around them.
                let y = (bounds.minY + bounds.maxY) / 2
                core = Rect(minX: bounds.minX, minY: min(bounds.minY, y - 0.7 * textHeight),
                            maxX: bounds.maxX, maxY: max(bounds.maxY, y + 0.7 * textHeight))
            } else {
                core = Rect(minX: bounds.minX, minY: median(recentTops), maxX: bounds.maxX, maxY: median(recentBottoms))
            }
        }
    }

    static func group(shapes: [StrokeShape], order: [Int], textHeight h: Double) -> [InkLine] {
        var lines: [Building] = []
        var current: Int?
        for index in order {
            let shape = shapes[index]
            guard !shape.isEmpty else { continue }
            if let c = current, fits(shape, lines[c], textHeight: h, reach: 6) {
                lines[c].add(shape, textHeight: h)
                continue
            }
            // An earlier line it belongs to (most recent first), or a new one.
            if let earlier = lines.indices.reversed().first(where: { $0 != current && fits(shape, lines[$0], textHeight: h, reach: 2) }) {
                lines[earlier].add(shape, textHeight: h)
                current = earlier
            } else {
                var line = Building()
                line.add(shape, textHeight: h)
                lines.append(line)
                current = lines.count - 1
            }
        }
        lines = merged(lines, textHeight: h)
        return readingOrder(lines, textHeight: h).map { InkLine(strokes: $0.strokes.sorted(), bounds: $0.bounds) }
    }

    /// True when `shape` sits in the band of `line` and within `reach` text heights of its ends: its
    /// centre lies in the band widened by 0.6 letter above (apostrophes; 0.9 for dots) and 0.5 below
    /// (commas, descenders), and a letter-sized stroke overlaps the band itself.
    private static func fits(_ shape: StrokeShape, _ line: Building, textHeight h: Double, reach: Double) -> Bool {
        let b = shape.bounds, core = line.core
        guard b.minX <= line.bounds.maxX + reach * h, b.maxX >= line.bounds.minX - reach * h else { return false }
        let y = (b.minY + b.maxY) / 2
        if b.height < 0.6 * h { return y >= core.minY - 0.9 * h && y <= core.maxY + 0.5 * h }
        guard y >= core.minY - 0.6 * h, y <= core.maxY + 0.5 * h else { return false }
        return min(b.maxY, core.maxY) - max(b.minY, core.minY) > 0
    }

    /// Joins lines that share a band and touch or nearly touch horizontally; passes until none join.
    private static func merged(_ input: [Building], textHeight h: Double) -> [Building] {
        var lines = input
        var changed = true
        while changed {
            changed = false
            var i = 0
            while i < lines.count {
                var j = i + 1
                while j < lines.count {
                    let a = lines[i], b = lines[j]
                    let gap = max(a.bounds.minX, b.bounds.minX) - min(a.bounds.maxX, b.bounds.maxX)
                    guard gap <= 3 * h, sameBand(a, b, textHeight: h) else {
                        j += 1
                        continue
                    }
                    var joined = a
                    joined.strokes += b.strokes
                    joined.bounds = a.bounds.union(b.bounds)
                    joined.recentTops = a.recentTops + b.recentTops
                    joined.recentBottoms = a.recentBottoms + b.recentBottoms
                    joined.core = joined.hasLetters
                        ? Rect(minX: joined.bounds.minX, minY: median(joined.recentTops),
                               maxX: joined.bounds.maxX, maxY: median(joined.recentBottoms))
                        : joined.bounds
                    lines[i] = joined
                    lines.remove(at: j)
                    changed = true
                }
                i += 1
            }
        }
        return lines
    }

    /// True when two pieces of lines are one line: their bands' centres are within half a letter, or
    /// the bands overlap by half the narrower one (a piece with many ascenders has a band reaching
    /// above the letters': "the ability" beside "- tabs for"), or one holds only marks (dots, bars,
    /// commas) whose centre lies in the other's widened band.
    private static func sameBand(_ a: Building, _ b: Building, textHeight h: Double) -> Bool {
        let ca = (a.core.minY + a.core.maxY) / 2, cb = (b.core.minY + b.core.maxY) / 2
        if a.hasLetters, b.hasLetters { return abs(ca - cb) < 0.5 * h || overlapsByHalf(a.core, b.core) }
        let (marks, letters) = a.hasLetters ? (b, a) : (a, b)
        let y = (marks.bounds.minY + marks.bounds.maxY) / 2
        return y >= letters.core.minY - 0.9 * h && y <= letters.core.maxY + 0.5 * h
    }

    /// True when the vertical ranges of `a` and `b` overlap by at least half the shorter one's height.
    private static func overlapsByHalf(_ a: Rect, _ b: Rect) -> Bool {
        let overlap = min(a.maxY, b.maxY) - max(a.minY, b.minY)
        return overlap > 0 && overlap >= 0.5 * min(a.height, b.height)
    }

    /// Top to bottom; lines side by side on one row (columns) left to right. Two lines share a row when
    /// their bands' centres are within half a letter or their ink overlaps by half the shorter line's
    /// height (a line written sloping down beside another: "3. Largest" left of "4. selection eraser").
    private static func readingOrder(_ lines: [Building], textHeight h: Double) -> [Building] {
        let byCenter = lines.sorted { ($0.core.minY + $0.core.maxY) < ($1.core.minY + $1.core.maxY) }
        var rows: [[Building]] = []
        for line in byCenter {
            let center = (line.core.minY + line.core.maxY) / 2
            if let last = rows.last?.last,
               abs(center - (last.core.minY + last.core.maxY) / 2) < 0.5 * h || overlapsByHalf(line.bounds, last.bounds) {
                rows[rows.count - 1].append(line)
            } else {
                rows.append([line])
            }
        }
        return rows.flatMap { $0.sorted { $0.bounds.minX < $1.bounds.minX } }
    }
}
