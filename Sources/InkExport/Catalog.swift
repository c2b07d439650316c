import Foundation
import InkCore
import InkIndex
import InkStore

/// The formats of `inkwell export --catalog`.
public enum CatalogFormat: String, Sendable, CaseIterable {
    case csv, json
}

/// One note's line in a catalog: its metadata and recognised text, as another program reads them.
public struct CatalogEntry: Sendable, Equatable, Encodable {
    public var id: String
    /// The notebook's path (`Work/Meetings`); empty for a note at the library root.
    public var notebook: String
    public var title: String
    public var created: Date
    public var modified: Date
    /// Sorted, without `#`.
    public var tags: [String]
    public var pinned: Bool
    /// Where the note came from: `user`, `import:rm`, …
    public var source: String
    public var pages: Int
    /// The recognised text of the note's pages in page order, pages separated by a blank line
    /// (empty until `inkwell index` has recognised them).
    public var text: String
}

/// Every selected note's metadata and recognised text in one CSV or JSON file: the library without
/// Inkwell. Columns and keys, in this order: id, notebook, title, created, modified, tags, pinned,
/// source, pages, text.
///
/// - CSV follows RFC 4180: a header row, CRLF between records, a field in double quotes when it holds a
///   quote, a comma, CR or LF (quotes doubled inside), UTF-8 without a byte-order mark. Tags are joined
///   by one space (a tag never holds one); pinned is `true` or `false`.
/// - JSON is an array of objects with those keys (sorted), tags an array, pinned a boolean.
/// - Dates are ISO 8601 in UTC (`2026-11-21T14:05:00Z`) in both.
///
/// Values are written as they are: a title starting with `=` stays one, so open a catalog in a
/// spreadsheet as data (import it), not as a document to trust.
public enum Catalog {
    static let columns = ["id", "notebook", "title", "created", "modified", "tags", "pinned", "source", "pages", "text"]

    /// The entries of `notes`, in the order given; recognised text comes from `index` (none without it).
    public static func entries(_ notes: [StoredNote], index: (any IndexBackend)?) throws -> [CatalogEntry] {
        try notes.map { stored in
            let texts = try index?.pageTexts(of: stored.note.id) ?? [:]
            let note = stored.note
            return CatalogEntry(id: note.id.rawValue, notebook: stored.notebook.description, title: note.title,
                                created: note.created, modified: note.modified, tags: note.tags.sorted().map(\.name),
                                pinned: note.pinned, source: note.source, pages: note.pages.count,
                                text: note.pages.compactMap { texts[$0] }.filter { !$0.isEmpty }.joined(separator: "\n\n"))
        }
    }

    /// The catalog file's bytes.
    public static func encode(_ entries: [CatalogEntry], as format: CatalogFormat) throws -> [UInt8] {
        switch format {
        case .csv: Array(csv(entries).utf8)
        case .json: try json(entries)
        }
    }

    static func csv(_ entries: [CatalogEntry]) -> String {
        var text = columns.joined(separator: ",") + "\r\n"
        for entry in entries {
            let fields = [entry.id, entry.notebook, entry.title, isoDate(entry.created), isoDate(entry.modified),
                          entry.tags.joined(separator: " "), entry.pinned ? "true" : "false", entry.source,
                          String(entry.pages), entry.text]
            text += fields.map(csvField).joined(separator: ",") + "\r\n"
        }
        return text
    }

    /// A CSV field, quoted when it must be (RFC 4180, 2.6 and 2.7).
    static func csvField(_ value: String) -> String {
        guard value.contains(where: { $0 == "\"" || $0 == "," || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static func json(_ entries: [CatalogEntry]) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return [UInt8](try encoder.encode(entries)) + [0x0A]
    }

    static func isoDate(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle())  // UTC, `2026-11-21T14:05:00Z`
    }
}
