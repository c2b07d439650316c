import Foundation
import InkCore

/// Recorded pen input, decoded from a file, ready to be replayed through the editor session.
public struct Recording: Sendable, Equatable {
    /// Notes in the order the recording holds them.
    public var notes: [RecordedNote]
    /// The format it came from (`jsonl`, `inkml`, `rm`, `xopp`).
    public var format: String
    /// The program or device the file says wrote it, when it says: InkML's `inkSource`
    /// (manufacturer, model), Xournal++'s `creator`, a replay log header's `source`.
    public var claimedSource: String?
    /// What the file held that Inkwell could not keep (images, PDFs that cannot be found, area erasers…):
    /// the file, the page where the decoder knows it, and why. The import goes on, reports these and
    /// keeps them with the note.
    public var notKept: [NotKept] = []

    /// ``notKept`` as lines naming the file (and the page), as the commands print them to standard error.
    /// Set, each line becomes an item of the file it starts with (a page known only from an item is
    /// then lost: append items with a page to ``notKept``).
    public var warnings: [String] {
        get { notKept.map(\.description) }
        set { notKept = newValue.map { NotKept(warning: $0, file: "") } }
    }

    public init(notes: [RecordedNote], format: String) {
        self.notes = notes
        self.format = format
    }

    public var pointCount: Int { notes.reduce(0) { $0 + $1.pointCount } }

    /// ``notKept``, `file` being the path the recording was decoded from: an item that names no file is
    /// that file's.
    public func notKept(file: String) -> [NotKept] {
        notKept.map { $0.file.isEmpty ? NotKept(warning: $0.reason, file: file, page: $0.page) : $0 }
    }

    /// Strokes in all notes (pen-downs), undone ones included: what a file asks the importer to draw.
    public var strokeCount: Int {
        notes.reduce(0) { $0 + $1.events.reduce(0) { if case .penDown = $1 { $0 + 1 } else { $0 } } }
    }

    /// This recording, decoded from `file`, with an item in ``notKept`` for each page whose ink reaches more
    /// than `edge` page units beyond the page's edges (within it: the pen at the border): the strokes are
    /// kept whole, but what lies outside the page is not drawn. Erasers are not ink.
    public func reportingInkOutsidePages(file: String, edge: Float = 2) -> Recording {
        var reported = self
        for note in notes {
            var page = 0
            var size = PageSize.remarkable
            var outside = 0
            var current: (isInk: Bool, isOutside: Bool)?
            func finishPage() {
                if outside > 0 {
                    reported.notKept.append(NotKept(file: file, page: page, reason: "\(outside) stroke\(outside == 1 ? " reaches" : "s reach") beyond the page's edges: kept whole, but the part outside the page is not drawn"))
                }
                outside = 0
            }
            func visit(_ point: RecordedPoint) {
                guard let stroke = current, stroke.isInk, !stroke.isOutside else { return }
                if point.x < -edge || point.y < -edge || point.x > size.width + edge || point.y > size.height + edge {
                    current?.isOutside = true
                    outside += 1
                }
            }
            for event in note.events {
                switch event {
                case .newPage(let pageSize, _, _):
                    finishPage()
                    page += 1
                    size = pageSize
                case .penDown(let point, let pen, _):
                    current = (pen.tool != .eraser, false)
                    visit(point)
                case .penMove(let point, _):
                    visit(point)
                case .penUp(let point, _):
                    if let point { visit(point) }
                    current = nil
                case .undo, .redo, .tap:
                    break
                }
            }
            finishPage()
        }
        return reported
    }

    /// A claim as a file states it, made safe to print: one line, at most 100 characters; nil when empty.
    static func cleanClaim(_ text: String) -> String? {
        let line = String(text.unicodeScalars.filter { $0.properties.generalCategory != .control }.map(Character.init))
            .trimmingCharacters(in: .whitespaces)
        return line.isEmpty ? nil : String(line.prefix(100))
    }
}

/// One note of a recording: what the recording says about it and its events in time order.
public struct RecordedNote: Sendable, Equatable {
    public var title: String?
    public var notebook: NotebookPath?
    public var created: Date?
    public var tags: [Tag]
    public var pinned: Bool
    public var events: [RecordedEvent]
    /// Typed text the source holds beside the ink (Xournal++ text boxes), as the note's typed
    /// text: Markdown lines in reading order, "" when there is none.
    public var typedText: String
    /// The PDF the note's pages are drawn on (a Xournal++ document annotating a PDF, an imported PDF):
    /// its bytes, which start with `%PDF-`. Pages on it have a template ``PageTemplate/background`` whose
    /// document is ``RecordedNote/backgroundDocument`` (""), until the importer names it by its content.
    public var background: Data?
    /// Where the note comes from, when the decoder knows it better than the importer's file path (a
    /// reMarkable document's UUID, its pages' UUIDs and hashes). The importer fills in the rest: the
    /// hash of the whole source and where it was read from.
    public var origin: NoteOrigin?
    /// The source had the note in its trash (a reMarkable document deleted or in the tablet's trash):
    /// the importer imports it, then moves it to the library's trash.
    public var trashed = false
    /// How each page's ink lies on the PDF page under it (a reMarkable document on a PDF), by page in
    /// order; a page past the end of the list, or every page when it is empty, is ``RemarkablePDFLayout/trueSize``.
    public var pdfLayouts: [RemarkablePDFLayout] = []

    /// The document name pages of a recording give their note's ``background`` PDF.
    public static let backgroundDocument = ""

