import Foundation
import InkwellKit

// The note's WebSocket protocol: JSON text objects whose `t` names the message. One Codable type a
// direction: `ClientMessage` (browser → server, decoded with `decode(_:)`, which checks every field
// and says what is wrong) and `ServerMessage` (server → browser, `json`). docs/serve.md lists them.

/// A message from the browser on a note's WebSocket (JSON text; `t` says which). Positions are in
/// page pixels; points are `[x, y, pressure]` or `[x, y, pressure, altitude, azimuth]` (radians).
enum ClientMessage: Equatable, Codable {
    case pen(PenInput)
    case tap(x: Double, y: Double, count: Int)
    /// The edits below carry a key (`k`, as a stroke's) when the browser keeps them until confirmed and
    /// sends them again after a reconnect: the server applies a key once.
    case erase(page: PageID, ids: [StrokeID], key: String? = nil)
    case eraseAlong(page: PageID, points: [InkPoint], radius: Float, key: String? = nil)
    case undo(key: String? = nil)
    case redo(key: String? = nil)
    /// The writer reached for the navigation (top edge, handle, Esc) or used one of its controls.
    case navigation
    case addPage(TemplateKind)
    case visibility(hidden: Bool)
    case leave
    case answer(LeaveAnswer)
    /// The whole page, please (the browser lost track of it: an update for a page it does not show).
    case sendPage(PageID)

    /// Messages bigger than this close the socket (a stroke's points come in batches far smaller).
    static let maxBytes = 256 * 1024
    /// The largest WebSocket frame read in: above ``maxBytes``, so that a message too big (a browser
    /// sends a message as one frame) is read and refused with close code 1003 rather than cut off by
    /// the WebSocket layer, which drops the connection without a word.
    static let maxFrameBytes = 16 * maxBytes
    /// Points in one batch, and in one eraser path.
    static let maxPoints = 4096

    /// Decodes one message, or says exactly what is wrong with it (a ``MessageError``).
    static func decode(_ text: String) throws(MessageError) -> ClientMessage {
        guard text.utf8.count <= maxBytes else { throw MessageError("message of \(text.utf8.count) bytes; at most \(maxBytes)") }
        do {
            return try JSONDecoder().decode(ClientMessage.self, from: Data(text.utf8))
        } catch let error as MessageError {
            throw error
        } catch DecodingError.dataCorrupted {
            throw MessageError("not a JSON object")
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
            throw MessageError("not a JSON object")
        } catch {
            throw MessageError("not a message: \(error)")
        }
    }

    /// The message as JSON text.
    var json: String { String(decoding: (try? JSONEncoder.messages.encode(self)) ?? Data("{}".utf8), as: UTF8.self) }

    fileprivate enum Key: String, CodingKey { case t, k, page, pt, pts, tool, color, w, x, y, n, ids, r, template, hidden, a }

