import Dispatch
import Foundation
import InkCore

/// Reads Inkwell replay logs (JSON Lines, docs/replay-format.md) into a ``Recording``.
///
/// Lines are independent JSON documents, so they are parsed in parallel, then applied in file order:
/// the error reported is always the first one in the file.
public enum ReplayLogDecoder {
    static let maxLineBytes = 1 << 20

    /// Decodes `data`; `file` names it in errors. Drawing before any `note` line goes into a note
    /// without a title (the importer names it).
    public static func decode(_ data: Data, file: String) throws(ImportError) -> Recording {
        let lines = splitLines(data)
        let parsed = parse(lines, of: data)
        var state = DecoderState(file: file)
        for (line, result) in zip(lines, parsed) {
            state.lineNumber = line.number
            switch result {
            case .blank: continue
            case .line(let fields): try state.consume(fields)
            case .failure(let reason): throw ImportError(file: file, position: "line \(line.number)", reason: reason)
            }
        }
        return try state.finish()
    }

    private struct LineRange: Sendable {
        let number: Int
        let bytes: Range<Int>
    }

    private enum ParsedLine: Sendable {
        case blank
        case line(ReplayLine)
        case failure(String)
    }

    private static func splitLines(_ data: Data) -> [LineRange] {
        data.withUnsafeBytes { buffer in
            var lines: [LineRange] = []
            var start = 0
            for index in 0..<buffer.count where buffer[index] == 0x0A {
                lines.append(LineRange(number: lines.count + 1, bytes: start..<index))
                start = index + 1
            }
            if start < buffer.count { lines.append(LineRange(number: lines.count + 1, bytes: start..<buffer.count)) }
            return lines
        }
    }

    /// Parses every line, spreading the work over the cores in contiguous slices.
    private static func parse(_ lines: [LineRange], of data: Data) -> [ParsedLine] {
        let slices = max(1, min(ProcessInfo.processInfo.activeProcessorCount, lines.count / 2_000))
        let results = Slots<[ParsedLine]>(count: slices)
        Parallel.forEach(slices, workers: slices) { slice in
            let decoder = JSONDecoder()
            let range = lines.count * slice / slices..<lines.count * (slice + 1) / slices
            results[slice] = lines[range].map { parseLine(data[$0.bytes], decoder) }
        }
        return (0..<slices).flatMap { results[$0] ?? [] }
    }

    private static func parseLine(_ bytes: Data, _ decoder: JSONDecoder) -> ParsedLine {
        guard bytes.count <= maxLineBytes else { return .failure("line is longer than 1 MiB") }
        guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return .blank }
        if let line = bytes.withUnsafeBytes(ReplayLineScanner.scan) { return .line(line) }
        do {
            return .line(try decoder.decode(ReplayLine.self, from: bytes))
        } catch let DecodingError.typeMismatch(type, context), let DecodingError.valueNotFound(type, context) {
            let key = context.codingPath.first?.stringValue ?? ""
            if context.codingPath.isEmpty { return .failure("not a JSON object") }
            let expected = type == String.self ? "a string" : type == Bool.self ? "true or false"
                : key == "tags" ? "a list of strings" : "a number"
            return .failure("key \"\(key)\" is not \(expected)")
        } catch {
            return .failure("not valid JSON")
        }
    }
}

/// One line of a replay log: every key any line type uses (docs/replay-format.md); unknown keys are ignored.
struct ReplayLine: Decodable, Sendable {
    init() {}

    var type: String?
    var version, t, x, y, p, width, height, spacing, altitude, azimuth, count: Double?
    var title, notebook, created, template, paper, tool, color, source: String?
    var tags: [String]?
    var pinned: Bool?
}

/// The decoder's progress through a file: the notes so far and the stroke being drawn.
private struct DecoderState {
    let file: String
    var notes: [RecordedNote] = []
    var strokePoints = 0
    var totalPoints = 0
    var penIsDown = false
    var lastTime = 0.0
    var sawHeader = false
    var claimedSource: String?
    var lineNumber = 0

