import Foundation
import InkwellKit

/// A message from the browser on a note's WebSocket (JSON text; `t` says which). Positions are in
/// page pixels; points are `[x, y, pressure]` or `[x, y, pressure, altitude, azimuth]` (radians).
enum ClientMessage: Equatable {
    case pen(PenInput)
    case tap(x: Double, y: Double, count: Int)
    case erase(page: PageID, ids: [StrokeID])
    case eraseAlong(page: PageID, points: [InkPoint], radius: Float)
    case undo, redo
    /// The writer reached for the navigation (top edge, handle, Esc) or used one of its controls.
    case navigation
    case addPage(TemplateKind)
    case visibility(hidden: Bool)
    case leave
    case answer(LeaveAnswer)

    /// Messages bigger than this close the socket (a stroke's points come in batches far smaller).
    static let maxBytes = 256 * 1024
    /// Points in one batch, and in one eraser path.
    static let maxPoints = 4096

    /// Decodes one message, or says exactly what is wrong with it.
    static func decode(_ text: String) throws -> ClientMessage {
        guard text.utf8.count <= maxBytes else { throw MessageError("message of \(text.utf8.count) bytes; at most \(maxBytes)") }
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)), let fields = object as? [String: Any] else {
            throw MessageError("not a JSON object")
        }
        let message = Fields(fields)
        switch try message.string("t") {
        case "down":
            let tool = try Tool(name: message.string("tool")).orThrow("unknown tool")
            let color = try RGBA(hex: message.string("color")).orThrow("colour is not #rrggbb")
            let width = try message.number("w", in: 0.1...200)
            let point = try Self.point(message.array("pt"))
            return .pen(.down(key: try message.key(), page: try message.pageID("page"), point, tool: tool, color: color,
                              width: Float(width)))
        case "move":
            let raw = try message.array("pts")
            guard raw.count <= maxPoints else { throw MessageError("more than \(maxPoints) points") }
            return .pen(.move(key: try message.key(), try raw.map(Self.point)))
        case "up":
            return .pen(.up(key: try message.key()))
        case "tap":
            let count = Int(try message.number("n", in: 1...3))
            return .tap(x: try message.number("x", in: -1e6...1e6), y: try message.number("y", in: -1e6...1e6), count: count)
        case "erase":
            let ids = try message.array("ids").map { value -> StrokeID in
                guard let number = value as? NSNumber, let id = UInt64(exactly: number.doubleValue) else { throw MessageError("stroke ids are whole numbers") }
                return StrokeID(id)
            }
            return .erase(page: try message.pageID("page"), ids: ids)
        case "eraseAlong":
            let raw = try message.array("pts")
            guard raw.count <= maxPoints else { throw MessageError("more than \(maxPoints) points") }
            return .eraseAlong(page: try message.pageID("page"), points: try raw.map(Self.point), radius: Float(try message.number("r", in: 1...500)))
        case "undo": return .undo
        case "redo": return .redo
        case "nav": return .navigation
        case "addPage":
            let name = (try? message.string("template")) ?? "blank"
            guard let kind = TemplateKind.allCases.first(where: { $0.description == name }) else { throw MessageError("unknown template \(name)") }
            return .addPage(kind)
        case "visibility": return .visibility(hidden: try message.bool("hidden"))
        case "leave": return .leave
        case "answer":
            switch try message.string("a") {
            case "save": return .answer(.saveAndLeave)
            case "discard": return .answer(.discard)
            case "stay": return .answer(.stay)
            case let other: throw MessageError("unknown answer \(other)")
            }
        case let other:
            throw MessageError("unknown message type \(other)")
        }
    }

    private static func point(_ value: Any) throws(MessageError) -> InkPoint {
        guard let numbers = value as? [NSNumber], numbers.count == 3 || numbers.count == 5 else {
            throw MessageError("a point is [x, y, pressure] or [x, y, pressure, altitude, azimuth]")
        }
        let values = numbers.map(\.doubleValue)
        guard values.allSatisfy({ $0.isFinite && abs($0) < 1e6 }) else { throw MessageError("a point's numbers must be finite") }
        let tilt = values.count == 5 ? Tilt(altitude: Float(values[3]), azimuth: Float(values[4])) : nil
        return InkPoint(x: Float(values[0]), y: Float(values[1]), pressure: Float(min(1, max(0, values[2]))), tilt: tilt)
    }
}

/// Why a browser's message was refused: the socket closes with this reason.
struct MessageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Typed access to a decoded JSON object's fields.
private struct Fields {
    let values: [String: Any]
    init(_ values: [String: Any]) { self.values = values }

    func string(_ name: String) throws(MessageError) -> String {
        guard let value = values[name] as? String else { throw MessageError("\"\(name)\" must be a string") }
        return value
    }

    func number(_ name: String, in range: ClosedRange<Double>) throws(MessageError) -> Double {
        guard let value = (values[name] as? NSNumber)?.doubleValue, value.isFinite, range.contains(value) else {
            throw MessageError("\"\(name)\" must be a number in \(range.lowerBound)…\(range.upperBound)")
        }
        return value
    }

    func bool(_ name: String) throws(MessageError) -> Bool {
        guard let value = values[name] as? Bool else { throw MessageError("\"\(name)\" must be true or false") }
        return value
    }

    func array(_ name: String) throws(MessageError) -> [Any] {
        guard let value = values[name] as? [Any] else { throw MessageError("\"\(name)\" must be an array") }
        return value
    }

    /// A stroke key: the writer's id and a number, at most 64 characters of letters, digits, `-` and `:`.
    func key() throws(MessageError) -> String {
        let key = try string("k")
        guard (1...64).contains(key.count), key.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ":") }) else {
            throw MessageError("\"k\" must be a stroke key (letters, digits, - and :)")
        }
        return key
    }

    func pageID(_ name: String) throws(MessageError) -> PageID {
        let text = try string(name)
        guard PageID.isWellFormed(text) else { throw MessageError("\"\(name)\" is not a page id") }
        return PageID(rawValue: text)
    }
}

extension Optional {
    fileprivate func orThrow(_ reason: String) throws(MessageError) -> Wrapped {
        guard let self else { throw MessageError(reason) }
        return self
    }
}
