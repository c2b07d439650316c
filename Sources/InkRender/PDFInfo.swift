import Foundation

/// A document's metadata (the PDF Info dictionary).
struct PDFInfo: Sendable {
    var title: String?
    var author: String?
    var keywords: [String] = []
    var created: Date?

    /// `2026-11-21T09:30:00Z`, as Cairo takes them.
    static func isoDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss'Z'"
        return formatter.string(from: date)
    }
}
