import InkCore

/// A 2-D point or vector in page units, internal to the geometry (kept here so the hot loops inline).
@usableFromInline
package struct V2: Hashable, Sendable {
    @usableFromInline package var x: Double
    @usableFromInline package var y: Double

    @inlinable package init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }

    @inlinable package static var zero: V2 { V2(0, 0) }
    @inlinable package static func + (a: V2, b: V2) -> V2 { V2(a.x + b.x, a.y + b.y) }
    @inlinable package static func - (a: V2, b: V2) -> V2 { V2(a.x - b.x, a.y - b.y) }
    @inlinable package static func * (a: V2, s: Double) -> V2 { V2(a.x * s, a.y * s) }
    @inlinable package static func * (s: Double, a: V2) -> V2 { V2(a.x * s, a.y * s) }
    @inlinable package static prefix func - (a: V2) -> V2 { V2(-a.x, -a.y) }
    @inlinable package func dot(_ b: V2) -> Double { x * b.x + y * b.y }
    @inlinable package func cross(_ b: V2) -> Double { x * b.y - y * b.x }
    @inlinable package var lengthSquared: Double { x * x + y * y }
    @inlinable package var length: Double { (x * x + y * y).squareRoot() }
    /// The vector turned a quarter turn (the "left" normal of a direction in the maths convention).
    @inlinable package var perpendicular: V2 { V2(-y, x) }
    @inlinable package var normalized: V2 {
        let l = length
        return l > 0 ? V2(x / l, y / l) : V2(1, 0)
    }
    @inlinable package func distance(to b: V2) -> Double { (self - b).length }
    @inlinable package static func lerp(_ a: V2, _ b: V2, _ t: Double) -> V2 { V2(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t) }

    package var vector: Vector { Vector(x: x, y: y) }
    package init(_ v: Vector) { self.init(v.x, v.y) }
}

/// Closed polygons (or open polylines) stored back to back: `points[starts[i]..<starts[i+1]]`.
/// Filled together with the nonzero rule, the contours of one stroke never cancel: every ribbon,
/// cap and dot winds the same way.
package struct Contours: Sendable {
    package init() {}
    package var points: [V2] = []
    package var starts: [Int] = []

    package var count: Int { starts.count }
    package var isEmpty: Bool { starts.isEmpty }

    package mutating func begin() { starts.append(points.count) }

    @inline(__always) package mutating func add(_ p: V2) { points.append(p) }

    package func range(_ index: Int) -> Range<Int> {
        starts[index]..<(index + 1 < starts.count ? starts[index + 1] : points.count)
    }

    package mutating func append(_ other: Contours) {
        let offset = points.count
        points.append(contentsOf: other.points)
        starts.append(contentsOf: other.starts.map { $0 + offset })
    }

    /// Drops a contour that was begun but got fewer than `minimum` points.
    package mutating func finish(minimum: Int) {
        guard let start = starts.last else { return }
        if points.count - start < minimum {
            points.removeSubrange(start...)
            starts.removeLast()
        }
    }

    package var bounds: Rect {
        var r = Rect.null
        for p in points {
            if p.x < r.minX { r.minX = p.x }
            if p.y < r.minY { r.minY = p.y }
            if p.x > r.maxX { r.maxX = p.x }
            if p.y > r.maxY { r.maxY = p.y }
        }
        return r
    }
}
