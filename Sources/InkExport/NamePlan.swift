import Foundation
import InkCore
import InkStore

/// The output paths of every note of an export, decided before anything is rendered, so that
/// conflicts can be settled (or the export refused) before a single file is written.
struct NamePlan {
    /// Per note, its files: the main file first (for Markdown, then its page images).
    private(set) var names: [[String]]
    /// Paths that exist and are to be left alone.
    private(set) var skipped: Set<String> = []

    init(notes: [StoredNote], format: ExportFormat, destination: ExportDestination, avoiding existing: (String) -> Bool = { _ in false }) throws {
        var naming = ExportNaming()
        names = notes.map { stored in
            let folder: String
            if case .zip = destination, !stored.notebook.isRoot {
                folder = stored.notebook.components.joined(separator: "/") + "/"
            } else {
                folder = ""
            }
            // One base per note (unique across the export), every file of the note derived from it.
            let wanted = ExportNaming.baseName(title: stored.note.title, created: stored.note.created)
            let unique = naming.unique(folder + wanted, extension: "note") { name in
                existing(String(name.dropLast(".note".count)) + "." + format.rawValue)
            }
            let base = String(unique.dropLast(".note".count))
            let pageCount = stored.note.pages.count
            func page(_ number: Int, _ ext: String) -> String {
                base + (pageCount > 1 ? ExportNaming.pageSuffix(number) : "") + "." + ext
            }
            switch format {
            case .pdf, .inkml: return [base + "." + format.rawValue]
            case .png, .svg: return (1...max(1, pageCount)).map { page($0, format.rawValue) }
            case .md: return [base + ".md"] + (0..<pageCount).map { base + ExportNaming.pageSuffix($0 + 1) + ".png" }
            }
        }
    }

    /// Settles files that already exist in `folder` by `policy`; `refuse` throws naming them.
    mutating func resolveConflicts(in folder: URL, policy: ConflictPolicy, ask: (String) -> Bool,
                                   report: inout ExportReport) throws {
        let clashes = names.flatMap { $0 }.filter { FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path) }
        guard !clashes.isEmpty else { return }
        switch policy {
        case .overwrite: return
        case .skip: skipped = Set(clashes)
        case .ask: skipped = Set(clashes.filter { !ask(folder.appendingPathComponent($0).path) })
        case .suffix:
            // Names were chosen avoiding existing files already (see init).
            return
        case .refuse:
            let shown = clashes.prefix(3).map { folder.appendingPathComponent($0).path }.joined(separator: ", ")
            throw ExportError(path: folder.path, reason: "\(clashes.count) file\(clashes.count == 1 ? "" : "s") already exist (\(shown)\(clashes.count > 3 ? ", …" : "")); choose --on-conflict overwrite, skip or suffix")
        }
    }
}
