import Foundation
import InkCore
import InkExport
import InkInterchange
import InkObsidian
import InkStore
import InkWorkspace

/// A format notes export to.
public enum NoteFormat: String, Sendable, CaseIterable {
    case pdf, png, svg, md, inkml

    var format: ExportFormat { ExportFormat(rawValue: rawValue) ?? .pdf }
}

/// What to do when an output exists already.
public enum OnConflict: String, Sendable, CaseIterable {
    case ask, overwrite, skip, suffix, refuse

    var policy: ConflictPolicy { ConflictPolicy(rawValue: rawValue) ?? .refuse }

    /// Where to write `url` under this policy (nil: leave it, skipped), asking with `ask` when it is `ask`.
    public func settle(_ url: URL, ask: (String) -> Bool) throws -> URL? { try policy.settle(url, ask: ask) }
}

/// The format of a catalog of notes.
public enum CatalogKind: String, Sendable, CaseIterable {
    case csv, json

    var format: CatalogFormat { CatalogFormat(rawValue: rawValue) ?? .csv }
}

/// Where an export goes.
public enum ExportTarget: Sendable, Equatable {
    /// One file (one note making one output).
    case file(URL)
    /// Files in a folder.
    case folder(URL)
    /// One ZIP archive; notebooks become folders.
    case zip(URL)

    var destination: ExportDestination {
        switch self {
        case .file(let url): .file(url)
        case .folder(let url): .folder(url)
        case .zip(let url): .zip(url)
        }
    }
}

/// How notes are exported (``Workspace/export(_:as:to:progress:)``).
public struct ExportSettings: Sendable {
    public var format: NoteFormat
    /// PNG scale: 1, 2 or 3.
    public var scale: Double = 1
    /// The recognised text as an invisible layer in PDFs.
    public var textLayer = true
    /// The author recorded in PDFs.
    public var author: String?
    public var conflicts: OnConflict = .refuse
    /// Asked, with the path, whether to overwrite when ``conflicts`` is `ask`.
    public var ask: @Sendable (String) -> Bool = { _ in false }

    public init(format: NoteFormat) { self.format = format }
}

extension FileExport {
    /// Converts pen files to `format`.
    public init(as format: NoteFormat) { self.init(format: format.format) }

    /// What happens to outputs that exist.
    public var onConflict: OnConflict {
        get { OnConflict(rawValue: conflicts.rawValue) ?? .refuse }
        set { conflicts = newValue.policy }
    }

    /// False for a format made from recognised text only (Markdown), which files without a library lack.
    public var canExport: Bool { Self.supports(format) }

    /// Converts `files` into `target` (``run(_:to:progress:)``).
    public func run(_ files: [URL], to target: ExportTarget, progress: (Int, Int) -> Void = { _, _ in }) throws -> Report {
        try run(files, to: target.destination, progress: progress)
    }
}

/// Exports: notes into files, a ZIP, a catalog or an Obsidian vault.
extension Workspace {
    /// The notes `selection` chooses, each once, oldest first: the order of an export.
    public func select(_ selection: NoteSelection) throws -> [NoteEntry] {
        try selection.notes(in: self).map(NoteEntry.init)
    }

    /// Exports `notes` to `target` by `settings`; `progress` hears (done, total). Recognised text comes
    /// from the index where there is one; exporting never creates it.
    public func export(_ notes: [NoteEntry], as settings: ExportSettings, to target: ExportTarget,
                       progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }) throws -> ExportReport {
        var exporter = Exporter(library: library, index: try existingIndex(), format: settings.format.format)
        exporter.scale = settings.scale
        exporter.textLayer = settings.textLayer
        exporter.author = settings.author
        exporter.conflicts = settings.conflicts.policy
        exporter.ask = settings.ask
        return try exporter.run(notes.map(\.stored), to: target.destination, progress: progress)
    }

    /// The catalog of the notes `selection` chooses (every note when it chooses none), in listing order:
    /// the file's bytes and how many notes it lists.
    public func catalog(of selection: NoteSelection, as kind: CatalogKind) throws -> (bytes: [UInt8], notes: Int) {
        let entries = try Catalog.entries(try selection.listed(in: self), index: try existingIndex())
        return (try Catalog.encode(entries, as: kind.format), entries.count)
    }

    /// Appends `notes` to the daily notes of the Obsidian vault at `vault`, once each, page images at
    /// `scale`; `progress` hears (done, total).
    public func push(_ notes: [NoteEntry], toVault vault: URL, scale: Double,
                     progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }) throws -> ObsidianPushReport {
        var push = ObsidianPush(library: library, index: try existingIndex(), vault: vault)
        push.scale = scale
        return try push.run(notes.map(\.stored), progress: progress)
    }

    /// File extensions of the pen files Inkwell converts without a library (besides PDFs).
    public static var penFileExtensions: Set<String> { RecordingFormat.knownExtensions }

    /// Writes `bytes` to `url` as an output (``OutputFile``): a regular file through a temporary file renamed
    /// into place (a reader never sees half a file), a symbolic link's target the same way (the link
    /// kept), a FIFO or device (`/dev/stdout`) written into.
    public static func writeFile(_ url: URL, _ bytes: [UInt8]) throws { try OutputFile.write(url, bytes) }

    /// The folder `url` names as an output folder, created when missing (``OutputFile/folder(_:holding:)``).
    public static func outputFolder(_ url: URL) throws -> URL { try OutputFile.folder(url) }

    /// A file name for a note titled `title`: its slug (as exports name files) and `ext`.
    public static func fileName(title: String, extension ext: String) -> String { ExportNaming.slug(title) + "." + ext }

    /// `notes.png` → `notes-p02.png`: page `page`'s file when pages go to several files.
    public static func pageFile(_ url: URL, page: Int) -> URL { ExportNaming.pageFile(url, page: page) }
}
