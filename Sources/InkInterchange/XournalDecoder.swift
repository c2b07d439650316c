import Foundation
import InkCore

/// Reads Xournal++ `.xopp` and Xournal `.xoj` files — gzip XML, plain XML, or zip-packaged with
/// `content.xml` inside — into a ``Recording`` of one note.
///
/// Page sizes and coordinates are PDF points (1/72 in) and stay as they are: one point is one Inkwell
/// page pixel, so an A4 page is 595×842 (``PageSize/a4Points``). Layers are flattened in order. Per-segment
/// widths (`width="W w1 w2 …"`) become pressure `wᵢ / W`. Text boxes become the note's typed text, in
/// reading order (page by page, top to bottom, then left to right); images and LaTeX are skipped with a warning.
/// Pages on a PDF keep it as their background when the PDF is found (``RecordedNote/background``).
/// The formats hold no time: the pen is timed by ``SyntheticTiming``.
public enum XournalDecoder {
    /// Reads a Xournal file. With `readingBeside`, a PDF background outside the file is looked for where
    /// Xournal++ looks (`file` being the file's path); without, only a PDF attached in a packaged file is used.
    public static func decode(_ data: Data, file: String, readingBeside: Bool = true) throws(ImportError) -> Recording {
        let xml = try unpack(data, file: file)
        let root = try SafeXML.parse(xml, file: file, keep: keptElements, text: ["stroke", "text"])
        guard root.name == "xournal" || root.name == "MrWriter" else {
            throw ImportError(file: file, position: root.position,
                              reason: "not a Xournal file (the root element is <\(root.name)>, not <xournal>)")
        }
        var reader = XournalReader(file: file, packaged: Containers.isZip(data) ? data : nil, readingBeside: readingBeside)
        try reader.read(root)
        var recording = try reader.finish()
        // Xournal++ writes creator="xournalpp 1.1.3"; Xournal 0.4 writes version="0.4.8".
        recording.claimedSource = Recording.cleanClaim(root["creator"] ?? root["version"].map { "Xournal \($0)" } ?? "")
        return recording
    }

    /// The XML inside: gzip inflated, zip's `content.xml` extracted, plain XML as it is.
    static func unpack(_ data: Data, file: String) throws(ImportError) -> Data {
        if Containers.isGzip(data) { return try Containers.gunzip(data, file: file) }
        if Containers.isZip(data) {
            guard let content = try Containers.unzip(data, entry: "content.xml", file: file) else {
                throw ImportError(file: file, reason: "zip-packaged Xournal++ file without content.xml")
            }
            return content
        }
        return data
    }

    /// Xournal++'s dash styles, in points along the stroke (its `StrokeStyle`): `dash` 6 on 3 off,
    /// `dashdot` 6 3 0.5 3, `dot` 0.5 3, `cust: L1 L2 …` its own lengths; nil for anything else.
    static func dashPattern(_ style: String) -> [Float]? {
        let dash: [Float]
        switch style {
        case "dash": dash = [6, 3]
        case "dashdot": dash = [6, 3, 0.5, 3]
        case "dot": dash = [0.5, 3]
        default:
            guard style.hasPrefix("cust:") else { return nil }
            let lengths = style.dropFirst(5).split(separator: " ").map { Float(String($0)) }
            guard !lengths.contains(where: { $0 == nil }) else { return nil }
            dash = lengths.compactMap { $0 }
        }
        return Stroke.isValidDash(dash) ? dash : nil
    }

    /// Xournal++'s medium pen, points: the width of a stroke whose own width is not a positive number.
    static let defaultWidth = 1.41
    static let keptElements: Set<String> = ["xournal", "MrWriter", "page", "background", "layer", "stroke", "text", "image", "teximage"]
}

private struct XournalReader {
    let file: String
    var pages: [ImportedPage] = []
    var totalPoints = 0
    var skipped: [String: Int] = [:]
    /// Text boxes as (page, y, x, text), for the typed text.
    var textBoxes: [(page: Int, y: Double, x: Double, text: String)] = []
    var backgrounds: [String: Int] = [:]
    /// The zip archive of a packaged file (where `attach`ed PDFs are).
    let packaged: Data?
    /// The PDF the pages are drawn on, once found; where it was looked for, when it was not.
    var backgroundPDF: Data?
    var backgroundLookedFor: [String] = []
    var backgroundProblem: String?
    var pagesOnPDF = 0
    var droppedCoordinates = 0
    var pressureMismatch = 0
    var repairedWidths = 0
    var commaDecimals = 0
    /// Strokes mended or left out for a bad value, each alone.
    var recovery = Recovery()
    /// Dash styles Inkwell does not know (drawn solid).
    var unknownDashes = 0
    /// Strokes whose tool is not one Xournal++ writes (pen, highlighter, eraser), drawn as pen strokes, by the tool.
    var unknownTools: [String: Int] = [:]
    /// Text boxes whose colour is not a colour, printed black.
    var textDrawnBlack = 0
    /// Pages with more text lines than a page prints (the rest stay in the typed text).
    var textLinesDropped = 0

