import Foundation
import InkCore

/// Writes pages as W3C InkML that any InkML reader understands and ``InkMLDecoder`` reads back to the
/// same points: channels X and Y (page pixels, declared as 1/226 in), F (pressure, 0…1024) and T
/// (milliseconds since the note began). Each page is a `<traceGroup>` with an `inkwell:page` annotation
/// giving its size; each distinct pen is a `<brush>` (width in mm, colour, transparency; highlighters as
/// `rasterOp="maskPen"`; the Inkwell tool as an `inkwell:tool` property, a fill as `inkwell:fill`, a dash pattern as `inkwell:dash`,
/// a layer other than the first as `inkwell:layer`).
///
/// What else the note holds goes in annotations, so that a note exported and imported again is the note:
/// its title (`type="title"`), its tags (`inkwell:tags`, names separated by spaces), its typed text
/// (`inkwell:text`, the Markdown as it is) and each page's template (`inkwell:template` in the page's
/// trace group: ``PageTemplate`` as JSON — kind, spacing, paper, printed text, layers, resolution). A PDF under a page
/// is not in the file (InkML has no background): the exporter reports it as not kept.
///
/// Quantisation: coordinates to 0.01 px, pressure to 1/1024, times to 1 ms, widths to 0.0001 mm.
public enum InkMLWriter {
    public static func write(_ pages: [Page], title: String? = nil, created: Date? = nil, tags: [String] = [], typedText: String = "") -> Data {
        var brushes: [BrushKey: Int] = [:]
        var brushOrder: [BrushKey] = []
        for page in pages {
            for stroke in page.strokes {
                let key = BrushKey(stroke)
                if brushes[key] == nil {
                    brushes[key] = brushOrder.count
                    brushOrder.append(key)
                }
            }
        }
        let templateEncoder = JSONEncoder()
        templateEncoder.outputFormatting = [.sortedKeys]
        var out = ""
        out.reserveCapacity(64 + pages.reduce(0) { $0 + $1.pointCount * 24 })
        out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<ink xmlns=\"http://www.w3.org/2003/InkML\">\n"
        if let title { out += "  <annotation type=\"title\">\(escape(title))</annotation>\n" }
        if !tags.isEmpty { out += "  <annotation type=\"inkwell:tags\">\(escape(tags.joined(separator: " ")))</annotation>\n" }
        if !typedText.isEmpty { out += "  <annotation type=\"inkwell:text\">\(escape(typedText))</annotation>\n" }
        out += "  <definitions>\n"
        out += "    <context xml:id=\"ctx0\">\n"
        out += "      <inkSource xml:id=\"inkwell\">\n"
        out += "        <traceFormat>\n"
        out += "          <channel name=\"X\" type=\"decimal\" units=\"in\"/>\n"
        out += "          <channel name=\"Y\" type=\"decimal\" units=\"in\"/>\n"
        out += "          <channel name=\"F\" type=\"integer\" min=\"0\" max=\"1024\" units=\"dev\"/>\n"
        out += "          <channel name=\"T\" type=\"integer\" units=\"ms\"/>\n"
        out += "        </traceFormat>\n"
        out += "        <channelProperties>\n"
        out += "          <channelProperty channel=\"X\" name=\"resolution\" value=\"226\" units=\"1/in\"/>\n"
        out += "          <channelProperty channel=\"Y\" name=\"resolution\" value=\"226\" units=\"1/in\"/>\n"
        out += "        </channelProperties>\n"
        out += "      </inkSource>\n"
        if let created {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            out += "      <timestamp xml:id=\"ts0\" timeString=\"\(formatter.string(from: created))\"/>\n"
        }
        out += "    </context>\n"
        for (index, key) in brushOrder.enumerated() {
            out += "    <brush xml:id=\"br\(index)\">\n"
            let millimetres = Double(key.width) * 25.4 / InkMLDecoder.pixelsPerInch
            out += "      <brushProperty name=\"width\" value=\"\(decimal(millimetres, places: 4))\" units=\"mm\"/>\n"
            out += "      <brushProperty name=\"height\" value=\"\(decimal(millimetres, places: 4))\" units=\"mm\"/>\n"
            let hex = key.color.description // #rrggbbaa
            out += "      <brushProperty name=\"color\" value=\"\(hex.prefix(7).uppercased())\"/>\n"
            if key.color.alpha < 255 {
                out += "      <brushProperty name=\"transparency\" value=\"\(255 - Int(key.color.alpha))\"/>\n"
            }
            if key.tool == .highlighter { out += "      <brushProperty name=\"rasterOp\" value=\"maskPen\"/>\n" }
            out += "      <brushProperty name=\"inkwell:tool\" value=\"\(key.tool)\"/>\n"
            if let fill = key.fill { out += "      <brushProperty name=\"inkwell:fill\" value=\"\(fill)\"/>\n" }
            if let dash = key.dash {
                out += "      <brushProperty name=\"inkwell:dash\" value=\"\(dash.map { "\($0)" }.joined(separator: " "))\"/>\n"
            }
            if key.layer != 0 { out += "      <brushProperty name=\"inkwell:layer\" value=\"\(key.layer)\"/>\n" }
            out += "    </brush>\n"
        }
        out += "  </definitions>\n"
        var pageStart = 0.0
        for page in pages {
            out += "  <traceGroup contextRef=\"#ctx0\">\n"
            out += "    <annotation type=\"inkwell:page\">\(decimal(Double(page.size.width), places: 2)) \(decimal(Double(page.size.height), places: 2))</annotation>\n"
            var template = page.template
            template.background = nil
            // Every page's, a plain one's too: it states the page's resolution as Inkwell knows it (none: inferred
            // from its size), which a reader would otherwise take from the channels (226 an inch).
            if let json = try? templateEncoder.encode(template) {
                out += "    <annotation type=\"inkwell:template\">\(escape(String(decoding: json, as: UTF8.self)))</annotation>\n"
            }
            var pageEnd = pageStart
            for stroke in page.strokes where !stroke.points.isEmpty {
                let brush = brushes[BrushKey(stroke)] ?? 0
                out += "    <trace brushRef=\"#br\(brush)\">"
                var previousTime = -1
                for (index, point) in stroke.points.enumerated() {
                    if index > 0 { out += ", " }
                    let pressure = Int((min(max(point.pressure.isFinite ? point.pressure : 0.5, 0), 1) * 1024).rounded())
                    let milliseconds = pageStart + stroke.startTime + Double(point.time)
                    var time = milliseconds.isFinite ? Int(min(max(milliseconds, 0), 1e15).rounded()) : 0
                    time = max(time, previousTime)
                    previousTime = time
                    out += decimal(Double(point.x), places: 2)
                    out += " "
                    out += decimal(Double(point.y), places: 2)
                    out += " \(pressure) \(time)"
                }
                pageEnd = max(pageEnd, Double(max(previousTime, 0)))
                out += "</trace>\n"
            }
            out += "  </traceGroup>\n"
            pageStart = pageEnd + 1000
        }
        out += "</ink>\n"
        return Data(out.utf8)
    }

    private struct BrushKey: Hashable {
        var tool: Tool
        var color: RGBA
        var width: Float
        var fill: UInt8?
        var dash: [Float]?
        var layer: UInt16

        init(_ stroke: Stroke) {
            tool = stroke.tool
            color = stroke.color
            width = stroke.width
            fill = stroke.fill
            dash = stroke.dash
            layer = stroke.layer
        }
    }

    /// `value` with at most `places` decimals, trailing zeros dropped (no exponent, locale-free).
    static func decimal(_ value: Double, places: Int) -> String {
        guard value.isFinite else { return "0" }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9e15 else { return String(value) } // beyond any page: exponent form, still InkML
        let units = Int64(scaled)
        let divisor = Int64(scale)
        let whole = units / divisor
        var fraction = units % divisor
        var text = (value < 0 && units != 0 ? "-" : "") + String(whole)
        guard fraction != 0 else { return text }
        var digits = places
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        let fractionText = String(fraction)
        text += "." + String(repeating: "0", count: digits - fractionText.count) + fractionText
        return text
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default:
                // Control characters are not allowed in XML 1.0.
                if scalar.value < 0x20 && scalar != "\n" && scalar != "\t" { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
