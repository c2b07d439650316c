import Foundation
import InkwellKit

extension NoteRow {
    /// One line: id, pin, title, notebook, pages, tags.
    var line: String {
        let tagText = tags.isEmpty ? "" : "  " + tags.map { "#" + $0 }.joined(separator: " ")
        return "\(id)  \(pinned ? "*" : " ") \(title)  [\(notebook)]  \(pages) page\(pages == 1 ? "" : "s")\(tagText)"
    }
}

extension DateFormatter {
    /// `2026-11-21 14:05` in the local time zone, for people: the same digits and calendar whatever
    /// the language (`en_US_POSIX`).
    static let short: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter
    }()
}