    init(file: String) { self.file = file }

    mutating func consume(_ line: ReplayLine) throws(ImportError) {
        guard let type = line.type else { throw fail("key \"type\" is missing") }
        switch type {
        case "header":
            guard notes.isEmpty, !sawHeader else { throw fail("a header may only be the first line") }
            let version = try required(line.version, "version")
            guard version == 1 else { throw fail("unsupported replay log version \(version) (this build reads version 1)") }
            sawHeader = true
            claimedSource = line.source
        case "note":
            try requirePenUp(type)
            var note = RecordedNote()
            note.title = line.title
            if let notebook = line.notebook {
                do { note.notebook = try NotebookPath(notebook) } catch { throw fail("key \"notebook\": \(error)") }
            }
            if let created = line.created {
                guard let date = ISO8601DateFormatter().date(from: created) else {
                    throw fail("key \"created\": \"\(created)\" is not an ISO 8601 date")
                }
                note.created = date
            }
            for text in line.tags ?? [] {
                guard let tag = Tag(text) else { throw fail("key \"tags\": \"\(text)\" is not a valid tag") }
                note.tags.append(tag)
            }
            note.pinned = line.pinned ?? false
            notes.append(note)
        case "page":
            try requirePenUp(type)
            var size = PageSize.remarkable
            if let width = line.width { size.width = Float(try positive(width, "width")) }
            if let height = line.height { size.height = Float(try positive(height, "height")) }
            var template = PageTemplate()
            if let name = line.template {
                guard let kind = TemplateKind(name: name) else { throw fail("key \"template\": unknown template \"\(name)\"") }
                template.kind = kind
            }
            if let spacing = line.spacing { template.spacing = Float(try positive(spacing, "spacing")) }
            if let paper = line.paper {
                guard let color = RGBA(hex: paper) else { throw fail("key \"paper\": \"\(paper)\" is not a colour") }
                template.paper = color
            }
            var at = lastTime
            if let t = line.t { at = try time(t) }
            append(.newPage(size: size, template: template, at: at))
        case "down":
            guard !penIsDown else { throw fail("pen down while the pen is already down (missing \"up\")") }
            let at = try time(required(line.t, "t"))
            let point = try recordedPoint(line)
            var pen = RecordedPen()
            if let name = line.tool {
                guard let tool = Tool(name: name) else { throw fail("key \"tool\": unknown tool \"\(name)\"") }
                pen.tool = tool
            }
            if let hex = line.color {
                guard let color = RGBA(hex: hex) else { throw fail("key \"color\": \"\(hex)\" is not a colour") }
                pen.color = color
            }
            if let width = line.width {
                guard width > 0, width <= Double(ImportLimits.maxWidth) else {
                    throw fail("key \"width\": \(width) is outside 0…\(Int(ImportLimits.maxWidth))")
                }
                pen.width = Float(width)
            }
            penIsDown = true
            strokePoints = 0
            try countPoint()
            append(.penDown(point, pen: pen, at: at))
        case "move":
            guard penIsDown else { throw fail("pen move without a pen down") }
            let at = try time(required(line.t, "t"))
            let point = try recordedPoint(line)
            try countPoint()
            append(.penMove(point, at: at))
        case "up":
            guard penIsDown else { throw fail("pen up without a pen down") }
            let at = try time(required(line.t, "t"))
            var point: RecordedPoint?
            if line.x != nil || line.y != nil {
                point = try recordedPoint(line)
                try countPoint()
            }
            penIsDown = false
            append(.penUp(point, at: at))
        case "undo", "redo":
            try requirePenUp(type)
            let at = try time(required(line.t, "t"))
            append(type == "undo" ? .undo(at: at) : .redo(at: at))
        case "tap":
            let at = try time(required(line.t, "t"))
            let x = try coordinate(required(line.x, "x"), "x"), y = try coordinate(required(line.y, "y"), "y")
            let count = line.count ?? 1
            guard count == 1 || count == 2 else { throw fail("key \"count\": a tap count is 1 or 2") }
            append(.tap(x: x, y: y, count: Int(count), at: at))
        default:
            throw fail("unknown line type \"\(type)\"")
        }
    }