    /// Whether files beside this one may be read (a PDF background).
    let readingBeside: Bool

    init(file: String, packaged: Data?, readingBeside: Bool) {
        self.file = file
        self.packaged = packaged
        self.readingBeside = readingBeside
    }

    func fail(_ element: XMLElement, _ reason: String) -> ImportError {
        ImportError(file: file, position: element.position, reason: reason)
    }

    mutating func read(_ root: XMLElement) throws(ImportError) {
        for pageElement in root.all("page") {
            var page = ImportedPage(size: try size(pageElement))
            if let background = pageElement.first("background") { page.template = template(background) }
            // Xournal++ pages are in PDF points.
            page.template.unitsPerInch = 72
            let layers = pageElement.all("layer")
            if layers.count > 1 || layers.contains(where: { $0["name"] != nil }) {
                page.template.layers = layers.prefix(PageLayer.maxPerPage).enumerated().map { index, layer in
                    PageLayer(name: layer["name"] ?? "Layer \(index + 1)")
                }
            }
            for (index, layer) in layers.enumerated() {
                for item in layer.children {
                    switch item.name {
                    case "stroke":
                        if var stroke = try stroke(item) {
                            stroke.pen.layer = UInt16(min(index, PageLayer.maxPerPage - 1))
                            page.strokes.append(stroke)
                        }
                    case "text":
                        let text = item.text.trimmingCharacters(in: .whitespacesAndNewlines)
                        if !text.isEmpty {
                            let y = item["y"].flatMap(NumberScanner.leading) ?? 0, x = item["x"].flatMap(NumberScanner.leading) ?? 0
                            textBoxes.append((pages.count, y.isFinite ? y : 0, x.isFinite ? x : 0, text))
                            page.template.printed += printed(item, x: x, y: y)
                            if let color = item["color"], strokeColor(color, highlighter: false) == nil { textDrawnBlack += 1 }
                        }
                    case "image": skipped["image", default: 0] += 1
                    case "teximage": skipped["LaTeX formula", default: 0] += 1
                    default: break
                    }
                }
            }
            if page.template.printed.count > PrintedLine.maxPerPage {
                page.template.printed.removeLast(page.template.printed.count - PrintedLine.maxPerPage)
                textLinesDropped += 1
            }
            pages.append(page)
        }
    }

    /// A text box's lines printed where Xournal++ draws them: `x`, `y` its top left corner, `size` the
    /// font's em in points (page units); lines spaced 1.17 em, the first baseline 0.93 em below the top
    /// (the ascent of DejaVu Sans, Xournal++'s default face).
    func printed(_ item: XMLElement, x: Double, y: Double, maxLines: Int = 1000) -> [PrintedLine] {
        let size = item["size"].flatMap(NumberScanner.leading) ?? 12
        guard x.isFinite, y.isFinite, abs(x) <= Double(ImportLimits.coordinate), abs(y) <= Double(ImportLimits.coordinate),
              size.isFinite, size > 0, size <= 1000 else { return [] }
        let color = item["color"].flatMap { strokeColor($0, highlighter: false) } ?? .black
        return item.text.split(separator: "\n", omittingEmptySubsequences: false).prefix(maxLines).enumerated().compactMap { index, line in
            let text = line.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { return nil }
            return PrintedLine(text: text, x: Float(x), baseline: Float(y + (0.93 + 1.17 * Double(index)) * size), size: Float(size), color: color)
        }
    }

    func size(_ page: XMLElement) throws(ImportError) -> PageSize {
        guard let width = page["width"].flatMap(NumberScanner.leading), let height = page["height"].flatMap(NumberScanner.leading) else {
            throw fail(page, "a page without width and height")
        }
        guard width.isFinite, height.isFinite, width > 0, height > 0,
              width <= Double(ImportLimits.coordinate), height <= Double(ImportLimits.coordinate) else {
            throw fail(page, "page size \(width)×\(height) is not a positive size up to \(Int(ImportLimits.coordinate))")
        }
        return PageSize(width: Float(width), height: Float(height))
    }

