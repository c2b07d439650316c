import Foundation
import InkCore
import InkStore

/// A note as Markdown for Obsidian and friends: YAML frontmatter, the title, each page's recognised
/// text with the page image embedded beside it, then the typed text exactly as written (after a
/// blank line), as the PDF puts it after the ink.
struct MarkdownNote {
    let stored: StoredNote
    /// Recognised text per page, in page order ("" where nothing was recognised).
    let pageTexts: [String]
    /// File names of the page images, in page order (relative to the Markdown file).
    let images: [String]
    /// The note's typed text, byte for byte ("" when it has none).
    var typedText = ""

    var text: String {
        let note = stored.note
        var lines = ["---"]
        lines.append("title: \(note.title.quotedLiteral)")
        lines.append("created: \(MarkdownNote.isoDate(note.created))")
        lines.append("modified: \(MarkdownNote.isoDate(note.modified))")
        lines.append("tags: [\(note.tags.sorted().map { $0.name.quotedLiteral }.joined(separator: ", "))]")
        lines.append("source: inkwell")
        lines.append("inkwell_source: \(note.source.quotedLiteral)")
        lines.append("notebook: \(stored.notebook.description.quotedLiteral)")
        lines.append("---")
        lines.append("")
        lines.append("# " + note.title.replacingOccurrences(of: "\n", with: " "))
        for (index, image) in images.enumerated() {
            lines.append("")
            if images.count > 1 { lines.append("## Page \(index + 1)\n") }
            let text = index < pageTexts.count ? pageTexts[index] : ""
            if !text.isEmpty { lines.append(text + "\n") }
            lines.append("![Page \(index + 1)](\(image.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? image))")
        }
        let head = lines.joined(separator: "\n") + "\n"
        return typedText.isEmpty ? head : head + "\n" + typedText
    }

    static func isoDate(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}
