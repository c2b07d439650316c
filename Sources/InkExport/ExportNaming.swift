import Foundation
import InkCore

/// File names for exported notes: `{YYYYMMDD}-{slug}.{ext}` from the note's creation date (UTC) and
/// title, `-p02` for the pages of image formats, `-2`, `-3` … when a name is taken. Every name is a
/// single safe path component on Linux, macOS and Windows, whatever the title holds.
public struct ExportNaming: Sendable {
    /// Longest slug, in characters.
    public static let slugLimit = 60

    private var taken: Set<String> = []

    /// Device names Windows will not use as file names, whatever the extension.
    static let reservedOnWindows: Set<String> = Set(["con", "prn", "aux", "nul"] + (1...9).flatMap { ["com\($0)", "lpt\($0)"] })

    public init() {}

    /// `title` as a file-name slug: lowercase, words joined by `-`, letters of any script kept
    /// (accents dropped from Latin letters), at most ``slugLimit`` characters, never empty, never a
    /// name Windows reserves.
    public static func slug(_ title: String) -> String {
        let folded = title.folding(options: [.diacriticInsensitive, .widthInsensitive, .caseInsensitive], locale: Locale(identifier: "en_US_POSIX"))
        var words: [String] = []
        var current = ""
        for character in folded.lowercased() {
            if character.isLetter || character.isNumber {
                current.append(character)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        var slug = ""
        for word in words {
            let candidate = slug.isEmpty ? word : slug + "-" + word
            if candidate.count > slugLimit {
                if slug.isEmpty { slug = String(word.prefix(slugLimit)) }
                break
            }
            slug = candidate
        }
        if slug.isEmpty { slug = "untitled" }
        if reservedOnWindows.contains(slug) { slug += "-note" }
        return slug
    }

    /// `20261121` for a date, in UTC.
    public static func datePrefix(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d%02d%02d", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
    }

    /// The base name (without extension) for a note, or for one of its pages when `page` is given.
    public static func baseName(title: String, created: Date, page: Int? = nil) -> String {
        let base = datePrefix(created) + "-" + slug(title)
        guard let page else { return base }
        return base + pageSuffix(page)
    }

    /// `-p02`: what names page 2 of a note in every multi-page output (export and render alike).
    public static func pageSuffix(_ page: Int) -> String {
        String(format: "-p%02d", page)
    }

    /// `notes.png` → `notes-p02.png`: the file of one page when a note's pages go to several files.
    public static func pageFile(_ url: URL, page: Int) -> URL {
        let (stem, ext) = stemAndExtension(of: url)
        return url.deletingLastPathComponent().appendingPathComponent(stem + pageSuffix(page) + (ext.isEmpty ? "" : "." + ext))
    }

    /// `notes.png` → (`notes`, `png`); a name without an extension is all stem.
    static func stemAndExtension(of url: URL) -> (stem: String, ext: String) {
        let ext = url.pathExtension
        return (ext.isEmpty ? url.lastPathComponent : String(url.lastPathComponent.dropLast(ext.count + 1)), ext)
    }

    /// A name not handed out before in this export (`name.ext`, then `name-2.ext`, `name-3.ext` …),
    /// also avoiding names in `existing`.
    public mutating func unique(_ base: String, extension ext: String, avoiding existing: (String) -> Bool = { _ in false }) -> String {
        let name = FreeName.first(base, suffix: "." + ext) { taken.contains($0.lowercased()) || existing($0) }
        taken.insert(name.lowercased())
        return name
    }
}
