/// A 2-D vector or position in page pixels.
public struct Vector: Sendable, Hashable, Codable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static let zero = Vector(x: 0, y: 0)
    public static func + (a: Vector, b: Vector) -> Vector { Vector(x: a.x + b.x, y: a.y + b.y) }
    public static func - (a: Vector, b: Vector) -> Vector { Vector(x: a.x - b.x, y: a.y - b.y) }
    public static func * (a: Vector, s: Double) -> Vector { Vector(x: a.x * s, y: a.y * s) }
    public var length: Double { (x * x + y * y).squareRoot() }
}

/// An axis-aligned rectangle in page pixels.
public struct Rect: Sendable, Hashable, Codable {
    public var minX: Double
    public var minY: Double
    public var maxX: Double
    public var maxY: Double

    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    /// The smallest rectangle holding every position; `.null` when there are none.
    public init<S: Sequence>(enclosing positions: S) where S.Element == Vector {
        var rect = Rect.null
        for p in positions {
            rect.minX = Swift.min(rect.minX, p.x)
            rect.minY = Swift.min(rect.minY, p.y)
            rect.maxX = Swift.max(rect.maxX, p.x)
            rect.maxY = Swift.max(rect.maxY, p.y)
        }
        self = rect
    }

    /// The empty rectangle: holds nothing, and `union` with it changes nothing.
    public static let null = Rect(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
    public var isNull: Bool { minX > maxX || minY > maxY }
    public var width: Double { isNull ? 0 : maxX - minX }
    public var height: Double { isNull ? 0 : maxY - minY }

    public func union(_ other: Rect) -> Rect {
        Rect(minX: Swift.min(minX, other.minX), minY: Swift.min(minY, other.minY),
             maxX: Swift.max(maxX, other.maxX), maxY: Swift.max(maxY, other.maxY))
    }

    public func intersects(_ other: Rect) -> Bool {
        !isNull && !other.isNull && minX <= other.maxX && other.minX <= maxX && minY <= other.maxY && other.minY <= maxY
    }
}
