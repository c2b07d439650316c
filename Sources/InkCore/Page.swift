/// The ruling printed on a page under the ink.
public enum TemplateKind: UInt8, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case blank = 0, lined = 1, grid = 2, dots = 3, cornell = 4

    public var description: String {
        switch self {
        case .blank: "blank"
        case .lined: "lined"
        case .grid: "grid"
        case .dots: "dots"
        case .cornell: "cornell"
        }
    }

    public init?(name: String) {
        guard let kind = TemplateKind.allCases.first(where: { $0.description == name.lowercased() }) else { return nil }
        self = kind
    }
}

/// The paper a page is drawn on.
public struct PageTemplate: Sendable, Hashable, Codable {
    public var kind: TemplateKind
    /// Distance between rules, grid lines or dots, in page pixels.
    public var spacing: Float
    public var paper: RGBA

    public init(kind: TemplateKind = .blank, spacing: Float = 60, paper: RGBA = .white) {
        self.kind = kind
        self.spacing = spacing
        self.paper = paper
    }
}

/// Page dimensions in pixels.
public struct PageSize: Sendable, Hashable, Codable {
    public var width: Float
    public var height: Float

    public init(width: Float, height: Float) {
        self.width = width
        self.height = height
    }

    /// A reMarkable page: 1404 × 1872 pixels at 226 dpi.
    public static let remarkable = PageSize(width: 1404, height: 1872)
    /// A4 in PDF points (1/72 in).
    public static let a4Points = PageSize(width: 595.28, height: 841.89)
}

/// One page of a note: its paper and its strokes in drawing order.
public struct Page: Sendable, Hashable, Codable, Identifiable {
    public var id: PageID
    public var size: PageSize
    public var template: PageTemplate
    public var strokes: [Stroke]

    public init(id: PageID, size: PageSize = .remarkable, template: PageTemplate = PageTemplate(), strokes: [Stroke] = []) {
        self.id = id
        self.size = size
        self.template = template
        self.strokes = strokes
    }

    /// The number of points over all strokes.
    public var pointCount: Int { strokes.reduce(0) { $0 + $1.points.count } }

    /// The identifier after the highest one in use, for the next stroke drawn on this page.
    public var nextStrokeID: StrokeID {
        StrokeID((strokes.map(\.id.rawValue).max() ?? 0) + 1)
    }
}
