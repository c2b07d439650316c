import InkCore

/// A 2-D point or vector in page units, internal to the geometry (kept here so the hot loops inline).
@usableFromInline
struct V2: Hashable, Sendable {
    @usableFromInline var x: Double
    @usableFromInline var y: Double

    @inlinable init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }

    @inlinable static var zero: V2 { V2(0, 0) }
    @inlinable static func + (a: V2, b: V2) -> V2 { V2(a.x + b.x, a.y + b.y) }
    @inlinable static func - (a: V2, b: V2) -> V2 { V2(a.x - b.x, a.y - b.y) }
    @inlinable static func * (a: V2, s: Double) -> V2 { V2(a.x * s, a.y * s) }
    @inlinable static func * (s: Double, a: V2) -> V2 { V2(a.x * s, a.y * s) }
    @inlinable static prefix func - (a: V2) -> V2 { V2(-a.x, -a.y) }
    @inlinable func dot(_ b: V2) -> Double { x * b.x + y * b.y }
    @inlinable func cross(_ b: V2) -> Double { x * b.y - y * b.x }
    @inlinable var lengthSquared: Double { x * x + y * y }
    @inlinable var length: Double { (x * x + y * y).squareRoot() }
    /// The vector turned a quarter turn (the "left" normal of a direction in the maths convention).
    @inlinable var perpendicular: V2 { V2(-y, x) }
    @inlinable var normalized: V2 {
        let l = length
        return l > 0 ? V2(x / l, y / l) : V2(1, 0)
    }
    @inlinable func distance(to b: V2) -> Double { (self - b).length }
    @inlinable static func lerp(_ a: V2, _ b: V2, _ t: Double) -> V2 { V2(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t) }

    var vector: Vector { Vector(x: x, y: y) }
    init(_ v: Vector) { self.init(v.x, v.y) }
}

/// Closed polygons (or open polylines) stored back to back: `points[starts[i]..<starts[i+1]]`.
/// Filled together with the nonzero rule, the contours of one stroke never cancel: every ribbon,
/// cap and dot winds the same way.
struct Contours: Sendable {
    var points: [V2] = []
    var starts: [Int] = []

    var count: Int { starts.count }
    var isEmpty: Bool { starts.isEmpty }

    mutating func begin() { starts.append(points.count) }

    @inline(__always) mutating func add(_ p: V2) { points.append(p) }

    func range(_ index: Int) -> Range<Int> {
        starts[index]..<(index + 1 < starts.count ? starts[index + 1] : points.count)
    }

    mutating func append(_ other: Contours) {
        let offset = points.count
        points.append(contentsOf: other.points)
        starts.append(contentsOf: other.starts.map { $0 + offset })
    }

    /// Drops a contour that was begun but got fewer than `minimum` points.
    mutating func finish(minimum: Int) {
        guard let start = starts.last else { return }
        if points.count - start < minimum {
            points.removeSubrange(start...)
            starts.removeLast()
        }
    }

    var bounds: Rect {
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
