import Foundation
import InkCore
import InkGeometry
import InkFont
import InkText

/// A page of typed text ready for a PDF: the drawing and the invisible text over it.
struct TypesetPage: Sendable {
    var scene: Scene
    var text: [TextLine]
}

/// Sets a note's typed text on pages of its own, in a Hershey stroke font drawn as stroked paths:
/// vector text with no font to embed. Headings are larger and bolder, checkboxes are boxes (ticked
/// when done, holding the marker otherwise), bullets dots, dividers rules, code a grey column;
/// long lines wrap at words. Every visual line also becomes a ``TextLine`` for the invisible layer.
///
/// Sizes are in points (the page's own units per point come from ``PageMetrics``); pure.
struct TypedTextLayout {
    let font: HersheyFont
    let size: PageSize
    /// Points per page unit.
    let k: Double

    // Measures, in points.
    static let bodySize = 11.0
    static let headingSizes = [22.0, 17.0, 14.0, 12.0, 12.0, 12.0]
    static let codeSize = 10.0
    static let indentStep = 18.0
    static let unitsPerEm = HersheyFont.unitsPerEm
    static let ink = RGBA.black
    static let quiet = RGBA(red: 120, green: 120, blue: 120)
    static let rule = RGBA(red: 160, green: 160, blue: 160)

    var margin: Double { max(36, 0.08 * Double(size.width) * k) }
    var left: Double { margin }
    var right: Double { Double(size.width) * k - margin }
    var bottom: Double { Double(size.height) * k - margin }

    /// Where the next line's top is, in points from the top of the page.
    private var y = 0.0
    private var pages: [TypesetPage] = []
    /// Paths of the current page by stroke width (points) and colour, in the order first used.
    private var paths: [(width: Double, color: RGBA, contours: Contours)] = []
    private var lines: [TextLine] = []
    private var pageHasContent = false

    init(font: HersheyFont = .romanSimplex, size: PageSize, pointsPerUnit k: Double) {
        self.font = font
        self.size = size
        self.k = k
    }

    /// The pages of `text`; none for empty text.
    static func pages(_ text: TypedText, size: PageSize, pointsPerUnit k: Double) -> [TypesetPage] {
        guard text.lines.contains(where: { $0.hasWords || $0.kind == .divider }) else { return [] }
        var layout = TypedTextLayout(size: size, pointsPerUnit: k)
        layout.y = layout.margin
        for line in text.lines { layout.place(line) }
        layout.finishPage()
        return layout.pages
    }

    private mutating func place(_ line: BodyLine) {
        let body = TypedTextLayout.bodySize
        let indent = left + Double(line.level) * TypedTextLayout.indentStep
        switch line.kind {
        case .blank:
            if pageHasContent { y += 0.6 * body }
        case .headingUnderline:
            break
        case .heading(let level):
            let size = TypedTextLayout.headingSizes[min(max(level, 1), 6) - 1]
            if pageHasContent { y += 0.5 * size }
            // Keep a heading with at least one line after it.
            text(line.content, at: left, width: right - left, size: size, weight: 1.7, color: TypedTextLayout.ink,
                 reserve: 1.5 * body)
            y += 0.2 * size
        case .paragraph:
            text(line.content, at: indent, width: right - indent, size: body, weight: 1, color: TypedTextLayout.ink)
        case .bullet:
            item(line, at: indent, markerWidth: 0.9 * body) { layout, baseline in
                layout.dot(x: indent + 0.3 * body, y: baseline - 0.3 * body, diameter: 0.32 * body)
            }
        case .numbered:
            let marker = line.listMarker ?? ""
            let width = max(1.4 * body, measure(marker, size: body) + 0.4 * body)
            item(line, at: indent, markerWidth: width) { layout, baseline in
                layout.draw(marker, x: indent, baseline: baseline, size: body, weight: 1, color: TypedTextLayout.ink)
            }
        case .task(let marker):
            let quiet = marker == .done || marker == .cancelled
            item(line, at: indent, markerWidth: 1.4 * body, color: quiet ? TypedTextLayout.quiet : TypedTextLayout.ink,
                 strike: marker == .cancelled) { layout, baseline in
                layout.checkbox(marker, x: indent, baseline: baseline, side: 0.75 * body)
            }
        case .divider:
            ensure(1.2 * body)
            y += 0.6 * body
            stroke([V2(left, y), V2(right, y)], width: 0.6, color: TypedTextLayout.rule)
            y += 0.6 * body
            pageHasContent = true
        case .codeFence:
            if pageHasContent { y += 0.25 * body }
        case .code:
            let x = indent + 0.8 * body
            let top = y
            text(line.content, at: x, width: right - x, size: TypedTextLayout.codeSize, weight: 1,
                 color: RGBA(red: 60, green: 60, blue: 60), keepSpaces: true)
            // The bar runs beside the lines just set (from the page top when they moved to a new page).
            let start = y < top ? margin : top
            stroke([V2(indent + 0.2 * body, start), V2(indent + 0.2 * body, y)], width: 1.5,
                   color: RGBA(red: 200, green: 200, blue: 200))
        }
    }

