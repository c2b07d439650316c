import Foundation
import InkCore

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

    public init(_ entry: NoteEntry) {
        id = entry.note.id.rawValue
        title = entry.note.title
        notebook = entry.notebook.description
        created = entry.note.created
        modified = entry.note.modified
        pinned = entry.note.pinned
        tags = entry.note.tags.sorted().map(\.name)
        pages = entry.note.pages.count
        source = entry.note.source
    }
}