    mutating func template(_ background: XMLElement) -> PageTemplate {
        var template = PageTemplate()
        switch background["type"] ?? "solid" {
        case "pdf":
            // pageno is 1-based; older versions wrote "1ll".
            let number = background["pageno"].flatMap(NumberScanner.leading) ?? 1
            if backgroundPDF == nil, backgroundLookedFor.isEmpty, let name = background["filename"], !name.isEmpty {
                findPDF(domain: background["domain"] ?? "absolute", filename: name)
            }
            if number.isFinite, number >= 1, number <= Double(PageBackground.maxPage) {
                template.background = PageBackground(document: RecordedNote.backgroundDocument, page: Int(number) - 1)
                pagesOnPDF += 1
            } else {
                backgrounds[" PDF background page number that is not a page (\"\(background["pageno"]?.prefix(20) ?? "")\")", default: 0] += 1
            }
        case "pixmap": backgrounds["n image background", default: 0] += 1
        default: break
        }
        if let color = background["color"].flatMap(paperColor) { template.paper = color }
        switch background["style"] ?? "plain" {
        case "lined", "ruled":
            template.kind = .lined
            template.spacing = 24
        case "graph":
            template.kind = .grid
            template.spacing = 14.17
        case "dotted":
            template.kind = .dots
            template.spacing = 14.17
        default: break
        }
        return template
    }

    /// Finds the PDF a `<background type="pdf">` names, as Xournal++ does: `attach`ed to a packaged file
    /// in its zip, `attach`ed to a gzip file beside it as `FILE.NAME`; an `absolute` path as written,
    /// else relative to the file's folder, else its last component in that folder (the file and its PDF
    /// moved together). Only a regular file of at most 512 MiB that starts like a PDF is taken.
    mutating func findPDF(domain: String, filename: String) {
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent()
        var candidates: [URL] = []
        if domain == "attach" {
            if let packaged {
                for entry in [filename, "attachments/" + filename] {
                    backgroundLookedFor.append("\(entry) in the archive")
                    do {
                        if let data = try Containers.unzip(packaged, entry: entry, file: file), PDFFile.looksLikePDF(data) {
                            backgroundPDF = data
                            return
                        }
                    } catch {
                        backgroundProblem = error.reason
                    }
                }
                return
            }
            guard readingBeside else { return }
            candidates = [URL(fileURLWithPath: file + "." + filename)]
        } else {
            guard readingBeside else { return }
            candidates = [filename.hasPrefix("/") ? URL(fileURLWithPath: filename) : folder.appendingPathComponent(filename),
                          folder.appendingPathComponent((filename as NSString).lastPathComponent)]
        }
        for candidate in candidates where !backgroundLookedFor.contains(candidate.path) {
            backgroundLookedFor.append(candidate.path)
            if let data = PDFFile.read(candidate) {
                backgroundPDF = data
                return
            }
        }
    }

