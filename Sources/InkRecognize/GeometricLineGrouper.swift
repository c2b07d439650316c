import InkCore

/// Groups strokes into text lines by geometry alone, whatever order they were written in (real
/// notes are edited, filled in and written around): letter-sized "main" strokes that overlap
/// vertically and lie near each other form lines; dots, bars and marks join the nearest line
/// within reach, or stand as lines of their own.
public enum GeometricLineGrouper {
    /// Lines of `strokes` (only those at `candidates` when given), in reading order.
    public static func group(_ strokes: [Stroke], candidates: [Int]? = nil) -> [InkLine] {
        let shapes = strokes.enumerated().map { StrokeShape($0.element, index: $0.offset) }
        return group(shapes: shapes, order: candidates ?? Array(strokes.indices))
    }

    /// The height of a letter stroke: the median height, ignoring strokes under 0.2 of the median of all.
    static func strokeHeight(of shapes: [StrokeShape]) -> Double {
        let heights = shapes.filter { !$0.isEmpty }.map { max($0.bounds.height, 0) }
        let overall = median(heights)
        return max(1, median(heights.filter { $0 >= 0.2 * overall }))
    }

    static func group(shapes: [StrokeShape], order: [Int]) -> [InkLine] {
        let present = order.filter { !shapes[$0].isEmpty }
        let ht = strokeHeight(of: present.map { shapes[$0] })
        let main = present.filter { (0.35 * ht...2.5 * ht).contains(shapes[$0].bounds.height) }
        let mainSet = Set(main)

        // Main strokes: joined when they overlap vertically by half the smaller height and lie
        // less than 6 letters apart; swept left to right so that only near pairs are compared.
        var parent = Dictionary(uniqueKeysWithValues: main.map { ($0, $0) })
        func root(_ i: Int) -> Int {
            var i = i
            while parent[i]! != i {
                parent[i] = parent[parent[i]!]!
                i = parent[i]!
            }
            return i
        }
        let byLeft = main.sorted { shapes[$0].bounds.minX < shapes[$1].bounds.minX }
        var open: [Int] = []
        for index in byLeft {
            let b = shapes[index].bounds
            open.removeAll { shapes[$0].bounds.maxX < b.minX - 6 * ht }
            for other in open {
                let o = shapes[other].bounds
                let overlap = min(b.maxY, o.maxY) - max(b.minY, o.minY)
                if overlap >= 0.5 * min(b.height, o.height) { parent[root(index)] = root(other) }
            }
            open.append(index)
        }
        var members: [Int: [Int]] = [:]
        for index in main { members[root(index), default: []].append(index) }
        var lines = members.values.map { strokes in
            (strokes: strokes, bounds: strokes.reduce(Rect.null) { $0.union(shapes[$1].bounds) })
        }

        // Everything else goes to the nearest line within reach (dy + 0.3·dx < 2 letters), else
        // makes a line of its own that later strokes may join.
        for index in present where !mainSet.contains(index) {
            let b = shapes[index].bounds
            let center = (b.minY + b.maxY) / 2
            func distance(_ line: (strokes: [Int], bounds: Rect)) -> Double {
                let dy = max(line.bounds.minY - center, center - line.bounds.maxY, 0)
                let dx = max(line.bounds.minX - b.maxX, b.minX - line.bounds.maxX, 0)
                return dy + 0.3 * dx
            }
            if let nearest = lines.indices.min(by: { distance(lines[$0]) < distance(lines[$1]) }),
               distance(lines[nearest]) < 2 * ht {
                lines[nearest].strokes.append(index)
            } else {
                lines.append((strokes: [index], bounds: b))
            }
        }
        // Bounds of all their strokes, then reading order: rows of one letter height, left to right.
        return lines.map { line in
            InkLine(strokes: line.strokes.sorted(), bounds: line.strokes.reduce(Rect.null) { $0.union(shapes[$1].bounds) })
        }.sorted {
            let rowA = (($0.bounds.minY + $0.bounds.maxY) / 2 / ht).rounded(), rowB = (($1.bounds.minY + $1.bounds.maxY) / 2 / ht).rounded()
            return (rowA, $0.bounds.minX) < (rowB, $1.bounds.minX)
        }
    }
}
