import Foundation
import InkwellKit

/// A note as listing commands print it (`--json` shape).
struct NoteRow: Encodable {
    var id: String
    var title: String
    var notebook: String
    var created: Date
    var modified: Date
    var pinned: Bool
    var tags: [String]
    var pages: Int
    var source: String

    init(_ stored: StoredNote) {
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

    /// One line: id, pin, title, notebook, pages, tags.
    var line: String {
        let tagText = tags.isEmpty ? "" : "  " + tags.map { "#" + $0 }.joined(separator: " ")
        return "\(id)  \(pinned ? "*" : " ") \(title)  [\(notebook)]  \(pages) page\(pages == 1 ? "" : "s")\(tagText)"
    }
}

extension DateFormatter {
    /// `2026-11-21 14:05` in the local time zone, for people.
    static let short: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter
    }()
}
