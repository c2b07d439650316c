import CZlib
import Foundation
import InkCore
import InkGeometry

/// A document's metadata (the PDF Info dictionary).
struct PDFInfo: Sendable {
    var title: String?
    var author: String?
    var keywords: [String] = []
    var created: Date?

    /// `D:20261121093000Z`, as PDF writes dates.
    static func pdfDate(_ date: Date) -> String {
        "D:" + utc("yyyyMMddHHmmss", date) + "Z"
    }

    /// `2026-11-21T09:30:00Z`, as Cairo takes them.
    static func isoDate(_ date: Date) -> String {
        utc("yyyy-MM-dd'T'HH:mm:ss", date) + "Z"
    }

    private static func utc(_ format: String, _ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = format
        return formatter.string(from: date)
    }
}

/// A small PDF 1.4 writer for scenes: vector paths only, content streams deflated, coordinates as
/// integers on a grid of half the vector tolerance (one `cm` maps them to points), so a page of
/// dense handwriting is a few hundred kilobytes and is written in milliseconds. Pages are added one
/// at a time; nothing is kept but the bytes.
struct PDFWriter {
    private(set) var bytes: [UInt8] = []
    private var offsets: [Int] = [0, 0, 0, 0]  // by object number; 1 catalog, 2 page tree, 3 info
    private var pages: [Int] = []

    init(info: PDFInfo) {
        bytes.reserveCapacity(1 << 20)
        append("%PDF-1.4\n%\u{E2}\u{E3}\u{CF}\u{D3}\n")
        offsets[1] = bytes.count
        append("1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n")
        offsets[3] = bytes.count
        append("3 0 obj\n<< /Producer (Inkwell)")
        if let title = info.title { append(" /Title "); append(PDFWriter.textString(title)) }
        if let author = info.author { append(" /Author "); append(PDFWriter.textString(author)) }
        if !info.keywords.isEmpty { append(" /Keywords "); append(PDFWriter.textString(info.keywords.joined(separator: ", "))) }
        if let created = info.created { append(" /CreationDate "); append(PDFWriter.textString(PDFInfo.pdfDate(created))) }
        append(" >>\nendobj\n")
    }

    private mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

    private mutating func beginObject() -> Int {
        offsets.append(bytes.count)
        let number = offsets.count - 1
        append("\(number) 0 obj\n")
        return number
    }

    /// A page's content, compressed, ready to be added: made on any thread, added in order.
    struct Page: Sendable {
        var content: [UInt8]
        var resources: String
        var width: Double
        var height: Double
    }

