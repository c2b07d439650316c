/// The tool a stroke was drawn with. Raw values are stable: they are stored in page files.
public enum Tool: UInt8, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case pen = 0
    case pencil = 1
    case marker = 2
    case highlighter = 3
    /// An eraser stroke removes what it crosses from earlier strokes when rendered or applied.
    case eraser = 4
    /// A pen with near-constant width.
    case fineliner = 5

    public var description: String {
        switch self {
        case .pen: "pen"
        case .pencil: "pencil"
        case .marker: "marker"
        case .highlighter: "highlighter"
        case .eraser: "eraser"
        case .fineliner: "fineliner"
        }
    }

    /// Parses the name used on the command line, in replay logs and in `description`.
    public init?(name: String) {
        guard let tool = Tool.allCases.first(where: { $0.description == name.lowercased() }) else { return nil }
        self = tool
    }
}

/// A colour with 8-bit red, green, blue and alpha channels (not premultiplied).
public struct RGBA: Sendable, Hashable, Codable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public static let black = RGBA(red: 0, green: 0, blue: 0)
    public static let white = RGBA(red: 255, green: 255, blue: 255)

    /// `#rrggbbaa`.
    public var description: String {
        let hex = [red, green, blue, alpha].map { byte -> String in
            let digits = String(byte, radix: 16)
            return byte < 16 ? "0" + digits : digits
        }
        return "#" + hex.joined()
    }

    /// Parses `#rgb`, `#rrggbb` or `#rrggbbaa` (the `#` is optional).
    public init?(hex: String) {
        var digits = Substring(hex)
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        if digits.count == 3 { digits = Substring(digits.flatMap { [$0, $0] }) }
        guard digits.count == 6 || digits.count == 8, let value = UInt32(digits, radix: 16) else { return nil }
        let full = digits.count == 6 ? (value << 8 | 0xFF) : value
        self.init(red: UInt8(full >> 24), green: UInt8(full >> 16 & 0xFF),
                  blue: UInt8(full >> 8 & 0xFF), alpha: UInt8(full & 0xFF))
    }
}

/// Identifies a stroke within its page. The session hands them out in increasing order.
public struct StrokeID: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    public var rawValue: UInt64
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }
    public static func < (lhs: StrokeID, rhs: StrokeID) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { String(rawValue) }
}

/// One continuous movement of the pen, from pen down to pen up.
public struct Stroke: Sendable, Hashable, Codable, Identifiable {
    public var id: StrokeID
    public var tool: Tool
    public var color: RGBA
    /// Nominal width in page pixels; pressure scales it when rendered.
    public var width: Float
    /// Milliseconds from the page's creation to the first point of this stroke.
    public var startTime: Double
    public var points: [InkPoint]
    /// The page layer it is on (an index into ``PageTemplate/layers``; 0 is the bottom one).
    public var layer: UInt16
    /// The shape the stroke outlines is filled in its colour at this opacity (1…255), under the line;
    /// nil: not filled. Xournal++ shapes and highlighter areas have it.
    public var fill: UInt8?
    /// Drawn dashed: lengths in page pixels along the stroke, on and off in turn, repeated (Xournal++'s
    /// dash styles); nil: solid. See ``Stroke/isValidDash(_:)``.
    public var dash: [Float]?

    /// Whether `dash` can be a stroke's: 1…16 lengths, each finite, 0…1,000, not all 0.
    public static func isValidDash(_ dash: [Float]) -> Bool {
        (1...16).contains(dash.count) && dash.allSatisfy { $0.isFinite && $0 >= 0 && $0 <= 1000 } && dash.contains { $0 > 0 }
    }

    public init(id: StrokeID, tool: Tool = .pen, color: RGBA = .black, width: Float = 2,
                startTime: Double = 0, points: [InkPoint], layer: UInt16 = 0, fill: UInt8? = nil, dash: [Float]? = nil) {
        self.id = id
        self.tool = tool
        self.color = color
        self.width = width
        self.startTime = startTime
        self.points = points
        self.layer = layer
        self.fill = fill
        self.dash = dash
    }

    private enum CodingKeys: String, CodingKey { case id, tool, color, width, startTime, points, layer, fill, dash }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(StrokeID.self, forKey: .id)
        tool = try container.decode(Tool.self, forKey: .tool)
        color = try container.decode(RGBA.self, forKey: .color)
        width = try container.decode(Float.self, forKey: .width)
        startTime = try container.decode(Double.self, forKey: .startTime)
        points = try container.decode([InkPoint].self, forKey: .points)
        layer = try container.decodeIfPresent(UInt16.self, forKey: .layer) ?? 0
        fill = try container.decodeIfPresent(UInt8.self, forKey: .fill)
        dash = try container.decodeIfPresent([Float].self, forKey: .dash)
    }

    /// The smallest rectangle holding every point (not widened by the stroke's width).
    public var bounds: Rect {
        Rect(enclosing: points.lazy.map { Vector(x: Double($0.x), y: Double($0.y)) })
    }
}
