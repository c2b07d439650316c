import Foundation

/// A document's metadata (the PDF Info dictionary).
struct PDFInfo: Sendable {
    var title: String?
    var author: String?
    var keywords: [String] = []
    var created: Date?

    /// `2026-11-21T09:30:00Z`, as Cairo takes them.
    static func isoDate(_ date: Date) -> String {
        utc("yyyy-MM-dd'T'HH:mm:ss", date) + "Z"
    }

    private static func utc(_ format: String, _ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = format
        return formatter.string(from: date)
    }
}