    /// The page for `scene`: paper, invisible text (render mode 3, when given), template, ink.
    /// Coordinates are integers on a grid of `tolerance` page units (so they stray by at most half
    /// of it).
    static func page(_ scene: Scene, pointsPerUnit k: Double, tolerance: Double, text: [TextLine], level: Int32 = 6) throws(RenderError) -> Page {
        let widthPt = scene.width * k, heightPt = scene.height * k
        let q = max(1e-6, tolerance)
        var content = ContentStream(grid: q)
        var states: [String] = []
        /// The name of a graphics state setting opacity and blend mode (all of them, so one resets).
        func state(alpha: Double, blend: BlendMode) -> String {
            let a = ContentStream.decimal(min(1, max(0, alpha)), places: 3)
            let mode = switch blend {
            case .normal: "/Normal"
            case .multiply: "/Multiply"
            case .darken: "/Darken"
            }
            let entry = "<< /ca \(a) /CA \(a) /BM \(mode) >>"
            if let i = states.firstIndex(of: entry) { return "/G\(i)" }
            states.append(entry)
            return "/G\(states.count - 1)"
        }
        var currentState: String?
        func use(alpha: Double, blend: BlendMode, in content: inout ContentStream) {
            let plain = alpha >= 1 && blend == .normal
            if plain && currentState == nil { return }
            let name = state(alpha: alpha, blend: blend)
            if name != currentState {
                content.raw("\(name) gs\n")
                currentState = name
            }
        }

        // Page units, y down → points, y up; coordinates are multiples of q.
        content.raw("\(ContentStream.decimal(q * k, places: 6)) 0 0 \(ContentStream.decimal(-q * k, places: 6)) 0 \(ContentStream.decimal(heightPt, places: 3)) cm\n")

        // Paper.
        if scene.paper.alpha > 0 {
            use(alpha: Double(scene.paper.alpha) / 255, blend: .normal, in: &content)
            content.color(scene.paper, stroke: false)
            content.raw("0 0 ")
            content.number(scene.width)
            content.number(scene.height)
            content.raw("re f\n")
            use(alpha: 1, blend: .normal, in: &content)
        }

        // Invisible text: one string per line, stretched to the line's box.
        let hasText = text.contains { !$0.text.isEmpty && !$0.bounds.isNull && $0.bounds.height > 0 }
        if hasText {
            content.raw("BT 3 Tr\n")
            for line in text where !line.text.isEmpty && !line.bounds.isNull && line.bounds.height > 0 {
                let size = line.bounds.height * 0.8 / q
                let encoded = PDFWriter.winAnsi(line.text)
                let natural = Double(encoded.count) * 0.5 * size  // Helvetica averages about half an em
                let stretch = natural > 0 ? 100 * (line.bounds.width / q) / natural : 100
                content.raw("/F0 \(ContentStream.decimal(size, places: 2)) Tf \(ContentStream.decimal(stretch, places: 1)) Tz ")
                // Text space is y up; the page matrix is y down: flip back for the glyphs.
                content.raw("1 0 0 -1 ")
                content.number(line.bounds.minX)
                content.number(line.bounds.maxY - 0.2 * line.bounds.height)
                content.raw("Tm ")
                content.string(encoded)
                content.raw(" Tj\n")
            }
            content.raw("ET\n")
        }

        // Template.
        let layout = scene.template
        for weight in [TemplateLayout.Weight.rule, .structure] {
            let lines = layout.lines.filter { $0.weight == weight }
            guard !lines.isEmpty else { continue }
            content.raw("0 J ")
            content.number(layout.ruleWidth * (weight == .structure ? 2 : 1))
            content.raw("w ")
            content.color(weight == .structure ? layout.structureColor : layout.ruleColor, stroke: true)
            for line in lines {
                content.point(V2(line.from), "m")
                content.point(V2(line.to), "l")
            }
            content.raw("S\n")
        }
        if !layout.dots.isEmpty {
            content.raw("1 J ")
            content.number(2 * layout.dotRadius)
            content.raw("w ")
            content.color(layout.structureColor, stroke: true)
            for dot in layout.dots {
                content.point(V2(dot), "m")
                content.point(V2(dot), "l")
            }
            content.raw("S\n")
        }

        // Ink.
        content.raw("1 J 1 j\n")
        for item in scene.items {
            switch item {
            case let .fill(contours, color, alpha, blend):
                use(alpha: alpha, blend: blend, in: &content)
                content.color(color, stroke: false)
                content.path(contours, close: true)
                content.raw("f\n")
            case let .stroke(contours, width, color):
                use(alpha: 1, blend: .normal, in: &content)
                content.number(width)
                content.raw("w ")
                content.color(color, stroke: true)
                content.path(contours, close: false)
                content.raw("S\n")
            }
        }

        var resources = ""
        if !states.isEmpty {
            resources += " /ExtGState <<"
            for (i, entry) in states.enumerated() { resources += " /G\(i) \(entry)" }
            resources += " >>"
        }
        if hasText { resources += " /Font << /F0 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >> >>" }
        return Page(content: try deflate(content.bytes, level: level), resources: resources, width: widthPt, height: heightPt)
    }

    /// Appends a page made by ``page(_:pointsPerUnit:tolerance:text:level:)``.
    mutating func add(_ page: Page) {
        let contentsObject = beginObject()
        append("<< /Length \(page.content.count) /Filter /FlateDecode >>\nstream\n")
        bytes.append(contentsOf: page.content)
        append("\nendstream\nendobj\n")
        let pageObject = beginObject()
        append("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 \(ContentStream.decimal(page.width, places: 3)) \(ContentStream.decimal(page.height, places: 3))]")
        append(" /Contents \(contentsObject) 0 R /Resources <<\(page.resources) >> >>\nendobj\n")
        pages.append(pageObject)
    }

    /// Writes the page tree, the cross-reference table and the trailer.
    mutating func finish() -> [UInt8] {
        offsets[2] = bytes.count
        append("2 0 obj\n<< /Type /Pages /Count \(pages.count) /Kids [")
        append(pages.map { "\($0) 0 R" }.joined(separator: " "))
        append("] >>\nendobj\n")
        let xref = bytes.count
        append("xref\n0 \(offsets.count)\n0000000000 65535 f \n")
        for offset in offsets.dropFirst() {
            let digits = String(offset)
            append(String(repeating: "0", count: max(0, 10 - digits.count)) + digits + " 00000 n \n")
        }
        append("trailer\n<< /Size \(offsets.count) /Root 1 0 R /Info 3 0 R >>\nstartxref\n\(xref)\n%%EOF\n")
        return bytes
    }