    public init(title: String? = nil, notebook: NotebookPath? = nil, created: Date? = nil, tags: [Tag] = [],
                pinned: Bool = false, events: [RecordedEvent] = [], typedText: String = "", background: Data? = nil) {
        self.title = title
        self.notebook = notebook
        self.created = created
        self.tags = tags
        self.pinned = pinned
        self.events = events
        self.typedText = typedText
        self.background = background
    }

    /// This note with its pages' background PDF named `id` (the content ID the library stores it by).
    public func namingBackground(_ id: String) -> RecordedNote {
        var note = self
        note.events = events.map { event in
            guard case .newPage(let size, var template, let at) = event,
                  template.background?.document == RecordedNote.backgroundDocument else { return event }
            template.background?.document = id
            return .newPage(size: size, template: template, at: at)
        }
        return note
    }

    public var pointCount: Int {
        events.reduce(0) {
            switch $1 {
            case .penDown, .penMove: $0 + 1
            case .penUp(let point, _): $0 + (point == nil ? 0 : 1)
            default: $0
            }
        }
    }
}

/// A pen position as recorded: page pixels, pressure 0…1, optional tilt.
public struct RecordedPoint: Sendable, Equatable {
    public var x: Float
    public var y: Float
    public var pressure: Float
    public var tilt: Tilt?

    public init(x: Float, y: Float, pressure: Float = 0.5, tilt: Tilt? = nil) {
        self.x = x
        self.y = y
        self.pressure = pressure
        self.tilt = tilt
    }
}

/// The pen the next stroke is drawn with.
public struct RecordedPen: Sendable, Equatable {
    public var tool: Tool
    public var color: RGBA
    public var width: Float
    /// The page layer the stroke is on (an index into its page template's layers).
    public var layer: UInt16
    /// The opacity the shape the stroke outlines is filled with (``Stroke/fill``); nil: not filled.
    public var fill: UInt8?
    /// The dash pattern it is drawn with (``Stroke/dash``); nil: solid.
    public var dash: [Float]?

    public init(tool: Tool = .pen, color: RGBA = .black, width: Float = 2, layer: UInt16 = 0, fill: UInt8? = nil, dash: [Float]? = nil) {
        self.tool = tool
        self.color = color
        self.width = width
        self.layer = layer
        self.fill = fill
        self.dash = dash
    }
}

/// One thing that happened, at `at` seconds since the recording began.
public enum RecordedEvent: Sendable, Equatable {
    case newPage(size: PageSize, template: PageTemplate, at: Double)
    case penDown(RecordedPoint, pen: RecordedPen, at: Double)
    case penMove(RecordedPoint, at: Double)
    case penUp(RecordedPoint?, at: Double)
    case undo(at: Double)
    case redo(at: Double)
    case tap(x: Float, y: Float, count: Int, at: Double)

    public var time: Double {
        switch self {
        case .newPage(_, _, let at), .penDown(_, _, let at), .penMove(_, let at), .penUp(_, let at),
             .undo(let at), .redo(let at), .tap(_, _, _, let at):
            at
        }
    }
}

/// Why a file could not be imported: the file, the position in it and the reason.
public struct ImportError: Error, CustomStringConvertible, Sendable, Equatable {
    public var file: String
    /// Where in the file: "line 12", "line 12, key \"x\"", "byte 4096", …
    public var position: String?
    public var reason: String
    /// The file passed ``ImportLimits``: a refusal of the whole file, where a bad value would cost only
    /// its stroke.
    public var exceedsLimits = false

    public init(file: String, position: String? = nil, reason: String) {
        self.file = file
        self.position = position
        self.reason = reason
    }

    /// This error, marked as the file passing ``ImportLimits``.
    func exceedingLimits() -> ImportError {
        var error = self
        error.exceedsLimits = true
        return error
    }

    public var description: String {
        [file, position, reason].compactMap { $0 }.joined(separator: ": ")
    }
}

/// Limits every importer enforces, so hostile files cannot exhaust memory.
public enum ImportLimits {
    public static let pointsPerStroke = 100_000
    public static let pointsPerFile = 20_000_000
    public static let coordinate: Float = 1_000_000
    public static let maxWidth: Float = 1_000
}

/// What a decoder mended or left out instead of refusing a whole file for one bad value: per kind, how
/// many, and the first one's position and reason. A file where nothing could be kept is refused with the
/// first reason (``firstProblem``).
struct Recovery {
    struct Entry {
        var one: String
        var many: String
        var count: Int
        var first: ImportError
    }

    private(set) var entries: [Entry] = []

    /// Notes one more of a kind, `one`/`many` saying what happened ("trace skipped", "traces skipped").
    mutating func note(_ one: String, _ many: String, _ problem: ImportError) {
        if let index = entries.firstIndex(where: { $0.one == one }) {
            entries[index].count += 1
        } else {
            entries.append(Entry(one: one, many: many, count: 1, first: problem))
        }
    }

    var firstProblem: ImportError? { entries.first?.first }

    /// One warning per kind: "FILE: 2 traces skipped, the first at POSITION: REASON".
    var warnings: [String] {
        entries.map { entry in
            let at = entry.first.position.map { " at \($0)" } ?? ""
            let lead = entry.count == 1 ? "1 \(entry.one)" : "\(entry.count) \(entry.many), the first"
            return "\(entry.first.file): \(lead)\(at): \(entry.first.reason)"
        }
    }
}
