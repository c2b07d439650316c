import Foundation
import InkwellKit

// The library API's request and answer bodies (JSON).

struct NewNote: Decodable { var title: String; var notebook: String? }
struct NewNotebook: Decodable { var path: String }
/// What a PATCH of a note may change; absent fields stay as they are.
struct NoteChange: Decodable {
    var title: String?
    var pinned: Bool?
    var notebook: String?
    /// True to make `notebook` when it does not exist (as `inkwell note move --create`); otherwise a
    /// notebook that does not exist is refused (422), naming the notebooks near it.
    var createNotebook: Bool?
    /// first, last, before:ID or after:ID (in the notebook it ends up in).
    var place: String?
    var addTags: [String]?
    var removeTags: [String]?
}

/// A note as the library view lists it: the CLI's row, with its pages' recognition status and its
/// thumbnail's address.
struct LibraryNote: Encodable {
    var row: NoteRow
    /// Pages by recognition status (pending, processing, recognised, failed), those with any.
    var status: [String: Int]
    /// The thumbnail's address, changing with the note's content.
    var thumbnail: String?

    init(_ entry: NoteEntry, states: RecognitionStates) {
        row = NoteRow(entry)
        status = states.counts(of: entry.note.pages).filter { $0.value > 0 }
        thumbnail = entry.note.pages.isEmpty ? nil : "/api/notes/\(row.id)/thumbnail.png?v=\(ThumbnailCache.version(of: entry))"
    }

    private enum CodingKeys: String, CodingKey { case status, thumbnail }

    /// The row's fields and these two, in one object.
    func encode(to encoder: any Encoder) throws {
        try row.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(status, forKey: .status)
        try container.encodeIfPresent(thumbnail, forKey: .thumbnail)
    }
}

/// A page's strokes with their timing, for replay: points are `[x, y, pressure, ms since pen down]`.
struct RecordedPage: Encodable {
    struct Line: Encodable {
        var tool: String
        var color: String
        var width: Float
        /// Milliseconds from the page's first pen down.
        var start: Double
        var points: [[Float]]
    }
    var width: Float
    var height: Float
    var strokes: [Line]

    init(_ page: Page) {
        width = page.size.width
        height = page.size.height
        let origin = page.strokes.map(\.startTime).min() ?? 0
        strokes = page.strokes.sorted { $0.startTime < $1.startTime }.map { stroke in
            Line(tool: stroke.tool.description, color: String(stroke.color.description.prefix(7)), width: stroke.width,
                 start: stroke.startTime - origin, points: stroke.points.map { [$0.x, $0.y, $0.pressure, $0.time] })
        }
    }
}

/// The library view's data: notebooks and notes in listing order.
struct LibraryListing: Encodable {
    var notebooks: [String]
    var notes: [LibraryNote]

    static func make(_ workspace: Workspace) throws -> LibraryListing {
        let listing = try workspace.listing()
        return LibraryListing(notebooks: listing.notebooks.map(\.description),
                              notes: listing.notes.map { LibraryNote($0, states: listing.states) })
    }
}