    mutating func stroke(_ element: XMLElement) throws(ImportError) -> ImportedStroke? {
        var pen = RecordedPen()
        switch element["tool"] {
        case "highlighter"?: pen.tool = .highlighter
        case "eraser"?: pen.tool = .eraser
        case "pen"?, nil: pen.tool = .pen
        case let tool?:
            pen.tool = .pen
            unknownTools[String(tool.prefix(40)), default: 0] += 1
        }
        if let text = element["color"] {
            if let color = strokeColor(text, highlighter: pen.tool == .highlighter) {
                pen.color = color
            } else {
                recovery.note("stroke drawn black", "strokes drawn black", fail(element, "stroke colour \"\(text.prefix(40))\" is not a colour"))
            }
        }
        // fill="A": the shape filled in the stroke's colour at opacity A/255 (-1: none).
        if let fill = element["fill"].flatMap(NumberScanner.leading), fill.isFinite, fill >= 1 { pen.fill = UInt8(min(255, fill)) }
        if let style = element["style"], style != "plain", !style.isEmpty {
            if let dash = XournalDecoder.dashPattern(style) { pen.dash = dash } else { unknownDashes += 1 }
        }
        var (coordinates, bad) = NumberScanner.list(element.text, limit: 2 * ImportLimits.pointsPerStroke + 1)
        if let offset = bad, element.text.utf8.contains(UInt8(ascii: ",")) {
            // Xournal++ 1.0 wrote decimal commas under some locales.
            (coordinates, bad) = NumberScanner.list(element.text, comma: true, limit: 2 * ImportLimits.pointsPerStroke + 1)
            if bad == nil { commaDecimals += 1 } else { bad = offset }
        }
        if let offset = bad {
            if coordinates.count > 2 * ImportLimits.pointsPerStroke {
                throw fail(element, "a stroke has more than \(ImportLimits.pointsPerStroke) points")
            }
            recovery.note("stroke skipped", "strokes skipped", fail(element, "stroke coordinates are not numbers (at character \(offset + 1) of the stroke)"))
            return nil
        }
        if coordinates.count % 2 == 1 {
            coordinates.removeLast()
            droppedCoordinates += 1
        }
        let count = coordinates.count / 2
        guard count > 0 else { return nil }
        guard count <= ImportLimits.pointsPerStroke else {
            throw fail(element, "a stroke has more than \(ImportLimits.pointsPerStroke) points")
        }
        totalPoints += count
        guard totalPoints <= ImportLimits.pointsPerFile else {
            throw fail(element, "the file has more than \(ImportLimits.pointsPerFile) points")
        }
        let widthText = element["width"] ?? "1"
        // Each value on its own: one that is not a number (NaN, garbage) is mended below, not the whole list lost.
        var widths = widthText.split(whereSeparator: \.isWhitespace).prefix(count + 2).map {
            Double($0.replacingOccurrences(of: ",", with: ".")) ?? .nan
        }
        if widths.isEmpty || !(widths[0].isFinite && widths[0] > 0) {
            recovery.note("stroke width mended", "stroke widths mended",
                          fail(element, "stroke width \"\(widthText.prefix(40))\" is not a positive number; drawn \(XournalDecoder.defaultWidth) pt wide (Xournal++'s medium pen)"))
            if widths.isEmpty { widths = [XournalDecoder.defaultWidth] } else { widths[0] = XournalDecoder.defaultWidth }
        }
        let nominal = widths[0]
        var pressures: [Float]?
        let extra = widths.dropFirst()
        if !extra.isEmpty {
            if extra.count == count - 1 || extra.count == count {
                // Older Xournal++ versions wrote the odd negative width; Xournal++ opens such files,
                // so a width that is negative or not finite takes the one before it (the stroke's
                // first takes the nominal width) and the import says how many were mended.
                var previous = nominal
                let mended = extra.map { width -> Double in
                    guard width.isFinite, width >= 0 else {
                        repairedWidths += 1
                        return previous
                    }
                    previous = width
                    return width
                }
                let top = max(nominal, mended.max() ?? nominal)
                pen.width = Float(top)
                var list = mended.map { Float($0 / top) }
                if list.count < count, let last = list.last { list.append(last) }
                pressures = list
            } else {
                pressureMismatch += 1
            }
        }
        if pressures == nil { pen.width = Float(nominal) }
        if pen.width > ImportLimits.maxWidth {
            recovery.note("stroke width capped", "stroke widths capped", fail(element, "stroke width \(pen.width) is over \(Int(ImportLimits.maxWidth)); drawn \(Int(ImportLimits.maxWidth)) wide"))
            pen.width = ImportLimits.maxWidth
        }
        var points: [RecordedPoint] = []
        points.reserveCapacity(count)
        for i in 0..<count {
            let x = coordinates[2 * i], y = coordinates[2 * i + 1]
            guard x.isFinite, y.isFinite, abs(x) <= Double(ImportLimits.coordinate), abs(y) <= Double(ImportLimits.coordinate) else {
                recovery.note("stroke skipped", "strokes skipped", ImportError(file: file, position: "\(element.position), point \(i + 1)",
                                                                               reason: "coordinate (\(x), \(y)) is beyond ±\(Int(ImportLimits.coordinate))"))
                totalPoints -= count
                return nil
            }
            points.append(RecordedPoint(x: Float(x), y: Float(y), pressure: pressures?[i] ?? 0.5))
        }
        return ImportedStroke(pen: pen, points: points, times: nil)
    }

    /// `#RRGGBBAA`, `#RRGGBB`, or one of Xournal's colour names. Xournal draws highlighters at half alpha.
    func strokeColor(_ text: String, highlighter: Bool) -> RGBA? {
        let names: [String: UInt32] = [
            "black": 0x000000, "blue": 0x3333CC, "red": 0xFF0000, "green": 0x008000, "gray": 0x808080,
            "lightblue": 0x00C0FF, "lightgreen": 0x00FF00, "magenta": 0xFF00FF, "orange": 0xFF8000,
            "yellow": 0xFFFF00, "white": 0xFFFFFF,
        ]
        if let rgb = names[text.lowercased()] {
            return RGBA(red: UInt8(rgb >> 16), green: UInt8(rgb >> 8 & 0xFF), blue: UInt8(rgb & 0xFF), alpha: highlighter ? 0x7F : 0xFF)
        }
        guard text.hasPrefix("#") else { return nil }
        return RGBA(hex: text)
    }

