import Foundation
import InkCore

/// Reads Rnote documents (`.rnote`: gzip-compressed JSON, `{"version": …, "data": …}`) into a
/// ``Recording`` of one note.
///
/// Rnote has one canvas, endless in the "infinite" layout; the note gets one page covering it: at
/// least the document's page format (A4 at 96 dpi by default), grown to hold all the ink, with
/// Rnote's origin where the ink puts it (ink above or left of the origin moves the page's corner
/// there). Brush strokes keep their pen paths and pressure; Bézier segments are flattened. Shapes
/// (lines, arrows, rectangles, ellipses, Bézier curves, polylines, polygons) become pen strokes along
/// their outlines. Text strokes become the note's typed text, in reading order, and are printed on the
/// page where Rnote draws them. Images are skipped with
/// a warning; a stroke with a bad value is left out alone, with a warning. Files from Rnote 0.5 to 0.15 are read: they store paths in three ways (see
/// docs/import-formats.md). Rnote stores no time: the pen is timed by ``SyntheticTiming``.
public enum RnoteDecoder {
    public static func decode(_ data: Data, file: String) throws(ImportError) -> Recording {
        let json = Containers.isGzip(data) ? try Containers.gunzip(data, file: file) : data
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: json)
        } catch {
            throw ImportError(file: file, reason: "not an Rnote file: the JSON inside does not parse")
        }
        guard let top = object as? [String: Any], let payload = top["data"] as? [String: Any] else {
            throw ImportError(file: file, reason: "not an Rnote file (no \"data\")")
        }
        let snapshot = (payload["engine_snapshot"] ?? payload["store_snapshot"]) as? [String: Any] ?? [:]
        guard let components = snapshot["stroke_components"] as? [Any] else {
            throw ImportError(file: file, reason: "an Rnote file without strokes (no \"stroke_components\")")
        }
        let document = (snapshot["document"] ?? payload["document"]) as? [String: Any] ?? [:]
        var reader = RnoteReader(file: file)
        for (index, component) in components.enumerated() {
            guard let value = (component as? [String: Any])?["value"] as? [String: Any], let (kind, body) = value.first else { continue }
            do {
                try reader.read(kind: kind, body as? [String: Any] ?? [:], position: "stroke \(index + 1)")
            } catch {
                // A bad value costs its stroke only; a file over the size limits is still refused.
                if error.exceedsLimits { throw error }
                reader.recovery.note("stroke skipped", "strokes skipped", error)
            }
        }
        var recording = try reader.finish(format: RnoteReader.format(of: document), template: RnoteReader.template(of: document))
        recording.claimedSource = (top["version"] as? String).map { Recording.cleanClaim("Rnote \($0)") } ?? nil
        return recording
    }
}

/// The strokes and text of one Rnote document as they are read.
struct RnoteReader {
    let file: String
    var strokes: [ImportedStroke] = []
    var texts: [(y: Double, x: Double, text: String)] = []
    /// The text strokes as printed on the page.
    var printed: [PrintedLine] = []
    var skipped: [String: Int] = [:]
    /// Strokes drawn in another style than Rnote's, by the style.
    var restyled: [String: Int] = [:]
    var points = 0
    /// Strokes left out for a bad value, each alone.
    var recovery = Recovery()

    init(file: String) { self.file = file }

    func fail(_ position: String, _ reason: String) -> ImportError {
        ImportError(file: file, position: position, reason: reason)
    }

