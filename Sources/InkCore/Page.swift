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

/// A line of text printed on the paper, under the ink: the source's typed text where its author put it
/// (a reMarkable page's paragraphs, a Xournal++ text box). It is drawn, never recognised or erased; the
/// note's typed text (body.md) holds the same words for search and editing.
public struct PrintedLine: Sendable, Hashable, Codable {
    public var text: String
    /// Where the line starts, page pixels.
    public var x: Float
    /// The line's baseline, page pixels.
    public var baseline: Float
    /// The em size, page pixels.
    public var size: Float
    public var bold: Bool
    public var color: RGBA

    /// Most printed lines a page keeps, and most bytes of UTF-8 a line keeps (the page file's limits).
    public static let maxPerPage = 10_000
    public static let maxBytes = 4096

    public init(text: String, x: Float, baseline: Float, size: Float, bold: Bool = false, color: RGBA = .black) {
        self.text = text
        self.x = x
        self.baseline = baseline
        self.size = size
        self.bold = bold
        self.color = color
    }
}

/// One of a page's layers, bottom first: a name and whether it is shown. Strokes name theirs by
/// index (``Stroke/layer``); a page without layers has one, unnamed and shown.
public struct PageLayer: Sendable, Hashable, Codable {
    public var name: String
    public var isVisible: Bool
    /// Most layers a page keeps, and the longest name (in UTF-8 bytes).
    public static let maxPerPage = 256
    public static let maxNameBytes = 256

    public init(name: String, isVisible: Bool = true) {
        self.name = name
        self.isVisible = isVisible
    }
}

/// A page of a PDF the page is drawn on (annotating a PDF): the document, named by the SHA-256 of its
/// bytes (64 lowercase hex digits) and stored once per note, and the page in it (0 is the first). The
/// PDF page is scaled to the page's size, under the template's rules and the ink.
public struct PageBackground: Sendable, Hashable, Codable {
    public var document: String
    public var page: Int

    /// The most pages a background document may have (the page file stores the index in 32 bits).
    public static let maxPage = 100_000
    /// The largest background document Inkwell reads, opens or stores.
    public static let maxDocumentBytes = 512 << 20

    public init(document: String, page: Int) {
        self.document = document
        self.page = page
    }

    /// Whether `id` has the form of a document name: 64 lowercase hex digits (so it is safe as a file name).
    public static func isDocumentID(_ id: String) -> Bool {
        id.utf8.count == 64 && id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}

/// The paper a page is drawn on, with what comes printed on it and its layers.
public struct PageTemplate: Sendable, Hashable, Codable {
    public var kind: TemplateKind
    /// Distance between rules, grid lines or dots, in page pixels.
    public var spacing: Float
    public var paper: RGBA
    /// Text printed on the paper (from an imported page), drawn under the ink.
    public var printed: [PrintedLine]
    /// The page's layers, bottom first (from an imported page); empty: one unnamed, shown layer. They
    /// travel with the paper, as printed text does, so every path that makes a page keeps them.
    public var layers: [PageLayer]
    /// The PDF page under the ink (from an imported PDF or a source page backed by one); nil: none.
    public var background: PageBackground?
    /// Page pixels per inch, as the page's source states it (226 for a reMarkable page, grown or not; 72 for
    /// a page in PDF points: PDFs, Xournal++, pages placed on a PDF); nil: inferred from the page's size
    /// (``InkRender`` `PageMetrics`). Exports size pages by it, so every page of a note is in the same
    /// physical units.
    public var unitsPerInch: Float?
    /// The resolutions a page may state: from 1 pixel an inch to 100,000.
    public static let unitsPerInchRange: ClosedRange<Float> = 1...100_000

    public init(kind: TemplateKind = .blank, spacing: Float = 60, paper: RGBA = .white, printed: [PrintedLine] = [],
                layers: [PageLayer] = [], background: PageBackground? = nil) {
        self.kind = kind
        self.spacing = spacing
        self.paper = paper
        self.printed = printed
        self.layers = layers
        self.background = background
    }

    private enum CodingKeys: String, CodingKey { case kind, spacing, paper, printed, layers, background, unitsPerInch }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = try container.decode(TemplateKind.self, forKey: .kind)
        spacing = try container.decode(Float.self, forKey: .spacing)
        paper = try container.decode(RGBA.self, forKey: .paper)
        printed = try container.decodeIfPresent([PrintedLine].self, forKey: .printed) ?? []
        layers = try container.decodeIfPresent([PageLayer].self, forKey: .layers) ?? []
        background = try container.decodeIfPresent(PageBackground.self, forKey: .background)
        unitsPerInch = try container.decodeIfPresent(Float.self, forKey: .unitsPerInch)
    }

    /// Whether strokes on layer `index` are drawn (a layer the page does not list is).
    public func isVisible(layer index: UInt16) -> Bool {
        Int(index) >= layers.count || layers[Int(index)].isVisible
    }
}

extension PageTemplate {
    /// What an importer prints on a placeholder page standing for a source page it could not read.
    public static func unreadableNotice(page: Int, reason: String) -> String {
        "page \(page) could not be read: \(reason)"
    }

    /// The notice printed on this page when it is such a placeholder (its printed lines joined); nil otherwise.
    public var unreadableNotice: String? {
        guard let first = printed.first?.text, first.hasPrefix("page ") else { return nil }
        let text = printed.map(\.text).joined(separator: " ")
        return text.contains(" could not be read: ") ? text : nil
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

    /// The page as it is seen: without the strokes of hidden layers.
    public var visible: Page {
        guard template.layers.contains(where: { !$0.isVisible }) else { return self }
        var page = self
        page.strokes.removeAll { !template.isVisible(layer: $0.layer) }
        return page
    }

    /// The number of points over all strokes.
    public var pointCount: Int { strokes.reduce(0) { $0 + $1.points.count } }

    /// The identifier after the highest one in use, for the next stroke drawn on this page.
    public var nextStrokeID: StrokeID {
        StrokeID((strokes.map(\.id.rawValue).max() ?? 0) + 1)
    }
}
