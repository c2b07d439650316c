import Foundation
import InkCore

/// The tablet's page templates, by the names a document's `.pagedata` (one a line, in page order) or
/// `.content` (`cPages.pages[].template.value`) gives them, as Inkwell's ``PageTemplate`` kinds and
/// spacings in tablet pixels (226 dpi).
///
/// A name is read word by word after its orientation prefix (`P ` portrait, `LS ` landscape, which
/// changes nothing here: the page keeps its size): `Blank`; `Lines`/`Lined`/`Margin` → lined; `Grid` → grid;
/// `Dots` → dots; `Cornell` → cornell; a size word (`small`/`S`, `medium`/`med`/`M`, `large`/`L`)
/// picks the spacing, medium when there is none: small 45, medium 60, large 90 px (lines 50, 68, 90 px),
/// chosen to look like the tablet's, not measured from its template files (Inkwell has none). The
/// tablet's decorations (margins, headers, checkboxes, calendars) are not drawn. Any other name is
/// unknown: the page is blank.
enum RemarkableTemplates {
    /// The template for `name`; nil when Inkwell has none like it (the caller warns and leaves the page blank).
    static func template(named name: String) -> PageTemplate? {
        var words = name.split(whereSeparator: { $0 == " " || $0 == "_" || $0 == "-" }).map { $0.lowercased() }
        if let first = words.first, first == "p" || first == "ls" { words.removeFirst() }
        guard let first = words.first else { return nil }
        let kind: TemplateKind
        switch first {
        case "blank": return words.count == 1 ? PageTemplate() : nil
        case "lines", "lined", "margin": kind = .lined // Margin: lines with a left margin (not drawn)
        case "grid": kind = .grid
        case "dots", "dot": kind = .dots
        case "cornell": kind = .cornell
        default: return nil
        }
        var size = 1
        for word in words.dropFirst() {
            switch word {
            case "small", "s": size = 0
            case "medium", "med", "m": size = 1
            case "large", "l": size = 2
            default: return nil // grid margins, headings, top or bottom halves: looks Inkwell does not draw
            }
        }
        let spacings: [Float] = kind == .lined ? [50, 68, 90] : [45, 60, 90]
        return PageTemplate(kind: kind, spacing: spacings[size])
    }

    /// Each page's template name by page id: `cPages.pages[].template.value`, or the `.pagedata` lines
    /// (`pagedata`) beside the older `pages` list, in its order.
    static func names(_ content: [String: Any], pagedata: Data?) -> [String: String] {
        var names: [String: String] = [:]
        if let cPages = content["cPages"] as? [String: Any], let list = cPages["pages"] as? [[String: Any]] {
            for page in list {
                guard let id = page["id"] as? String,
                      let name = (page["template"] as? [String: Any])?["value"] as? String, !name.isEmpty else { continue }
                names[id] = String(name.prefix(100))
            }
        } else if let ids = content["pages"] as? [String], let pagedata, pagedata.count < 1 << 20 {
            let lines = String(decoding: pagedata, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            for (id, line) in zip(ids, lines) {
                let name = line.trimmingCharacters(in: .whitespacesAndNewlines)
                if !name.isEmpty { names[id] = String(name.prefix(100)) }
            }
        }
        return names
    }
}