    static func deflate(_ input: [UInt8], level: Int32) throws(RenderError) -> [UInt8] {
        var length = compressBound(uLong(input.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let status = output.withUnsafeMutableBufferPointer { out in
            input.withUnsafeBufferPointer { source in
                compress2(out.baseAddress, &length, source.baseAddress, uLong(source.count), level)
            }
        }
        guard status == Z_OK else { throw RenderError.cairo("zlib failed (\(status)) compressing a page") }
        output.removeSubrange(Int(length)...)
        return output
    }

    /// A PDF text string: ASCII as a literal, anything else as UTF-16 with a byte-order mark.
    static func textString(_ text: String) -> String {
        if text.allSatisfy({ $0.isASCII && !$0.isNewline }) {
            return "(" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "(", with: "\\(")
                .replacingOccurrences(of: ")", with: "\\)") + ")"
        }
        return "<FEFF" + text.utf16.map { String(format: "%04X", $0) }.joined() + ">"
    }

    /// `text` in WinAnsiEncoding (Latin-1 for the letters that matter); other characters become `?`.
    static func winAnsi(_ text: String) -> [UInt8] {
        text.unicodeScalars.map { scalar in
            let v = scalar.value
            if (0x20...0x7E).contains(v) || (0xA0...0xFF).contains(v) { return UInt8(v) }
            switch v {
            case 0x2019: return 0x92
            case 0x2018: return 0x91
            case 0x201C: return 0x93
            case 0x201D: return 0x94
            case 0x2013: return 0x96
            case 0x2014: return 0x97
            case 0x20AC: return 0x80
            case 0x2026: return 0x85
            case 0x2022: return 0x95
            default: return UInt8(ascii: "?")
            }
        }
    }
}

/// The operators of one page, written straight into bytes.
struct ContentStream {
    var bytes: [UInt8] = []
    let inverseGrid: Double

    init(grid: Double) {
        inverseGrid = 1 / grid
        bytes.reserveCapacity(1 << 18)
    }

    mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    /// A length or coordinate in page units, as an integer number of grid steps, then a space.
    mutating func number(_ value: Double) {
        integer(Int((value * inverseGrid).rounded()))
        bytes.append(0x20)
    }

    @inline(__always)
    mutating func integer(_ value: Int) {
        var v = value
        if v < 0 {
            bytes.append(UInt8(ascii: "-"))
            v = -v
        }
        if v < 10 {
            bytes.append(UInt8(48 + v))
            return
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            while v > 0 {
                buffer[count] = UInt8(48 + v % 10)
                v /= 10
                count += 1
            }
            for i in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[i]) }
        }
    }

    @inline(__always)
    mutating func point(_ p: V2, _ op: String) {
        integer(Int((p.x * inverseGrid).rounded()))
        bytes.append(0x20)
        integer(Int((p.y * inverseGrid).rounded()))
        bytes.append(0x20)
        bytes.append(contentsOf: op.utf8)
        bytes.append(0x20)
    }

    /// Subpaths; consecutive points that land on the same grid position are written once.
    mutating func path(_ contours: Contours, close: Bool) {
        contours.points.withUnsafeBufferPointer { points in
            for c in 0..<contours.count {
                let range = contours.range(c)
                guard let first = range.first else { continue }
                var lastX = Int((points[first].x * inverseGrid).rounded())
                var lastY = Int((points[first].y * inverseGrid).rounded())
                integer(lastX)
                bytes.append(0x20)
                integer(lastY)
                bytes.append(contentsOf: " m ".utf8)
                var wrote = false
                for i in range.dropFirst() {
                    let x = Int((points[i].x * inverseGrid).rounded()), y = Int((points[i].y * inverseGrid).rounded())
                    if x == lastX && y == lastY && (wrote || close) { continue }
                    integer(x)
                    bytes.append(0x20)
                    integer(y)
                    bytes.append(contentsOf: " l ".utf8)
                    lastX = x
                    lastY = y
                    wrote = true
                }
                if close { bytes.append(contentsOf: "h ".utf8) }
                bytes.append(0x0A)
            }
        }
    }

    mutating func color(_ color: RGBA, stroke: Bool) {
        if color.red == color.green && color.green == color.blue {
            raw("\(ContentStream.decimal(Double(color.red) / 255, places: 3)) \(stroke ? "G" : "g") ")
        } else {
            raw("\(ContentStream.decimal(Double(color.red) / 255, places: 3)) \(ContentStream.decimal(Double(color.green) / 255, places: 3)) \(ContentStream.decimal(Double(color.blue) / 255, places: 3)) \(stroke ? "RG" : "rg") ")
        }
    }

    /// A PDF string literal of bytes, escaped.
    mutating func string(_ encoded: [UInt8]) {
        bytes.append(UInt8(ascii: "("))
        for b in encoded {
            if b == UInt8(ascii: "(") || b == UInt8(ascii: ")") || b == UInt8(ascii: "\\") { bytes.append(UInt8(ascii: "\\")) }
            bytes.append(b)
        }
        bytes.append(UInt8(ascii: ")"))
    }

    /// `value` with at most `places` decimals, trailing zeros dropped.
    static func decimal(_ value: Double, places: Int) -> String {
        var text = String(format: "%.\(places)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }
}
