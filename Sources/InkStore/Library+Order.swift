import Foundation
import InkCore

/// Where ``Library/moveNote(_:to:placement:)`` puts a note in its notebook's manual order.
public enum NotePlacement: Sendable, Equatable {
    case first
    case last
    case before(NoteID)
    case after(NoteID)
}

/// A notebook's manual order, as the `.order` file in its folder holds it: one note id a line, top
/// first; the rest of a line is the note's title when the file was written, for people; lines starting
/// with `#` are comments. The file is a hint, never the list of notes: a note missing from it is still
/// listed (before the ordered ones, newest first), and ids of notes not in the notebook are ignored and
/// dropped at the next write. Format and rules: docs/library.md.
struct NoteOrderFile: Equatable {
    static let name = ".order"
    static let header = "# Inkwell: the order of this notebook's notes, top first. One note id a line; the title after it is only for reading."

    /// The ids in file order, each once (the first occurrence counts).
    var ids: [NoteID]

    /// Reads `text` leniently: blank lines, comments and lines that do not start with a note id are skipped.
    init(parsing text: String) {
        var seen = Set<NoteID>()
        ids = text.split(whereSeparator: \.isNewline).compactMap { line in
            guard let word = line.split(whereSeparator: \.isWhitespace).first, NoteID.isWellFormed(String(word)) else { return nil }
            let id = NoteID(rawValue: String(word))
            return seen.insert(id).inserted ? id : nil
        }
    }

    /// The file's text for `notes`, in order.
    static func text(_ notes: [StoredNote]) -> String {
        ([header] + notes.map { "\($0.note.id.rawValue)  \($0.note.title)" }).joined(separator: "\n") + "\n"
    }
}

/// A notebook's own notes (not its sub-notebooks'), in manual order.
struct NotebookOrder {
    /// Notes without a place in the order file, newest first: they are listed first.
    var unplaced: [StoredNote]
    /// Notes the order file places, in its order.
    var placed: [StoredNote]
    var all: [StoredNote] { unplaced + placed }

    /// Where note `id` stands among the placed notes; nil when it has no place.
    func neighbours(of id: NoteID) -> TrashPlace? {
        guard let index = placed.firstIndex(where: { $0.note.id == id }) else { return nil }
        return TrashPlace(after: index > 0 ? placed[index - 1].note.id : nil,
                          before: index + 1 < placed.count ? placed[index + 1].note.id : nil)
    }

    init(_ notes: [StoredNote], file: NoteOrderFile) {
        let position = Dictionary(file.ids.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        placed = notes.filter { position[$0.note.id] != nil }.sorted { position[$0.note.id]! < position[$1.note.id]! }
        unplaced = notes.filter { position[$0.note.id] == nil }
            .sorted { ($0.note.created, $0.note.id) > ($1.note.created, $1.note.id) }
    }
}

/// Where a deleted note stood among the placed notes of its notebook, so restoring can put it back.
struct TrashPlace: Codable, Sendable, Equatable {
    /// The placed note just above it; nil when it was the first.
    var after: NoteID?
    /// The placed note just below it; nil when it was the last.
    var before: NoteID?
}

extension NotebookPath {
    /// The notebook as messages name it.
    var displayName: String { isRoot ? "the library root" : "\"\(self)\"" }
}

extension Library {
    /// The notes directly in `notebook` (not in its sub-notebooks), in no particular order, and the
    /// note folders there whose metadata cannot be read (skipped, so that one damaged note costs
    /// only itself).
    func notesDirectly(in notebook: NotebookPath) throws -> (notes: [StoredNote], damaged: [DamagedNote]) {
        let here = folder(of: notebook)
        var notes: [StoredNote] = [], damaged: [DamagedNote] = []
        for name in try subfolders(of: here) where name.hasSuffix(Library.noteSuffix) {
            let noteFolder = here.appendingPathComponent(name, isDirectory: true)
            do {
                let note = try JSONFile.read(NoteDocument.self, from: noteFolder.appendingPathComponent("note.json")).note
                notes.append(StoredNote(note: note, notebook: notebook, folder: noteFolder))
            } catch {
                damaged.append(DamagedNote(folder: noteFolder, notebook: notebook, reason: "\(error)"))
            }
        }
        return (notes, damaged)
    }