    init(from decoder: any Decoder) throws {
        let message = try Fields(decoder.container(keyedBy: Key.self))
        switch try message.string(.t) {
        case "down":
            let tool = try Tool(name: message.string(.tool)).orThrow("unknown tool")
            let color = try RGBA(hex: message.string(.color)).orThrow("colour is not #rrggbb")
            let width = try message.number(.w, in: 0.1...200)
            let point = try Self.point(message.numbers(.pt))
            self = .pen(.down(key: try message.key(), page: try message.pageID(.page), point, tool: tool, color: color,
                              width: Float(width)))
        case "move":
            self = .pen(.move(key: try message.key(), try message.points(.pts)))
        case "up":
            self = .pen(.up(key: try message.key()))
        case "tap":
            let count = Int(try message.number(.n, in: 1...3))
            self = .tap(x: try message.number(.x, in: -1e6...1e6), y: try message.number(.y, in: -1e6...1e6), count: count)
        case "erase":
            guard let ids = try? message.container.decode([UInt64].self, forKey: .ids) else {
                throw MessageError("\"ids\" must be an array of whole numbers (stroke ids)")
            }
            self = .erase(page: try message.pageID(.page), ids: ids.map(StrokeID.init), key: try message.optionalKey())
        case "eraseAlong":
            self = .eraseAlong(page: try message.pageID(.page), points: try message.points(.pts), radius: Float(try message.number(.r, in: 1...500)),
                               key: try message.optionalKey())
        case "undo": self = .undo(key: try message.optionalKey())
        case "redo": self = .redo(key: try message.optionalKey())
        case "nav": self = .navigation
        case "addPage":
            let name = message.container.contains(.template) ? try message.string(.template) : "blank"
            guard let kind = TemplateKind.allCases.first(where: { $0.description == name }) else { throw MessageError("unknown template \(name)") }
            self = .addPage(kind)
        case "visibility": self = .visibility(hidden: try message.bool(.hidden))
        case "leave": self = .leave
        case "answer":
            switch try message.string(.a) {
            case "save": self = .answer(.saveAndLeave)
            case "discard": self = .answer(.discard)
            case "stay": self = .answer(.stay)
            case let other: throw MessageError("unknown answer \(other)")
            }
        case "sendPage": self = .sendPage(try message.pageID(.page))
        case let other:
            throw MessageError("unknown message type \(other)")
        }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        func points(_ points: [InkPoint]) -> [[Double]] { points.map(Self.numbers) }
        switch self {
        case let .pen(.down(key, page, point, tool, color, width)):
            try c.encode("down", forKey: .t)
            try c.encode(key, forKey: .k)
            try c.encode(page.rawValue, forKey: .page)
            try c.encode(Self.numbers(point), forKey: .pt)
            try c.encode(tool.description, forKey: .tool)
            try c.encode(color.alpha == 255 ? String(color.description.prefix(7)) : color.description, forKey: .color)
            try c.encode(Double(width), forKey: .w)
        case let .pen(.move(key, moved)):
            try c.encode("move", forKey: .t)
            try c.encode(key, forKey: .k)
            try c.encode(points(moved), forKey: .pts)
        case let .pen(.up(key)):
            try c.encode("up", forKey: .t)
            try c.encode(key, forKey: .k)
        case let .tap(x, y, count):
            try c.encode("tap", forKey: .t)
            try c.encode(x, forKey: .x)
            try c.encode(y, forKey: .y)
            try c.encode(count, forKey: .n)
        case let .erase(page, ids, key):
            try c.encode("erase", forKey: .t)
            try c.encode(page.rawValue, forKey: .page)
            try c.encode(ids.map(\.rawValue), forKey: .ids)
            try c.encodeIfPresent(key, forKey: .k)
        case let .eraseAlong(page, path, radius, key):
            try c.encode("eraseAlong", forKey: .t)
            try c.encode(page.rawValue, forKey: .page)
            try c.encode(points(path), forKey: .pts)
            try c.encode(Double(radius), forKey: .r)
            try c.encodeIfPresent(key, forKey: .k)
        case .undo(let key):
            try c.encode("undo", forKey: .t)
            try c.encodeIfPresent(key, forKey: .k)
        case .redo(let key):
            try c.encode("redo", forKey: .t)
            try c.encodeIfPresent(key, forKey: .k)
        case .navigation: try c.encode("nav", forKey: .t)
        case .addPage(let kind):
            try c.encode("addPage", forKey: .t)
            try c.encode(kind.description, forKey: .template)
        case .visibility(let hidden):
            try c.encode("visibility", forKey: .t)
            try c.encode(hidden, forKey: .hidden)
        case .leave: try c.encode("leave", forKey: .t)
        case .answer(let answer):
            try c.encode("answer", forKey: .t)
            let name = switch answer {
            case .saveAndLeave: "save"
            case .discard: "discard"
            case .stay: "stay"
            }
            try c.encode(name, forKey: .a)
        case .sendPage(let page):
            try c.encode("sendPage", forKey: .t)
            try c.encode(page.rawValue, forKey: .page)
        }
    }

    private static func numbers(_ point: InkPoint) -> [Double] {
        let xyp = [Double(point.x), Double(point.y), Double(point.pressure)]
        return point.tilt.map { xyp + [Double($0.altitude), Double($0.azimuth)] } ?? xyp
    }