    /// A list item: the marker on the first line, the text beside it, wrapped lines aligned with the text.
    private mutating func item(_ line: BodyLine, at x: Double, markerWidth: Double, color: RGBA = TypedTextLayout.ink,
                               strike: Bool = false, marker: (inout TypedTextLayout, Double) -> Void) {
        let body = TypedTextLayout.bodySize
        var first = true
        let prefix = invisiblePrefix(line)
        // An item without text still gets its one line, with the marker.
        text(line.content, at: x + markerWidth, width: right - x - markerWidth, size: body, weight: 1, color: color,
             strike: strike) { layout, baseline in
            guard first else { return nil }
            first = false
            marker(&layout, baseline)
            return (prefix, x)
        }
    }

    /// The Markdown a reader copies from the invisible layer in front of an item's text.
    private func invisiblePrefix(_ line: BodyLine) -> String {
        switch line.kind {
        case .task(let marker): "[\(marker.rawValue)]"
        case .numbered: line.listMarker ?? ""
        default: "\u{2022}"
        }
    }

    /// Sets `content` from `x` in lines of at most `width` points. `lineStart` is told each line's
    /// baseline before it is drawn and may return text (and where it starts) to put in front of the
    /// line in the invisible layer. `reserve` keeps that much room below the first line on its page.
    private mutating func text(_ content: String, at x: Double, width: Double, size: Double, weight: Double, color: RGBA,
                               keepSpaces: Bool = false, strike: Bool = false, reserve: Double = 0,
                               lineStart: (inout TypedTextLayout, Double) -> (String, Double)? = { _, _ in nil }) {
        let pieces = wrap(content, width: width, size: size, keepSpaces: keepSpaces)
        let lead = 1.45 * size
        for (index, piece) in pieces.enumerated() {
            ensure(lead + (index == 0 ? reserve : 0))
            let baseline = y + size
            let extra = lineStart(&self, baseline)
            let advance = draw(piece, x: x, baseline: baseline, size: size, weight: weight, color: color)
            if strike, advance > 0 {
                stroke([V2(x, baseline - 0.3 * size), V2(x + advance, baseline - 0.3 * size)], width: 0.06 * size, color: color)
            }
            let start = extra?.1 ?? x
            let invisible = [extra?.0, piece.isEmpty ? nil : piece].compactMap { $0 }.joined(separator: " ")
            if !invisible.isEmpty {
                lines.append(TextLine(text: invisible, bounds: textBounds(x: start, width: max(advance + x - start, 1),
                                                                          baseline: baseline, size: size)))
            }
            y += lead
            pageHasContent = true
        }
    }

    /// The box the invisible layer stretches a line over, in page units.
    private func textBounds(x: Double, width: Double, baseline: Double, size: Double) -> Rect {
        let cap = 21 * size / TypedTextLayout.unitsPerEm
        return Rect(minX: x / k, minY: (baseline - 1.25 * cap) / k, maxX: (x + width) / k, maxY: (baseline + 0.3 * cap) / k)
    }

