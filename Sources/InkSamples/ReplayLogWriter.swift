import Foundation
import InkCore

/// Writes notes as Inkwell replay logs (docs/replay-format.md, version 1): a `header`, a `note`,
/// then per page a `page` line and each stroke as `down`, `move`s and `up` with `t` in seconds
/// since the recording began. Keys equal to the format's defaults are left out.
public enum ReplayLogWriter {
    /// The log of `note`, one JSON object per line, each line ending in `\n`.
    public static func log(for note: SyntheticNote) -> String {
        var lines = [#"{"type":"header","version":1}"#]
        let created = ISO8601DateFormatter().string(from: note.spec.created)
        var noteLine = #"{"type":"note","title":\#(note.spec.title.quotedLiteral)"#
        if !note.spec.notebook.isRoot { noteLine += #","notebook":\#(note.spec.notebook.description.quotedLiteral)"# }
        lines.append(noteLine + #","created":\#(created.quotedLiteral)}"#)
        for synthetic in note.pages {
            lines.append(pageLine(synthetic.page))
            for stroke in synthetic.page.strokes {
                lines += strokeLines(stroke, pageStart: synthetic.startTime)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func pageLine(_ page: Page) -> String {
        var line = #"{"type":"page","width":\#(number(Double(page.size.width), 1)),"height":\#(number(Double(page.size.height), 1))"#
        line += #","template":"\#(page.template.kind)","spacing":\#(number(Double(page.template.spacing), 1))"#
        if page.template.paper != .white { line += #","paper":"\#(page.template.paper)""# }
        return line + "}"
    }

    private static func strokeLines(_ stroke: Stroke, pageStart: Double) -> [String] {
        var pen = ""
        if stroke.tool != .pen { pen += #","tool":"\#(stroke.tool)""# }
        if stroke.color != .black { pen += #","color":"\#(stroke.color)""# }
        if stroke.width != 2 { pen += #","width":\#(number(Double(stroke.width), 2))"# }
        let origin = pageStart + stroke.startTime
        let time = { (point: InkPoint) in number((origin + Double(point.time)) / 1000, 3) }
        var lines: [String] = []
        for (index, point) in stroke.points.enumerated() {
            let type = index == 0 ? "down" : index == stroke.points.count - 1 ? "up" : "move"
            let position = #""x":\#(number(Double(point.x), 1)),"y":\#(number(Double(point.y), 1)),"p":\#(number(Double(point.pressure), 2))"#
            lines.append(#"{"type":"\#(type)","t":\#(time(point)),\#(position)\#(index == 0 ? pen : "")}"#)
        }
        if let only = stroke.points.first, stroke.points.count == 1 {
            lines.append(#"{"type":"up","t":\#(time(only))}"#)
        }
        return lines
    }

    /// `value` rounded to `decimals` places, without trailing zeros: `12.5`, `3`, `-0.25`.
    static func number(_ value: Double, _ decimals: Int) -> String {
        let factor = (0..<decimals).reduce(1) { result, _ in result * 10 }
        let scaled = Int((abs(value) * Double(factor)).rounded())
        var text = (value < 0 && scaled != 0 ? "-" : "") + String(scaled / factor)
        let fraction = scaled % factor
        if fraction != 0 {
            let digits = String(fraction)
            text += "." + String(repeating: "0", count: decimals - digits.count) + digits
            while text.hasSuffix("0") { text.removeLast() }
        }
        return text
    }
}