    /// `notebook`'s own notes in manual order (read without the lock: the file is replaced atomically).
    func notebookOrder(_ notebook: NotebookPath) throws -> NotebookOrder {
        NotebookOrder(try notesDirectly(in: notebook).notes, file: try readOrderFile(of: notebook))
    }

    func orderFileURL(of notebook: NotebookPath) -> URL {
        folder(of: notebook).appendingPathComponent(NoteOrderFile.name)
    }

    func readOrderFile(of notebook: NotebookPath) throws -> NoteOrderFile {
        let url = orderFileURL(of: notebook)
        guard FileManager.default.fileExists(atPath: url.path) else { return NoteOrderFile(parsing: "") }
        return NoteOrderFile(parsing: String(decoding: try DurableFile.read(url), as: UTF8.self))
    }

    /// Replaces `notebook`'s order file with `notes` (removing it when there are none). The caller holds the lock.
    func writeOrderFile(_ notes: [StoredNote], of notebook: NotebookPath) throws {
        let url = orderFileURL(of: notebook)
        if notes.isEmpty {
            guard FileManager.default.fileExists(atPath: url.path) else { return }
            do {
                try FileManager.default.removeItem(at: url)
            } catch {
                throw StoreError.io(url, "cannot remove: \(error.localizedDescription)")
            }
            try DurableFile.syncFolder(url.deletingLastPathComponent())
        } else {
            try DurableFile.replace(url, with: Array(NoteOrderFile.text(notes).utf8))
        }
    }

    /// Takes note `id` out of `notebook`'s order file, if it is there (the note may be gone from the
    /// notebook already). The caller holds the lock.
    func removeFromOrder(_ id: NoteID, of notebook: NotebookPath) throws {
        guard try readOrderFile(of: notebook).ids.contains(id) else { return }
        try writeOrderFile(try notebookOrder(notebook).placed.filter { $0.note.id != id }, of: notebook)
    }

    /// Gives note `id` (already in `notebook`) back the place it had: right after the note that was above
    /// it, else right before the note that was below it; first or last when it was. When neither
    /// neighbour is still placed there the place means nothing, and the note stays unplaced (listed
    /// with new notes, newest first). The caller holds the lock.
    func restorePlace(_ place: TrashPlace, of id: NoteID, in notebook: NotebookPath) throws {
        let order = try notebookOrder(notebook)
        guard let note = order.unplaced.first(where: { $0.note.id == id }) else { return }
        var placed = order.placed
        let ids = placed.map(\.note.id)
        let index: Int?
        if place.after == nil {
            index = 0
        } else if let above = ids.firstIndex(where: { $0 == place.after }) {
            index = above + 1
        } else if place.before == nil {
            index = placed.count
        } else {
            index = ids.firstIndex(where: { $0 == place.before })
        }
        guard let index else { return }
        placed.insert(note, at: index)
        try writeOrderFile(placed, of: notebook)
    }

    /// Puts note `id` (already in `notebook`) at `placement`. Every note of the notebook gets a place,
    /// so the listing is exactly what the user sees now, with the note moved. The caller holds the lock.
    func place(_ id: NoteID, _ placement: NotePlacement, in notebook: NotebookPath) throws {
        var notes = try notebookOrder(notebook).all
        guard let index = notes.firstIndex(where: { $0.note.id == id }) else { throw StoreError.noSuchNote(id.rawValue) }
        let note = notes.remove(at: index)
        let position: Int
        switch placement {
        case .first: position = 0
        case .last: position = notes.count
        case .before(let other), .after(let other):
            guard let anchor = notes.firstIndex(where: { $0.note.id == other }) else { throw StoreError.noSuchNote(other.rawValue) }
            if case .after = placement { position = anchor + 1 } else { position = anchor }
        }
        notes.insert(note, at: position)
        try writeOrderFile(notes, of: notebook)
    }
}
