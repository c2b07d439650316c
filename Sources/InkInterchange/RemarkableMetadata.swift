import Foundation
import InkCore

/// What a reMarkable backup's `UUID.metadata` says about one entry of the tablet's library: a folder
/// (`CollectionType`) or a document (`DocumentType`), its visible name, the folder it is in (`parent`:
/// "" for the top, `trash` for the tablet's trash, else the folder's UUID), whether it is pinned or
/// deleted, and when it was made and last changed (milliseconds since 1970, as strings).
struct RemarkableMetadata: Equatable {
    var isFolder: Bool
    var name: String?
    var parent: String
    var pinned: Bool
    var deleted: Bool
    var created: Date?
    var modified: Date?

    /// The tablet's trash, as a `parent`.
    static let trashParent = "trash"
    /// Deepest folder nesting followed (a loop of parents stops sooner).
    static let maxDepth = 64

    /// In the tablet's trash, or deleted and waiting for its sync to remove it.
    var trashed: Bool { deleted || parent == RemarkableMetadata.trashParent }

    /// Reads a `.metadata` file; nil when it is not a JSON object (or larger than 1 MiB).
    init?(_ data: Data) {
        guard data.count < 1 << 20,
              let fields = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return nil }
        isFolder = fields["type"] as? String == "CollectionType"
        // A title: control characters (a newline typed on a keyboard) become spaces; blank is none.
        name = (fields["visibleName"] as? String).map { name in
            String(String(name.prefix(200)).unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }.flatMap { $0.isEmpty ? nil : $0 }
        parent = fields["parent"] as? String ?? ""
        pinned = fields["pinned"] as? Bool ?? false
        deleted = fields["deleted"] as? Bool ?? false
        created = RemarkableMetadata.date(fields["createdTime"])
        modified = RemarkableMetadata.date(fields["lastModified"])
    }

    /// The `.metadata` beside `file` (`UUID.content`, `UUID.metadata`, …), when there is a readable one.
    static func beside(_ file: URL) -> RemarkableMetadata? {
        let url = file.deletingPathExtension().appendingPathExtension("metadata")
        guard let data = try? Data(contentsOf: url) else { return nil }
        return RemarkableMetadata(data)
    }

    /// True when `data` looks like a `.metadata` file: a JSON object naming a `visibleName` and a `type`.
    static func looksLikeMetadata(_ data: Data) -> Bool {
        let head = String(decoding: data.prefix(8192), as: UTF8.self)
        guard head.first(where: { !$0.isWhitespace }) == "{" else { return false }
        return head.contains("\"visibleName\"") && (head.contains("\"DocumentType\"") || head.contains("\"CollectionType\""))
    }

    /// A time as the tablet writes it: milliseconds since 1970, as a string (or a number); nil when it is
    /// none, zero or beyond the year 5138.
    static func date(_ value: Any?) -> Date? {
        let ms = (value as? String).flatMap(Double.init) ?? (value as? NSNumber)?.doubleValue
        guard let ms, ms > 0, ms < 1e14 else { return nil }
        return Date(timeIntervalSince1970: ms / 1000)
    }

    /// The notebook an entry whose `parent` is given lives in, in a backup whose entries are in
    /// `folder`: the folders above it, outermost first, each named by its `visibleName` (made a valid
    /// notebook name). Nil for the top of the tablet's library and the trash (the importer's notebook is
    /// used). A parent whose `.metadata` is missing or not a folder ends the path there, with a warning.
    static func notebook(parent: String, in folder: URL) -> (path: NotebookPath?, warning: String?) {
        var names: [String] = []
        var seen: Set<String> = []
        var current = parent
        var warning: String?
        while !current.isEmpty, current != trashParent, names.count < maxDepth {
            guard seen.insert(current).inserted else {
                warning = "the folders above it loop back to \(current.prefix(60)); the loop is cut there"
                break
            }
            guard RemarkableMetadata.isPlainID(current),
                  let entry = beside(folder.appendingPathComponent(current + ".metadata")), entry.isFolder else {
                warning = "its folder \(current.prefix(60)) has no readable folder .metadata beside it; it is imported as if the folder were at the top"
                break
            }
            names.insert(notebookName(entry.name, id: current), at: 0)
            current = entry.parent
        }
        // A document in a trashed folder keeps the folders it was in (the trash remembers them).
        return (names.isEmpty ? nil : try? NotebookPath(components: names), warning)
    }

    /// Whether the folders above an entry whose `parent` is given include one in the tablet's trash.
    static func inTrashedFolder(parent: String, in folder: URL) -> Bool {
        var current = parent
        var seen: Set<String> = []
        while !current.isEmpty, seen.insert(current).inserted, seen.count <= maxDepth {
            if current == trashParent { return true }
            guard RemarkableMetadata.isPlainID(current),
                  let entry = beside(folder.appendingPathComponent(current + ".metadata")) else { return false }
            if entry.deleted { return true }
            current = entry.parent
        }
        return false
    }

    /// Whether a `parent` names a file beside the entry: no separators, no leading `.`, no NUL, at most 200 bytes.
    static func isPlainID(_ id: String) -> Bool {
        !id.contains("/") && !id.contains("\\") && !id.hasPrefix(".") && !id.utf8.contains(0) && id.utf8.count <= 200
    }

    /// A folder's visible name as a notebook name: separators and control characters become `-`, spaces
    /// trimmed, a leading `.` dropped; an empty or still invalid name becomes `Folder UUID-PREFIX`.
    static func notebookName(_ name: String?, id: String) -> String {
        var cleaned = String((name ?? "").unicodeScalars.map { scalar -> Character in
            scalar == "/" || scalar == "\\" || scalar.value < 0x20 || scalar.value == 0x7F ? "-" : Character(scalar)
        }).trimmingCharacters(in: .whitespaces)
        while cleaned.hasPrefix(".") { cleaned.removeFirst() }
        if cleaned.hasSuffix(".note") { cleaned += " folder" }
        while cleaned.utf8.count > 200 { cleaned.removeLast() }
        cleaned = cleaned.trimmingCharacters(in: .whitespaces)
        if (try? NotebookPath.validate(name: cleaned)) == nil { return "Folder \(id.prefix(8))" }
        return cleaned
    }
}