    mutating func read(kind: String, _ body: [String: Any], position: String) throws(ImportError) {
        switch kind {
        case "brushstroke":
            try add([try self.path(body["path"], position: position)], pen: try pen(body["style"], position: position), position: position)
            countStyle(body["style"])
        case "shapestroke":
            let pen = try pen(body["style"], position: position)
            let outline = try shape(body["shape"], width: Double(pen.width), position: position)
            // A fill in its own colour: a hairline stroke of that colour filling the area, under the outline.
            if let style = (body["style"] as? [String: Any])?.first?.value as? [String: Any],
               let fill = (style["fill_color"] as? [String: Any]).map(RnoteReader.rgba), fill.alpha > 0 {
                let area = RecordedPen(tool: .pen, color: fill, width: RnoteReader.fillLineWidth, fill: fill.alpha)
                try add(outline.filter { $0.count >= 3 }, pen: area, position: position)
            }
            try add(outline, pen: pen, position: position)
            countStyle(body["style"])
        case "textstroke":
            guard let text = (body["text"] as? String)?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return }
            let place = try RnoteReader.affine(body, position: position, fail: fail)
            let (x, y) = place((0, 0))
            texts.append((y, x, text))
            printed += RnoteReader.printed(text, at: (x, y), style: body["text_style"] as? [String: Any] ?? [:])
        case "vectorimage", "bitmapimage": skipped["image", default: 0] += 1
        default: skipped["\(kind) element", default: 0] += 1
        }
    }

    /// An element's placement: `transform.affine`, nalgebra's 3×3 matrix column-major (to 0.14), or
    /// `affine`, its 2×3 columns (0.15); x' = a·x + c·y + tx. None: where it stands.
    static func affine(_ fields: [String: Any], position: String, fail: (String, String) -> ImportError) throws(ImportError) -> ((Double, Double)) -> (Double, Double) {
        let m: [Double]
        if let nine = (fields["transform"] as? [String: Any])?["affine"] as? [Double], nine.count == 9 {
            m = [nine[0], nine[1], nine[3], nine[4], nine[6], nine[7]]
        } else if let six = fields["affine"] as? [Double], six.count == 6 {
            m = six
        } else if fields["transform"] == nil, fields["affine"] == nil {
            m = [1, 0, 0, 1, 0, 0]
        } else {
            throw fail(position, "a transform that is not an affine matrix")
        }
        guard m.allSatisfy({ $0.isFinite && abs($0) <= Double(ImportLimits.coordinate) }) else {
            throw fail(position, "a transform with a value that is not a finite number within ±\(Int(ImportLimits.coordinate))")
        }
        return { p in (m[0] * p.0 + m[2] * p.1 + m[4], m[1] * p.0 + m[3] * p.1 + m[5]) }
    }

    /// A text stroke printed where Rnote draws it: from its box's top left corner, the first baseline
    /// 0.9 em below, lines 1.2 em apart, wrapped at `max_width` by an estimate of half an em a character
    /// (Rnote lays text out with the font's own widths), in its colour and size, bold from weight 600.
    static func printed(_ text: String, at corner: (Double, Double), style: [String: Any]) -> [PrintedLine] {
        let size = (style["font_size"] as? Double).flatMap { $0.isFinite && $0 > 0 && $0 <= 1000 ? $0 : nil } ?? 32
        let color = (style["color"] as? [String: Any]).map(rgba) ?? .black
        let bold = (style["font_weight"] as? Double).map { $0 >= 600 } ?? false
        let width = (style["max_width"] as? Double).flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? .infinity
        let perLine = max(1, Int(min(width / (0.5 * size), 100_000)))
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in paragraph.split(separator: " ") {
                if !line.isEmpty, line.count + 1 + word.count > perLine {
                    lines.append(line)
                    line = ""
                }
                line += (line.isEmpty ? "" : " ") + word
            }
            lines.append(line)
        }
        return lines.prefix(PrintedLine.maxPerPage).enumerated().compactMap { index, line in
            line.isEmpty ? nil : PrintedLine(text: line, x: Float(corner.0), baseline: Float(corner.1 + (0.9 + 1.2 * Double(index)) * size),
                                             size: Float(size), bold: bold, color: color)
        }
    }

    /// The point at `t` (0…1) of the Bézier curve with these anchors (start, controls, end): De Casteljau.
    static func bezier(_ anchors: [(Double, Double)], at t: Double) -> (Double, Double) {
        let u = 1 - t
        var level = anchors
        while level.count > 1 { level = zip(level, level.dropFirst()).map { (u * $0.0 + t * $1.0, u * $0.1 + t * $1.1) } }
        return level[0]
    }

    /// The width of the line around a filled area (in the fill's colour, under the shape's outline).
    static let fillLineWidth: Float = 0.05

    /// Adds strokes along `paths` with `pen`, within the point limits.
    mutating func add(_ paths: [[RecordedPoint]], pen: RecordedPen, position: String) throws(ImportError) {
        for path in paths where !path.isEmpty {
            // A shape's transform can carry its outline past the limits even when its numbers are within them.
            if let point = path.first(where: { !($0.x.isFinite && $0.y.isFinite && abs($0.x) <= ImportLimits.coordinate && abs($0.y) <= ImportLimits.coordinate) }) {
                throw fail(position, "the stroke reaches (\(point.x), \(point.y)), beyond ±\(Int(ImportLimits.coordinate))")
            }
            points += path.count
            guard path.count <= ImportLimits.pointsPerStroke else {
                throw fail(position, "a stroke has more than \(ImportLimits.pointsPerStroke) points").exceedingLimits()
            }
            guard points <= ImportLimits.pointsPerFile else {
                throw fail(position, "the file has more than \(ImportLimits.pointsPerFile) points").exceedingLimits()
            }
            strokes.append(ImportedStroke(pen: pen, points: path, times: nil))
        }
    }

    /// A shape's outline as pen paths at even pressure, straight edges sampled every 8 px so corners stay
    /// sharp: `line` {start, end}, `arrow` {start, tip} (and its head), `rect` {cuboid.half_extents,
    /// transform}, `ellipse` {radii, transform}, `quadbez`/`cubbez` {start, cp…, end}, `polyline` and
    /// `polygon` {start, path}.
    func shape(_ value: Any?, width: Double, position: String) throws(ImportError) -> [[RecordedPoint]] {
        guard let (kind, body) = (value as? [String: Any])?.first, let fields = body as? [String: Any] else {
            throw fail(position, "a shape stroke without a shape")
        }
        typealias Point = (Double, Double)
        func sampled(_ corners: [Point]) -> [RecordedPoint] {
            var out: [RecordedPoint] = []
            for (a, b) in zip(corners, corners.dropFirst()) {
                let length = ((b.0 - a.0) * (b.0 - a.0) + (b.1 - a.1) * (b.1 - a.1)).squareRoot()
                let steps = max(1, min(1000, Int((length / 8).rounded(.up))))
                for step in (out.isEmpty ? 0 : 1)...steps {
                    let t = Double(step) / Double(steps)
                    out.append(RecordedPoint(x: Float(a.0 + t * (b.0 - a.0)), y: Float(a.1 + t * (b.1 - a.1)), pressure: 0.5))
                }
            }
            if corners.count == 1 { out = [RecordedPoint(x: Float(corners[0].0), y: Float(corners[0].1), pressure: 0.5)] }
            return out
        }
        func curve(_ anchors: [Point]) -> [RecordedPoint] {
            (0...32).map { step in
                let p = RnoteReader.bezier(anchors, at: Double(step) / 32)
                return RecordedPoint(x: Float(p.0), y: Float(p.1), pressure: 0.5)
            }
        }
        func transform() throws(ImportError) -> (Point) -> Point { try RnoteReader.affine(fields, position: position, fail: fail) }
        switch kind {
        case "line":
            return [sampled([try control(fields["start"], position), try control(fields["end"], position)])]
        case "arrow":
            let start = try control(fields["start"], position), tip = try control(fields["tip"], position)
            let angle = atan2(tip.1 - start.1, tip.0 - start.0), head = max(12, 4 * width)
            let left = (tip.0 - head * cos(angle - .pi / 5), tip.1 - head * sin(angle - .pi / 5))
            let right = (tip.0 - head * cos(angle + .pi / 5), tip.1 - head * sin(angle + .pi / 5))
            return [sampled([start, tip]), sampled([left, tip, right])]
        case "rect":
            let half = try control((fields["cuboid"] as? [String: Any])?["half_extents"], position)
            let place = try transform()
            return [sampled([(-half.0, -half.1), (half.0, -half.1), (half.0, half.1), (-half.0, half.1), (-half.0, -half.1)].map(place))]
        case "ellipse":
            let radii = try control(fields["radii"], position)
            let place = try transform()
            return [(0...64).map { step -> RecordedPoint in
                let a = Double(step) / 64 * 2 * .pi
                let p = place((radii.0 * cos(a), radii.1 * sin(a)))
                return RecordedPoint(x: Float(p.0), y: Float(p.1), pressure: 0.5)
            }]
        case "quadbez":
            return [curve([try control(fields["start"], position), try control(fields["cp"], position), try control(fields["end"], position)])]
        case "cubbez":
            return [curve([try control(fields["start"], position), try control(fields["cp1"], position),
                           try control(fields["cp2"], position), try control(fields["end"], position)])]
        case "polyline", "polygon":
            var corners = [try control(fields["start"], position)]
            for point in fields["path"] as? [Any] ?? [] { corners.append(try control(point, position)) }
            guard corners.count <= ImportLimits.pointsPerStroke else { throw fail(position, "a shape has more than \(ImportLimits.pointsPerStroke) corners") }
            if kind == "polygon" { corners.append(corners[0]) }
            return [sampled(corners)]
        default:
            throw fail(position, "unknown shape \"\(kind.prefix(40))\"")
        }
    }

    /// A brush stroke's pen path as points, Bézier segments flattened. Rnote 0.9 and later write
    /// `{"start": element, "segments": [{"lineto"|"quadbezto"|"cubbezto": {…, "end": element}}]}`;
    /// 0.5.13–0.6 the same without `start`; 0.5.5 a list of `dot`, `line`, `quadbez` and `cubbez` segments
    /// that carry their own start.
    func path(_ value: Any?, position: String) throws(ImportError) -> [RecordedPoint] {
        var result: [RecordedPoint] = []
        func append(_ point: RecordedPoint) { if result.last != point { result.append(point) } }
        func curve(from start: RecordedPoint?, controls: [(Double, Double)], to end: RecordedPoint) {
            guard let start else { return append(end) }
            let steps = 8
            let anchors = [(Double(start.x), Double(start.y))] + controls + [(Double(end.x), Double(end.y))]
            for step in 1...steps {
                let t = Double(step) / Double(steps)
                let p = RnoteReader.bezier(anchors, at: t)
                append(RecordedPoint(x: Float(p.0), y: Float(p.1), pressure: start.pressure + Float(t) * (end.pressure - start.pressure)))
            }
        }
        if let dictionary = value as? [String: Any] {
            if let start = dictionary["start"] { append(try element(start, position: position)) }
            for segment in dictionary["segments"] as? [Any] ?? [] {
                guard let (kind, body) = (segment as? [String: Any])?.first, let fields = body as? [String: Any] else { continue }
                let end = try element(fields["end"], position: position)
                switch kind {
                case "lineto": append(end)
                case "quadbezto": curve(from: result.last, controls: [try control(fields["cp"], position)], to: end)
                case "cubbezto": curve(from: result.last, controls: [try control(fields["cp1"], position), try control(fields["cp2"], position)], to: end)
                default: throw fail(position, "unknown path segment \"\(kind)\"")
                }
            }
        } else if let segments = value as? [Any] {
            for segment in segments {
                guard let (kind, body) = (segment as? [String: Any])?.first, let fields = body as? [String: Any] else { continue }
                switch kind {
                case "dot": append(try element(fields["element"], position: position))
                case "line":
                    append(try element(fields["start"], position: position))
                    append(try element(fields["end"], position: position))
                case "quadbez":
                    let start = try element(fields["start"], position: position)
                    append(start)
                    curve(from: start, controls: [try control(fields["cp"], position)], to: try element(fields["end"], position: position))
                case "cubbez":
                    let start = try element(fields["start"], position: position)
                    append(start)
                    curve(from: start, controls: [try control(fields["cp1"], position), try control(fields["cp2"], position)],
                          to: try element(fields["end"], position: position))
                default: throw fail(position, "unknown path segment \"\(kind)\"")
                }
            }
        } else {
            throw fail(position, "a brush stroke without a path")
        }
        return result
    }

    /// `{"pos": [x, y], "pressure": p}`.
    func element(_ value: Any?, position: String) throws(ImportError) -> RecordedPoint {
        guard let fields = value as? [String: Any] else { throw fail(position, "a path element that is not an object") }
        let (x, y) = try control(fields["pos"], position)
        let pressure = (fields["pressure"] as? Double) ?? 0.5
        guard pressure.isFinite else { throw fail(position, "pressure \(pressure) is not a number") }
        return RecordedPoint(x: Float(x), y: Float(y), pressure: Float(min(1, max(0, pressure))))
    }

    /// `[x, y]`, finite and within the coordinate limit.
    func control(_ value: Any?, _ position: String) throws(ImportError) -> (Double, Double) {
        guard let pair = value as? [Double], pair.count == 2 else { throw fail(position, "a position that is not [x, y]") }
        for coordinate in pair where !(coordinate.isFinite && abs(coordinate) <= Double(ImportLimits.coordinate)) {
            throw fail(position, "coordinate \(coordinate) is beyond ±\(Int(ImportLimits.coordinate))")
        }
        return (pair[0], pair[1])
    }

    /// The pen of a brush style: `{"smooth"|"rough"|"textured": {"stroke_width", "stroke_color" | "color", …}}`.
    func pen(_ value: Any?, position: String) throws(ImportError) -> RecordedPen {
        guard let (kind, body) = (value as? [String: Any])?.first, let style = body as? [String: Any] else { return RecordedPen() }
        let width = (style["stroke_width"] ?? style["width"]) as? Double ?? 2
        guard width.isFinite, width > 0, width <= Double(ImportLimits.maxWidth) else {
            throw fail(position, "stroke width \(width) is not a positive number up to \(Int(ImportLimits.maxWidth))")
        }
        let color = ((style["stroke_color"] ?? style["color"]) as? [String: Any]).map(RnoteReader.rgba) ?? .black
        return RecordedPen(tool: kind == "textured" ? .pencil : .pen, color: color, width: Float(width))
    }

    /// Counts a stroke whose style Inkwell draws differently: rough (a plain line), textured (Inkwell's
    /// pencil) or one it does not know (a plain line).
    mutating func countStyle(_ value: Any?) {
        guard let kind = (value as? [String: Any])?.first?.key, kind != "smooth" else { return }
        restyled[kind, default: 0] += 1
    }

    /// Rnote colours are `{"r", "g", "b", "a"}` from 0 to 1.
    static func rgba(_ fields: [String: Any]) -> RGBA {
        func channel(_ key: String) -> UInt8 {
            let value = (fields[key] as? Double) ?? (key == "a" ? 1 : 0)
            return UInt8((min(1, max(0, value.isFinite ? value : 0)) * 255).rounded())
        }
        return RGBA(red: channel("r"), green: channel("g"), blue: channel("b"), alpha: channel("a"))
    }

    /// The document's page format (`document.format` or, from 0.14, `document.config.format`);
    /// A4 at 96 dpi when it says none.
    static func format(of document: [String: Any]) -> PageSize {
        let format = (document["format"] ?? (document["config"] as? [String: Any])?["format"]) as? [String: Any] ?? [:]
        let width = format["width"] as? Double ?? 793.701, height = format["height"] as? Double ?? 1122.52
        guard width.isFinite, height.isFinite, width > 0, height > 0, width <= 100_000, height <= 100_000 else {
            return PageSize(width: 793.701, height: 1122.52)
        }
        return PageSize(width: Float(width), height: Float(height))
    }

    /// The document's background (`document.background` or, from 0.14, `document.config.background`):
    /// its colour as the paper (a dark theme's ink is light), its pattern as the template.
    static func template(of document: [String: Any]) -> PageTemplate {
        let background = (document["background"] ?? (document["config"] as? [String: Any])?["background"]) as? [String: Any] ?? [:]
        var template = PageTemplate()
        // The page's resolution: the format's `dpi` (Rnote's 96 when it says none).
        let format = (document["format"] ?? (document["config"] as? [String: Any])?["format"]) as? [String: Any] ?? [:]
        let dpi = format["dpi"] as? Double ?? 96
        template.unitsPerInch = dpi.isFinite && PageTemplate.unitsPerInchRange.contains(Float(dpi)) ? Float(dpi) : 96
        if let color = background["color"] as? [String: Any] { template.paper = rgba(color) }
        let size = (background["pattern_size"] as? [Double])?.last ?? 32
        if size.isFinite, size >= 4, size <= 1000 { template.spacing = Float(size) }
        switch background["pattern"] as? String {
        case "lines": template.kind = .lined
        case "grid": template.kind = .grid
        case "dots": template.kind = .dots
        default: template.kind = .blank
        }
        return template
    }

    /// One page holding the whole canvas: the format's size from Rnote's origin, grown to hold the ink.
    func finish(format: PageSize, template: PageTemplate) throws(ImportError) -> Recording {
        if strokes.isEmpty, texts.isEmpty, let problem = recovery.firstProblem { throw problem } // nothing could be kept
        let margin: Float = 20
        // Printed text counts like ink: from its capitals (3/4 em above a baseline) to its descenders.
        let xs = strokes.flatMap { $0.points.map(\.x) } + printed.map(\.x)
        let ys = strokes.flatMap { $0.points.map(\.y) } + printed.flatMap { [$0.baseline - 0.75 * $0.size, $0.baseline + 0.3 * $0.size] }
        let left = min(0, (xs.min() ?? 0) - margin), top = min(0, (ys.min() ?? 0) - margin)
        let right = max(format.width, (xs.max() ?? 0) + margin), bottom = max(format.height, (ys.max() ?? 0) + margin)
        var template = template
        template.printed = Array(printed.prefix(PrintedLine.maxPerPage))
        var page = ImportedPage(size: PageSize(width: right - left, height: bottom - top), template: template, strokes: strokes)
        page.move(dx: -left, dy: -top)
        let reading = texts.sorted { ($0.y, $0.x) < ($1.y, $1.x) }.map(\.text)
        var recording = Recording(notes: [RecordedNote(events: ImportedPage.events([page]), typedText: reading.joined(separator: "\n\n"))],
                                  format: "rnote")
        recording.warnings += recovery.warnings
        for (kind, count) in skipped.sorted(by: { $0.key < $1.key }) {
            recording.warnings.append("\(file): \(count) \(kind)\(count == 1 ? "" : "s") skipped (Inkwell keeps pen strokes and text)")
        }
        for (style, count) in restyled.sorted(by: { $0.key < $1.key }) {
            let strokes = count == 1 ? "stroke" : "strokes"
            switch style {
            case "rough": recording.warnings.append("\(file): \(count) \(strokes) in Rnote's rough style drawn as plain pen lines (Inkwell has no rough look)")
            case "textured": recording.warnings.append("\(file): \(count) textured \(strokes) drawn with Inkwell's pencil (it has no textured brush)")
            default: recording.warnings.append("\(file): \(count) \(strokes) in style \"\(style.prefix(40))\", which Inkwell does not know, drawn as plain pen lines")
            }
        }
        return recording
    }
}
