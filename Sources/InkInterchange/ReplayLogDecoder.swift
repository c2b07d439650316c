import Foundation
import InkCore

/// Reads Inkwell replay logs (JSON Lines, docs/replay-format.md) into a ``Recording``.
public enum ReplayLogDecoder {
    static let maxLineBytes = 1 << 20

    /// Decodes `data`; `file` names it in errors. Drawing before any `note` line goes into a note
    /// without a title (the importer names it).
    public static func decode(_ data: Data, file: String) throws(ImportError) -> Recording {
        var state = DecoderState(file: file)
        var lineNumber = 0
        var lineStart = data.startIndex
        let newline = UInt8(ascii: "\n")
        while lineStart < data.endIndex {
            lineNumber += 1
            let lineEnd = data[lineStart...].firstIndex(of: newline) ?? data.endIndex
            let line = data[lineStart..<lineEnd]
            lineStart = lineEnd < data.endIndex ? data.index(after: lineEnd) : data.endIndex
            guard line.count <= maxLineBytes else {
                throw ImportError(file: file, position: "line \(lineNumber)", reason: "line is longer than 1 MiB")
            }
            guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { continue }
            try state.consume(line, lineNumber: lineNumber)
        }
        return try state.finish()
    }
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
    var lineNumber = 0

    init(file: String) { self.file = file }