    mutating func finish() throws(ImportError) -> Recording {
        guard !penIsDown else { throw fail("the file ends while the pen is down (missing \"up\")") }
        guard !notes.isEmpty else { throw ImportError(file: file, reason: "the file holds no notes and no pen input") }
        var recording = Recording(notes: notes, format: "jsonl")
        recording.claimedSource = claimedSource.flatMap(Recording.cleanClaim)
        return recording
    }

    private mutating func append(_ event: RecordedEvent) {
        if notes.isEmpty { notes.append(RecordedNote()) }
        notes[notes.count - 1].events.append(event)
    }

    private mutating func countPoint() throws(ImportError) {
        strokePoints += 1
        totalPoints += 1
        guard strokePoints <= ImportLimits.pointsPerStroke else {
            throw fail("a stroke has more than \(ImportLimits.pointsPerStroke) points")
        }
        guard totalPoints <= ImportLimits.pointsPerFile else {
            throw fail("the file has more than \(ImportLimits.pointsPerFile) points")
        }
    }

    private func requirePenUp(_ type: String) throws(ImportError) {
        guard !penIsDown else { throw fail("\"\(type)\" while the pen is down (missing \"up\")") }
    }

    private func required(_ value: Double?, _ key: String) throws(ImportError) -> Double {
        guard let value else { throw fail("key \"\(key)\" is missing") }
        guard value.isFinite else { throw fail("key \"\(key)\" is not a finite number (NaN, or beyond ±1.8e308)") }
        return value
    }

    private mutating func time(_ value: Double) throws(ImportError) -> Double {
        guard value >= 0, value < 1e9 else { throw fail("key \"t\": \(value) is not a time in seconds ≥ 0") }
        guard value >= lastTime else { throw fail("key \"t\": time goes backwards (\(value) after \(lastTime))") }
        lastTime = value
        return value
    }

    private func coordinate(_ value: Double, _ key: String) throws(ImportError) -> Float {
        guard abs(value) <= Double(ImportLimits.coordinate) else {
            throw fail("key \"\(key)\": \(value) is beyond ±\(Int(ImportLimits.coordinate)) px")
        }
        return Float(value)
    }

    private func positive(_ value: Double, _ key: String) throws(ImportError) -> Double {
        guard value > 0, value <= Double(ImportLimits.coordinate) else { throw fail("key \"\(key)\": \(value) is not a positive size") }
        return value
    }

    private func recordedPoint(_ line: ReplayLine) throws(ImportError) -> RecordedPoint {
        let x = try coordinate(required(line.x, "x"), "x")
        let y = try coordinate(required(line.y, "y"), "y")
        let pressure = line.p ?? 0.5
        guard pressure >= 0, pressure <= 1 else { throw fail("key \"p\": pressure \(pressure) is outside 0…1") }
        var tilt: Tilt?
        switch (line.altitude, line.azimuth) {
        case (nil, nil): break
        case let (altitude?, azimuth?):
            guard abs(altitude) <= 7, abs(azimuth) <= 7 else { throw fail("tilt angles are radians within ±7") }
            tilt = Tilt(altitude: Float(altitude), azimuth: Float(azimuth))
        default: throw fail("\"altitude\" and \"azimuth\" come together")
        }
        return RecordedPoint(x: x, y: y, pressure: Float(pressure), tilt: tilt)
    }

    private func fail(_ reason: String) -> ImportError {
        ImportError(file: file, position: "line \(lineNumber)", reason: reason)
    }
}
