import Foundation
import InkCore
import InkText

/// An imported note brought up to date with its source (``Library/applyUpdate(_:)``): the note as
/// the update was worked out from, the fresh import staged beside the library, and what to commit.
public struct NoteUpdate: Sendable {
    /// The note as it was when the update was worked out: if it changed since (an edit, another
    /// import), the update is refused rather than lose that change.
    public var expected: Note
    /// The source imported afresh; the pages of ``note`` that are not in the library yet are taken from it.
    public var staged: StagedNote
    /// The metadata to commit: the note's id, its pages in order (pages it keeps and pages from
    /// ``staged``), title, dates, tags and origin.
    public var note: Note
    /// The note's pages as they were that the update replaces or removes: kept in the trash, as a note
    /// of their own, before anything changes.
    public var retired: [PageID]
    /// The note's new typed text (nil: left as it is).
    public var typedText: TypedText?

    public init(expected: Note, staged: StagedNote, note: Note, retired: [PageID], typedText: TypedText? = nil) {
        self.expected = expected
        self.staged = staged
        self.note = note
        self.retired = retired
        self.typedText = typedText
    }
}

extension Library {
    /// The hash (``FNV1a/hex(_:)``) of page `id`'s file in the note; nil when it has none.
    public func pageFileHash(_ id: PageID, of stored: StoredNote) -> String? {
        (try? DurableFile.read(pageURL(id, in: stored.folder))).map(FNV1a.hex)
    }

    /// Applies an update from a note's source, so that a crash at any point leaves the note as it was
    /// or as updated: the pages it retires are copied to the trash first, the new pages move in under
    /// their new ids (files no note lists yet), then `note.json` is written (the commit point), and
    /// only then are the files of pages it no longer lists removed. The note stays in its notebook.
    /// Returns the note as updated and the trash entry holding the retired pages, if any.
    @discardableResult
    public func applyUpdate(_ update: NoteUpdate) throws -> (note: StoredNote, retired: TrashItem?) {
        defer { discard([update.staged]) }
        return try withWriteLock {
            var stored = try locateNote(update.expected.id)
            // A server writing the note would keep saving onto pages the update replaces.
            try requireNotOpen(stored.note.id, title: stored.note.title, force: false)
            guard stored.note == update.expected else {
                throw StoreError.invalid("note \(stored.note.id) \"\(stored.note.title)\" changed while it was being updated from its source; nothing was changed (import it again)")
            }
            let trashed = update.retired.isEmpty ? nil : try retire(update.retired, of: stored)
            let fileManager = FileManager.default
            for id in update.note.pages where !fileManager.fileExists(atPath: pageURL(id, in: stored.folder).path) {
                let from = pageURL(id, in: update.staged.folder)
                guard fileManager.fileExists(atPath: from.path) else {
                    throw StoreError.invalid("page \(id) of the update of note \(stored.note.id) is neither in the note nor in the import")
                }
                try DurableFile.move(from, to: pageURL(id, in: stored.folder))
            }
            let backgrounds = update.staged.folder.appendingPathComponent(Library.backgroundsFolderName)
            for name in (try? fileManager.contentsOfDirectory(atPath: backgrounds.path)) ?? [] where name.hasSuffix(".pdf") {
                guard let target = Library.backgroundURL(String(name.dropLast(4)), in: stored.folder),
                      !fileManager.fileExists(atPath: target.path) else { continue }
                try makeFolders(target.deletingLastPathComponent())
                try DurableFile.move(backgrounds.appendingPathComponent(name), to: target)
            }
            var note = update.note
            note.id = stored.note.id
            note.title = try Library.validTitle(note.title)
            let writer = NoteFolderWriter(folder: stored.folder)
            // The text just before the commit point (it is one file, replaced whole): killed between
            // the two, the note has its old pages and the new text, and its origin still the old
            // hash, so the next import or sync finds the source changed and finishes the update.
            if let text = update.typedText { try writer.writeTypedText(text) }
            try writer.writeMetadata(note)
            for id in stored.note.pages where !note.pages.contains(id) {
                unlink(pageURL(id, in: stored.folder).path)
            }
            try DurableFile.syncFolder(stored.folder)
            stored.note = note
            return (stored, trashed)
        }
    }

    /// The trash entry holding `pages` of `stored` as an update retires them: the one an update of
    /// the same note, from the same source state, put there before being killed (so running it again
    /// doubles nothing), or a new one. The caller holds the lock.
    private func retire(_ pages: [PageID], of stored: StoredNote) throws -> TrashItem {
        let key = ([stored.note.id.rawValue, stored.note.origin?.hash ?? "-"] + pages.map(\.rawValue)).joined(separator: " ")
        if let earlier = try trashItems().first(where: { $0.retiredBy == key }) { return earlier }
        return try trashCopy(of: stored, pages: pages, key: key)
    }

    /// Puts a note of its own in the trash holding copies of `pages` of `stored` (and its background
    /// PDFs), titled "… (before an update from its source)", remembering `key`. The caller holds the lock.
    private func trashCopy(of stored: StoredNote, pages: [PageID], key: String) throws -> TrashItem {
        var copy = stored.note
        copy.id = .random()
        copy.title = String("\(stored.note.title) (before an update from its source)".prefix(1_000))
        copy.pages = pages
        copy.origin = nil
        let staged = try stage(copy)
        defer { removeStagingParent(of: staged) }
        // Copied through DurableFile (written and synced), so the trash entry is whole once it is in the trash.
        for id in pages where FileManager.default.fileExists(atPath: pageURL(id, in: stored.folder).path) {
            try DurableFile.replace(pageURL(id, in: staged), with: try DurableFile.read(pageURL(id, in: stored.folder)))
        }
        let backgrounds = stored.folder.appendingPathComponent(Library.backgroundsFolderName)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: backgrounds.path)) ?? [] where name.hasSuffix(".pdf") {
            let copy = staged.appendingPathComponent(Library.backgroundsFolderName).appendingPathComponent(name)
            try makeFolders(copy.deletingLastPathComponent())
            try DurableFile.replace(copy, with: try DurableFile.read(backgrounds.appendingPathComponent(name)))
        }
        return try moveToTrash(staged, kind: .note, name: copy.title, notebook: stored.notebook, noteCount: 1, retiredBy: key)
    }
}

extension StagedNote {
    /// The hash (``FNV1a/hex(_:)``) of staged page `id`'s file; nil when there is none.
    public func pageFileHash(_ id: PageID) -> String? {
        (try? DurableFile.read(folder.appendingPathComponent(id.rawValue + Library.pageSuffix))).map(FNV1a.hex)
    }
}