    /// Starts a new page unless `height` more points fit on this one (or nothing is on it yet).
    private mutating func ensure(_ height: Double) {
        if pageHasContent, y + height > bottom { finishPage() }
    }

    private mutating func finishPage() {
        guard pageHasContent else { return }
        let paper = RGBA.white
        var scene = Scene(width: Double(size.width), height: Double(size.height), paper: paper,
                          template: TemplateLayout(PageTemplate(kind: .blank, paper: paper), size: size), items: [])
        scene.items = paths.map { .stroke($0.contours, width: $0.width / k, color: $0.color) }
        pages.append(TypesetPage(scene: scene, text: lines))
        paths = []
        lines = []
        y = margin
        pageHasContent = false
    }

    // MARK: Drawing

    /// Adds an open polyline (points) to the page.
    private mutating func stroke(_ points: [V2], width: Double, color: RGBA) {
        guard !points.isEmpty else { return }
        let index: Int
        if let found = paths.firstIndex(where: { $0.width == width && $0.color == color }) {
            index = found
        } else {
            paths.append((width, color, Contours()))
            index = paths.count - 1
        }
        paths[index].contours.begin()
        for point in points { paths[index].contours.add(V2(point.x / k, point.y / k)) }
        if points.count == 1 { paths[index].contours.add(V2(points[0].x / k, points[0].y / k)) }
    }

    private mutating func dot(x: Double, y: Double, diameter: Double) {
        stroke([V2(x, y)], width: diameter, color: TypedTextLayout.ink)
    }

    /// A square on the base line; ticked for done, the marker's character inside for other markers.
    private mutating func checkbox(_ marker: TaskMarker, x: Double, baseline: Double, side: Double) {
        let bottom = baseline + 0.05 * side, top = bottom - side, right = x + side
        stroke([V2(x, top), V2(right, top), V2(right, bottom), V2(x, bottom), V2(x, top)], width: 0.09 * side,
               color: TypedTextLayout.ink)
        switch marker {
        case .open:
            break
        case .done:
            stroke([V2(x + 0.2 * side, top + 0.55 * side), V2(x + 0.42 * side, top + 0.8 * side), V2(x + 0.85 * side, top + 0.15 * side)],
                   width: 0.14 * side, color: TypedTextLayout.ink)
        default:
            let size = side * 1.05
            let width = measure(String(marker.character), size: size)
            draw(String(marker.character), x: x + (side - width) / 2, baseline: bottom - 0.2 * side, size: size, weight: 1.3,
                 color: TypedTextLayout.ink)
        }
    }

    /// Draws `text` from `x` on `baseline`; returns its advance in points.
    @discardableResult
    private mutating func draw(_ text: String, x: Double, baseline: Double, size: Double, weight: Double, color: RGBA) -> Double {
        let width = HersheyText.strokeWidth(size: size, weight: weight)
        return HersheyText(font: font).draw(text, x: x, baseline: baseline, size: size) { points, thin in
            stroke(points, width: thin ? width * 0.7 : width, color: color)
        }
    }

    /// The width of `text` in points.
    private func measure(_ text: String, size: Double) -> Double {
        font.width(of: text, size: size)
    }

    // MARK: Wrapping

    /// `content` in lines no wider than `width` points: at spaces where possible, inside a word
    /// only when the word alone is too wide. Prose collapses runs of spaces; code keeps them.
    func wrap(_ content: String, width: Double, size: Double, keepSpaces: Bool) -> [String] {
        let text = content.replacingOccurrences(of: "\t", with: "    ")
        if keepSpaces { return font.breakCharacters(text[...], width: width, size: size).map(String.init) }
        let words = text.split(separator: " ").joined(separator: " ")
        return font.wrap(words[...], width: width, size: size).map(String.init)
    }
}