    fileprivate static func point(_ values: [Double]) throws(MessageError) -> InkPoint {
        guard values.count == 3 || values.count == 5 else {
            throw MessageError("a point is [x, y, pressure] or [x, y, pressure, altitude, azimuth]")
        }
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

/// A browser message's fields, each read with its check and a reason naming the field when it fails.
private struct Fields {
    typealias Key = ClientMessage.Key
    let container: KeyedDecodingContainer<Key>
    init(_ container: KeyedDecodingContainer<Key>) { self.container = container }

    func string(_ name: Key) throws(MessageError) -> String {
        guard let value = try? container.decode(String.self, forKey: name) else { throw MessageError("\"\(name.stringValue)\" must be a string") }
        return value
    }

    func number(_ name: Key, in range: ClosedRange<Double>) throws(MessageError) -> Double {
        guard let value = try? container.decode(Double.self, forKey: name), value.isFinite, range.contains(value) else {
            throw MessageError("\"\(name.stringValue)\" must be a number in \(range.lowerBound)…\(range.upperBound)")
        }
        return value
    }

    func bool(_ name: Key) throws(MessageError) -> Bool {
        guard let value = try? container.decode(Bool.self, forKey: name) else { throw MessageError("\"\(name.stringValue)\" must be true or false") }
        return value
    }

    func numbers(_ name: Key) throws(MessageError) -> [Double] {
        guard let value = try? container.decode([Double].self, forKey: name) else {
            throw MessageError("\"\(name.stringValue)\": a point is [x, y, pressure] or [x, y, pressure, altitude, azimuth]")
        }
        return value
    }

    /// At most ``ClientMessage/maxPoints`` points.
    func points(_ name: Key) throws(MessageError) -> [InkPoint] {
        guard let raw = try? container.decode([[Double]].self, forKey: name) else {
            throw MessageError("\"\(name.stringValue)\" must be an array of points [x, y, pressure] or [x, y, pressure, altitude, azimuth]")
        }
        guard raw.count <= ClientMessage.maxPoints else { throw MessageError("more than \(ClientMessage.maxPoints) points") }
        return try raw.map { values throws(MessageError) in try ClientMessage.point(values) }
    }

    /// A stroke key (`k`): the writer's id and a number, at most 64 characters of letters, digits, `-` and `:`.
    func key() throws(MessageError) -> String {
        guard let key = try? container.decode(String.self, forKey: .k),
              (1...64).contains(key.count), key.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ":") }) else {
            throw MessageError("\"k\" must be a stroke key (letters, digits, - and :)")
        }
        return key
    }

    /// A key (`k`) if the message has one.
    func optionalKey() throws(MessageError) -> String? {
        container.contains(.k) ? try key() : nil
    }

    func pageID(_ name: Key) throws(MessageError) -> PageID {
        let text = try string(name)
        guard PageID.isWellFormed(text) else { throw MessageError("\"\(name.stringValue)\" is not a page id") }
        return PageID(rawValue: text)
    }
}

extension Optional {
    fileprivate func orThrow(_ reason: String) throws(MessageError) -> Wrapped {
        guard let self else { throw MessageError(reason) }
        return self
    }
}

/// A message from the server to the browsers on a note (JSON text; `t` says which). Other writers'
/// pen messages are passed on as they came (``ClientMessage``'s `down`, `move` and `up`).
enum ServerMessage: Equatable, Codable {
    /// First, on every connection: the note as it is now.
    case hello(Hello)
    /// A whole page: on request, when it was added or its paper changed, and on a page with eraser
    /// strokes (they cut other strokes, so the page is drawn whole). `keys` as in ``InkChange``.
    case page(PageView)
    /// Strokes added to and removed from a page (a pen up, an erasure, undo, redo).
    case ink(InkChange)
    case nav(visible: Bool)
    case saving(Saving)
    case tags([String])
    case confirmLeave
    case left
    case error(String)
    /// The server is stopping: the note is being saved and the socket will close (the browser keeps
    /// its unconfirmed strokes and reconnects).
    case stopping(String)

