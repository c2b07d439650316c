import Foundation
import InkCore
import InkStore

/// A note as front ends list it: the CLI's `--json` shape (docs/cli-json.md), and the web
/// notebook's library view.
public struct NoteRow: Encodable, Sendable {
    public var id: String
    public var title: String
    public var notebook: String
    public var created: Date
    public var modified: Date
    public var pinned: Bool
    public var tags: [String]
    public var pages: Int
    public var source: String

    public init(_ stored: StoredNote) {
        id = stored.note.id.rawValue
        title = stored.note.title
        notebook = stored.notebook.description
        created = stored.note.created
        modified = stored.note.modified
        pinned = stored.note.pinned
        tags = stored.note.tags.sorted().map(\.name)
        pages = stored.note.pages.count
        source = stored.note.source
    }
}
