import Foundation
import InkCore

/// Reads Rnote documents (`.rnote`: gzip-compressed JSON, `{"version": …, "data": …}`) into a
/// ``Recording`` of one note.
///
/// Rnote has one canvas, endless in the "infinite" layout; the note gets one page covering it: at
/// least the document's page format (A4 at 96 dpi by default), grown to hold all the ink, with
/// Rnote's origin where the ink puts it (ink above or left of the origin moves the page's corner
/// there). Brush strokes keep their pen paths and pressure; Bézier segments are flattened. Text
/// strokes become the note's typed text, in reading order. Shapes and images are skipped with a
/// warning. Files from Rnote 0.5 to 0.15 are read: they store paths in three ways (see
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
            try reader.read(kind: kind, body as? [String: Any] ?? [:], position: "stroke \(index + 1)")
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
    var skipped: [String: Int] = [:]
    var points = 0

    init(file: String) { self.file = file }

    func fail(_ position: String, _ reason: String) -> ImportError {
        ImportError(file: file, position: position, reason: reason)
    }

    mutating func read(kind: String, _ body: [String: Any], position: String) throws(ImportError) {
        switch kind {
        case "brushstroke":
            let path = try self.path(body["path"], position: position)
            guard !path.isEmpty else { return }
            guard path.count <= ImportLimits.pointsPerStroke else {
                throw fail(position, "a stroke has more than \(ImportLimits.pointsPerStroke) points")
            }
            points += path.count
            guard points <= ImportLimits.pointsPerFile else { throw fail(position, "the file has more than \(ImportLimits.pointsPerFile) points") }
            strokes.append(ImportedStroke(pen: try pen(body["style"], position: position), points: path, times: nil))
        case "textstroke":
            guard let text = (body["text"] as? String)?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return }
            let affine = (body["transform"] as? [String: Any])?["affine"] as? [Double] ?? []
            let x = affine.count > 6 ? affine[6] : 0, y = affine.count > 7 ? affine[7] : 0
            texts.append((y.isFinite ? y : 0, x.isFinite ? x : 0, text))
        case "shapestroke": skipped["shape", default: 0] += 1
        case "vectorimage", "bitmapimage": skipped["image", default: 0] += 1
        default: skipped["\(kind) element", default: 0] += 1
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
                let t = Double(step) / Double(steps), u = 1 - t
                // De Casteljau on the anchors.
                var level = anchors
                while level.count > 1 {
                    level = zip(level, level.dropFirst()).map { (u * $0.0 + t * $1.0, u * $0.1 + t * $1.1) }
                }
                append(RecordedPoint(x: Float(level[0].0), y: Float(level[0].1),
                                     pressure: start.pressure + Float(t) * (end.pressure - start.pressure)))
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
        let margin: Float = 20
        let xs = strokes.flatMap { $0.points.map(\.x) }, ys = strokes.flatMap { $0.points.map(\.y) }
        let left = min(0, (xs.min() ?? 0) - margin), top = min(0, (ys.min() ?? 0) - margin)
        let right = max(format.width, (xs.max() ?? 0) + margin), bottom = max(format.height, (ys.max() ?? 0) + margin)
        var page = ImportedPage(size: PageSize(width: right - left, height: bottom - top), template: template)
        page.strokes = strokes.map { stroke in
            var moved = stroke
            moved.points = stroke.points.map { RecordedPoint(x: $0.x - left, y: $0.y - top, pressure: $0.pressure) }
            return moved
        }
        let reading = texts.sorted { ($0.y, $0.x) < ($1.y, $1.x) }.map(\.text)
        var recording = Recording(notes: [RecordedNote(events: ImportedPage.events([page]), typedText: reading.joined(separator: "\n\n"))],
                                  format: "rnote")
        for (kind, count) in skipped.sorted(by: { $0.key < $1.key }) {
            recording.warnings.append("\(file): \(count) \(kind)\(count == 1 ? "" : "s") skipped (Inkwell keeps pen strokes and text)")
        }
        return recording
    }
}