    mutating func consume(_ line: Data, lineNumber: Int) throws(ImportError) {
        self.lineNumber = lineNumber
        let object: [String: Any]
        do {
            guard let parsed = try JSONSerialization.jsonObject(with: line) as? [String: Any] else {
                throw fail("not a JSON object")
            }
            object = parsed
        } catch let error as ImportError {
            throw error
        } catch {
            throw fail("not valid JSON")
        }
        // The closure captures the position only: capturing `self` would share (and so copy on append) the events.
        let file = self.file
        let fields = Fields(object: object) { ImportError(file: file, position: "line \(lineNumber)", reason: $0) }
        let type = try fields.string("type")
        switch type {
        case "header":
            guard notes.isEmpty, !sawHeader else { throw fail("a header may only be the first line") }
            let version = try fields.number("version")
            guard version == 1 else { throw fail("unsupported replay log version \(version) (this build reads version 1)") }
            sawHeader = true
        case "note":
            try requirePenUp(type)
            var note = RecordedNote()
            note.title = try fields.optionalString("title")
            if let notebook = try fields.optionalString("notebook") {
                do { note.notebook = try NotebookPath(notebook) } catch { throw fail("key \"notebook\": \(error)") }
            }
            if let created = try fields.optionalString("created") {
                guard let date = ISO8601DateFormatter().date(from: created) else {
                    throw fail("key \"created\": \"\(created)\" is not an ISO 8601 date")
                }
                note.created = date
            }
            for text in try fields.optionalStringArray("tags") ?? [] {
                guard let tag = Tag(text) else { throw fail("key \"tags\": \"\(text)\" is not a valid tag") }
                note.tags.append(tag)
            }
            note.pinned = try fields.optionalBool("pinned") ?? false
            notes.append(note)
        case "page":
            try requirePenUp(type)
            var size = PageSize.remarkable
            if let width = try fields.optionalNumber("width") { size.width = Float(try positive(width, "width")) }
            if let height = try fields.optionalNumber("height") { size.height = Float(try positive(height, "height")) }
            var template = PageTemplate()
            if let name = try fields.optionalString("template") {
                guard let kind = TemplateKind(name: name) else { throw fail("key \"template\": unknown template \"\(name)\"") }
                template.kind = kind
            }
            if let spacing = try fields.optionalNumber("spacing") { template.spacing = Float(try positive(spacing, "spacing")) }
            if let paper = try fields.optionalString("paper") {
                guard let color = RGBA(hex: paper) else { throw fail("key \"paper\": \"\(paper)\" is not a colour") }
                template.paper = color
            }
            var at = lastTime
            if let t = try fields.optionalNumber("t") { at = try time(t) }
            append(.newPage(size: size, template: template, at: at))
        case "down":
            guard !penIsDown else { throw fail("pen down while the pen is already down (missing \"up\")") }
            let at = try time(fields.number("t"))
            let point = try recordedPoint(fields)
            var pen = RecordedPen()
            if let name = try fields.optionalString("tool") {
                guard let tool = Tool(name: name) else { throw fail("key \"tool\": unknown tool \"\(name)\"") }
                pen.tool = tool
            }
            if let hex = try fields.optionalString("color") {
                guard let color = RGBA(hex: hex) else { throw fail("key \"color\": \"\(hex)\" is not a colour") }
                pen.color = color
            }
            if let width = try fields.optionalNumber("width") {
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
            let at = try time(fields.number("t"))
            let point = try recordedPoint(fields)
            try countPoint()
            append(.penMove(point, at: at))
        case "up":
            guard penIsDown else { throw fail("pen up without a pen down") }
            let at = try time(fields.number("t"))
            var point: RecordedPoint?
            if fields.has("x") || fields.has("y") {
                point = try recordedPoint(fields)
                try countPoint()
            }
            penIsDown = false
            append(.penUp(point, at: at))
        case "undo", "redo":
            try requirePenUp(type)
            let at = try time(fields.number("t"))
            append(type == "undo" ? .undo(at: at) : .redo(at: at))
        case "tap":
            let at = try time(fields.number("t"))
            let x = try coordinate(fields.number("x"), "x"), y = try coordinate(fields.number("y"), "y")
            let count = try fields.optionalNumber("count") ?? 1
            guard count == 1 || count == 2 else { throw fail("key \"count\": a tap count is 1 or 2") }
            append(.tap(x: x, y: y, count: Int(count), at: at))
        default:
            throw fail("unknown line type \"\(type)\"")
        }
    }

    mutating func finish() throws(ImportError) -> Recording {
        guard !penIsDown else {
            throw ImportError(file: file, position: "line \(lineNumber)", reason: "the file ends while the pen is down (missing \"up\")")
        }
        guard notes.contains(where: { !$0.events.isEmpty }) || !notes.isEmpty else {
            throw ImportError(file: file, reason: "the file holds no notes and no pen input")
        }
        return Recording(notes: notes, format: "jsonl")
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

    private func recordedPoint(_ fields: Fields) throws(ImportError) -> RecordedPoint {
        let x = try coordinate(fields.number("x"), "x")
        let y = try coordinate(fields.number("y"), "y")
        let pressure = try fields.optionalNumber("p") ?? 0.5
        guard pressure >= 0, pressure <= 1 else { throw fail("key \"p\": pressure \(pressure) is outside 0…1") }
        var tilt: Tilt?
        let altitude = try fields.optionalNumber("altitude"), azimuth = try fields.optionalNumber("azimuth")
        switch (altitude, azimuth) {
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

/// Typed access to one line's keys, with errors that name the key.
private struct Fields {
    let object: [String: Any]
    let fail: (String) -> ImportError

    func has(_ key: String) -> Bool { object[key] != nil }

    func number(_ key: String) throws(ImportError) -> Double {
        guard let value = try optionalNumber(key) else { throw fail("key \"\(key)\" is missing") }
        return value
    }

    func optionalNumber(_ key: String) throws(ImportError) -> Double? {
        guard let raw = object[key], !(raw is NSNull) else { return nil }
        guard let number = raw as? NSNumber, !isBoolean(number) else {
            throw fail("key \"\(key)\" is not a number")
        }
        let value = number.doubleValue
        guard value.isFinite else { throw fail("key \"\(key)\" is not a finite number") }
        return value
    }

    func string(_ key: String) throws(ImportError) -> String {
        guard let value = try optionalString(key) else { throw fail("key \"\(key)\" is missing") }
        return value
    }

    func optionalString(_ key: String) throws(ImportError) -> String? {
        guard let raw = object[key], !(raw is NSNull) else { return nil }
        guard let text = raw as? String else { throw fail("key \"\(key)\" is not a string") }
        return text
    }

    func optionalBool(_ key: String) throws(ImportError) -> Bool? {
        guard let raw = object[key], !(raw is NSNull) else { return nil }
        guard let number = raw as? NSNumber, isBoolean(number) else { throw fail("key \"\(key)\" is not true or false") }
        return number.boolValue
    }

    func optionalStringArray(_ key: String) throws(ImportError) -> [String]? {
        guard let raw = object[key], !(raw is NSNull) else { return nil }
        guard let list = raw as? [String] else { throw fail("key \"\(key)\" is not a list of strings") }
        return list
    }
}

/// JSONSerialization gives `true`/`false` as NSNumbers too, of type "c" (char); numbers are the others.
private func isBoolean(_ number: NSNumber) -> Bool {
    String(cString: number.objCType) == "c"
}