    func paperColor(_ text: String) -> RGBA? {
        let names: [String: UInt32] = [
            "white": 0xFFFFFF, "yellow": 0xFFFF80, "pink": 0xFFC0D4, "orange": 0xFFC080, "blue": 0xA0E8FF, "green": 0x80FFC0,
        ]
        if let rgb = names[text.lowercased()] { return RGBA(red: UInt8(rgb >> 16), green: UInt8(rgb >> 8 & 0xFF), blue: UInt8(rgb & 0xFF)) }
        return text.hasPrefix("#") ? RGBA(hex: text) : nil
    }

    mutating func finish() throws(ImportError) -> Recording {
        guard !pages.isEmpty else { throw ImportError(file: file, reason: "the Xournal file has no pages") }
        if backgroundPDF == nil, pagesOnPDF > 0 {
            for index in pages.indices { pages[index].template.background = nil }
            let looked = backgroundLookedFor.isEmpty ? "the file names none" : "looked for " + backgroundLookedFor.joined(separator: ", ")
            let why = backgroundProblem.map { "; \($0)" } ?? ""
            backgrounds[" PDF background whose PDF was not found (\(looked)\(why))", default: 0] += pagesOnPDF
        }
        if let problem = recovery.firstProblem, pages.allSatisfy({ $0.strokes.isEmpty }), textBoxes.isEmpty {
            throw problem // nothing could be kept
        }
        let reading = textBoxes.sorted { ($0.page, $0.y, $0.x) < ($1.page, $1.y, $1.x) }
        var recording = Recording(notes: [RecordedNote(events: ImportedPage.events(pages),
                                                       typedText: reading.map(\.text).joined(separator: "\n\n"),
                                                       background: backgroundPDF)],
                                  format: "xopp")
        for (kind, count) in skipped.sorted(by: { $0.key < $1.key }) {
            let plural = kind == "text box" ? "text boxes" : kind + "s"
            recording.warnings.append("\(file): \(count) \(count == 1 ? kind : plural) skipped (Inkwell keeps pen strokes only)")
        }
        for (kind, count) in backgrounds.sorted(by: { $0.key < $1.key }) {
            recording.warnings.append("\(file): \(count) page\(count == 1 ? "" : "s") with a\(kind): imported on blank paper")
        }
        if droppedCoordinates > 0 {
            recording.warnings.append("\(file): \(droppedCoordinates) stroke\(droppedCoordinates == 1 ? "" : "s") with an odd number of coordinates: the last one dropped")
        }
        if repairedWidths > 0 {
            recording.warnings.append("\(file): \(repairedWidths) per-point width\(repairedWidths == 1 ? " was" : "s were") negative or not a number: each took the width before it")
        }
        recording.warnings += recovery.warnings
        if textLinesDropped > 0 {
            recording.warnings.append("\(file): \(textLinesDropped) page\(textLinesDropped == 1 ? "" : "s") with more than \(PrintedLine.maxPerPage) lines of text: the first \(PrintedLine.maxPerPage) printed, all in the typed text")
        }
        for (tool, count) in unknownTools.sorted(by: { $0.key < $1.key }) {
            recording.warnings.append("\(file): \(count) stroke\(count == 1 ? "" : "s") of tool \"\(tool)\", which is not Xournal++'s, drawn with the pen")
        }
        if textDrawnBlack > 0 {
            recording.warnings.append("\(file): \(textDrawnBlack) text box\(textDrawnBlack == 1 ? "" : "es") in a colour that is not a colour printed black")
        }
        if unknownDashes > 0 {
            recording.warnings.append("\(file): \(unknownDashes) stroke\(unknownDashes == 1 ? "" : "s") with a dash style that is not Xournal++'s (dash, dashdot, dot, cust: LENGTHS) drawn solid")
        }
        if pressureMismatch > 0 {
            recording.warnings.append("\(file): \(pressureMismatch) stroke\(pressureMismatch == 1 ? "" : "s") whose widths do not match the points: pressure ignored")
        }
        return recording
    }
}