    /// The note when a browser connects.
    struct Hello: Equatable, Codable {
        struct Note: Equatable, Codable { var id, title, notebook: String }
        var note: Note
        var pages: [PageView]
        var nav: Bool
        var saving: Saving
        var tags: [String]
    }

    /// A page as the browser shows it: the SVG of its paper (PDF page and template, no ink) and each
    /// stroke's ink in drawing order; or, on a page with eraser strokes, all its ink as one SVG
    /// fragment (`wholeInk`, and `ink` empty).
    struct PageView: Equatable, Codable {
        var id: String
        var width, height: Double
        var template: String
        /// The SVG's geometric tolerance in page pixels, which live drawing uses too.
        var tolerance: Double
        /// Strokes on the page (erasers included), as stored.
        var strokes: Int
        var paper: String
        var ink: [StrokeInk]
        var wholeInk: String?
        /// Keys of strokes now on disk (journaled), in a `page` sent as an update.
        var keys: [String]?
    }

    /// One stroke's ink: the `<path>` elements the page's SVG draws it with.
    struct StrokeInk: Equatable, Codable {
        var id: UInt64
        /// Painted under all the ink (highlighter, marker) rather than over it.
        var under: Bool
        var svg: String
        /// Goes before this stroke of its layer (in an `ink` message; nil: on top of its layer).
        var before: UInt64?
    }

    /// A change of a page's ink: `remove` (stroke ids) first, then `add`. `keys` are the writers'
    /// strokes this change holds, now on disk (journaled): the browser drops its own copies of them.
    struct InkChange: Equatable, Codable {
        var page: String
        var strokes: Int
        var add: [StrokeInk]
        var remove: [UInt64]
        var keys: [String]
    }

    /// Where the note's changes are: `saved`, `unsaved`, `saving` or `retrying` (in `in` seconds, for `reason`).
    struct Saving: Equatable, Codable {
        var state: String
        var `in`: Double?
        var reason: String?
    }

    /// The message as JSON text.
    var json: String { String(decoding: (try? JSONEncoder.messages.encode(self)) ?? Data("{}".utf8), as: UTF8.self) }

    private enum Key: String, CodingKey { case t, visible, tags, message }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        switch self {
        case .hello(let body): try c.encode("hello", forKey: .t); try body.encode(to: encoder)
        case .page(let body): try c.encode("page", forKey: .t); try body.encode(to: encoder)
        case .ink(let body): try c.encode("ink", forKey: .t); try body.encode(to: encoder)
        case .nav(let visible): try c.encode("nav", forKey: .t); try c.encode(visible, forKey: .visible)
        case .saving(let body): try c.encode("saving", forKey: .t); try body.encode(to: encoder)
        case .tags(let tags): try c.encode("tags", forKey: .t); try c.encode(tags, forKey: .tags)
        case .confirmLeave: try c.encode("confirmLeave", forKey: .t)
        case .left: try c.encode("left", forKey: .t)
        case .error(let text): try c.encode("error", forKey: .t); try c.encode(text, forKey: .message)
        case .stopping(let text): try c.encode("stopping", forKey: .t); try c.encode(text, forKey: .message)
        }
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        switch try c.decode(String.self, forKey: .t) {
        case "hello": self = .hello(try Hello(from: decoder))
        case "page": self = .page(try PageView(from: decoder))
        case "ink": self = .ink(try InkChange(from: decoder))
        case "nav": self = .nav(visible: try c.decode(Bool.self, forKey: .visible))
        case "saving": self = .saving(try Saving(from: decoder))
        case "tags": self = .tags(try c.decode([String].self, forKey: .tags))
        case "confirmLeave": self = .confirmLeave
        case "left": self = .left
        case "error": self = .error(try c.decode(String.self, forKey: .message))
        case "stopping": self = .stopping(try c.decode(String.self, forKey: .message))
        case let other: throw MessageError("unknown message type \(other)")
        }
    }
}

extension JSONEncoder {
    /// Messages on a note's socket: keys sorted (a message always reads the same), slashes as they are.
    fileprivate static var messages: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
