import Foundation
import InkCore
import InkText

/// Writes page files and metadata inside one note folder. The caller holds the lock or owns the folder.
struct NoteFolderWriter {
    let folder: URL
    /// Whether each page write is synced as it is made (a note in the library). A staged note's are
    /// not: ``Library/commit(_:)`` syncs its folder once, before moving it in.
    var syncsEachWrite = true

    /// A new page gets a whole file (written atomically); an existing one gets chunks appended,
    /// so the cost of a save grows with what changed, not with the page.
    func apply(_ change: PageDelta) throws {
        let url = folder.appendingPathComponent(change.pageID.rawValue + Library.pageSuffix)
        // A page is created whole, with its size and paper; an existing one gets chunks appended.
        let creating = change.isNew || !FileManager.default.fileExists(atPath: url.path)
        var records: [PageRecord] = []
        if creating {
            records.append(.header(id: change.pageID, size: change.size, template: change.template))
        }
        records += change.addedStrokes.map(PageRecord.stroke)
        if !change.removedStrokeIDs.isEmpty { records.append(.removal(change.removedStrokeIDs)) }
        let chunks: [UInt8]
        do {
            chunks = try PageCodec.encode(records)
        } catch {
            throw StoreError.encoding(url, error.reason)
        }
        if creating {
            if syncsEachWrite {
                try DurableFile.replace(url, with: PageCodec.fileStart + chunks)
            } else {
                try DurableFile.writeUnsynced(url, PageCodec.fileStart + chunks)
            }
        } else if !chunks.isEmpty {
            try DurableFile.append(url, chunks, whole: PageCodec.wholeLength, sync: syncsEachWrite)
        }
    }

    func writeMetadata(_ note: Note) throws {
        let url = folder.appendingPathComponent("note.json")
        // The same rule the reader applies: an origin written here that a read would refuse would make
        // the note unreadable at once, so it is refused before anything is written.
        if let origin = note.origin, let problem = NoteDocument.problem(with: origin) {
            throw StoreError.encoding(url, "the note's origin cannot be kept: \(problem)")
        }
        // A note written again drops what interrupted writes of it left behind.
        Library.removeStaleTemporaries(in: folder)
        try JSONFile.write(NoteDocument(note), to: url)
    }

    /// Writes the note's typed text (body.md) atomically, or removes the file for empty text. Text
    /// over ``TypedText/maximumBytes`` is refused, naming the file.
    func writeTypedText(_ text: TypedText) throws {
        let url = folder.appendingPathComponent(Library.typedTextName)
        let bytes = Array(text.text.utf8)
        guard bytes.count <= TypedText.maximumBytes else {
            throw StoreError.badText(url, TypedTextError.tooLarge(bytes: bytes.count).description)
        }
        if !bytes.isEmpty {
            try DurableFile.replace(url, with: bytes)
        } else if FileManager.default.fileExists(atPath: url.path) {
            guard unlink(url.path) == 0 else { throw StoreError.io(url, "cannot remove: \(errnoText())") }
            try DurableFile.syncFolder(folder)
        }
    }
}

/// A note being built outside the library (by an import) until ``Library/commit(_:)`` moves it in whole.
public struct StagedNote: Sendable {
    public private(set) var note: Note
    public let notebook: NotebookPath
    let folder: URL
    /// The pages, when they are held in memory until ``writePages(_:)`` rather than written as they
    /// are saved (an update, which keeps only the pages that changed).
    var held: [PageID: Page]?
    /// The ids in `note.pages`, to tell a new page without going through them all.
    var pageIDs: Set<PageID> = []

    /// Writes a page change into the staged note (or, holding its pages, into memory), adding new
    /// pages to its page list.
    public mutating func apply(_ change: PageDelta) throws {
        if held != nil {
            var page = held?[change.pageID] ?? Page(id: change.pageID, size: change.size, template: change.template)
            if !change.removedStrokeIDs.isEmpty {
                let removed = Set(change.removedStrokeIDs)
                page.strokes.removeAll { removed.contains($0.id) }
            }
            page.strokes += change.addedStrokes
            held?[change.pageID] = page
            if pageIDs.insert(change.pageID).inserted { note.pages.append(change.pageID) }
            return
        }
        // Written unsynced, and the page list kept here: the commit writes note.json and syncs the
        // folder once. (Four syncs a page and the page list rewritten: 2,000 pages took 25 s to import.)
        try NoteFolderWriter(folder: folder, syncsEachWrite: false).apply(change)
        if pageIDs.insert(change.pageID).inserted { note.pages.append(change.pageID) }
    }

    /// Replaces the staged metadata (title, tags, …); the id stays.
    public mutating func update(_ change: (inout Note) -> Void) throws {
        let id = note.id
        change(&note)
        note.id = id
        note.title = try Library.validTitle(note.title)
        try NoteFolderWriter(folder: folder).writeMetadata(note)
    }

    /// Gives the staged note typed text (body.md); its hashtags become tags, as typing them would.
    /// Text over ``TypedText/maximumBytes`` is refused, naming the note.
    public mutating func setTypedText(_ text: TypedText) throws {
        guard !text.text.isEmpty else { return }
        let writer = NoteFolderWriter(folder: folder)
        do {
            try writer.writeTypedText(text)
        } catch StoreError.badText(let url, let reason) {
            throw StoreError.badText(url, "note \"\(note.title)\": \(reason)")
        }
        _ = note.adopt(hashtags: text.hashtags)
        try writer.writeMetadata(note)
    }

    /// Writes the held pages `ids` as files, each whole (``Library/stage(title:in:created:tags:pinned:source:holdingPages:)``).
    public func writePages(_ ids: [PageID]) throws {
        for id in ids {
            guard let page = held?[id] else { continue }
            let url = folder.appendingPathComponent(id.rawValue + Library.pageSuffix)
            do {
                try DurableFile.replace(url, with: try PageCodec.encodeFile(page))
            } catch let error as PageEncodingError {
                throw StoreError.encoding(url, error.reason)
            }
        }
    }

    /// One page as staged so far, read back from its file (exactly what the commit will move in), or
    /// as its file would give it back when held in memory.
    public func page(_ id: PageID) throws -> Page {
        if let page = held?[id] {
            return try PageCodec.decodeStrict(PageCodec.encodeFile(page), fallbackID: id)
        }
        let url = folder.appendingPathComponent(id.rawValue + Library.pageSuffix)
        let decoded = try DurableFile.read(url).withUnsafeBytes { PageCodec.decode($0, fallbackID: id) }
        if let problem = decoded.problems.first(where: \.isDamage) { throw StoreError.damagedPage(url, problem) }
        return decoded.page
    }
}

extension Library {
    /// Starts a note outside the library; nothing is visible until ``commit(_:)``. `holdingPages`
    /// keeps its pages in memory until ``StagedNote/writePages(_:)``.
    public func stage(title: String, in notebook: NotebookPath, created: Date, tags: Set<Tag> = [],
                      pinned: Bool = false, source: String, holdingPages: Bool = false) throws -> StagedNote {
        // Nothing is staged (pages, PDFs) for a library the commit would refuse (its marker as it is now).
        try Library.requireWritable(try LibraryFormat.read(libraryAt: root), root: root)
        let note = Note(id: .random(), title: try Library.validTitle(title), created: created.wholeSeconds,
                        pinned: pinned, tags: tags, source: source)
        return StagedNote(note: note, notebook: notebook, folder: try stage(note), held: holdingPages ? [:] : nil)
    }

    /// Moves staged notes into the library together: all of them appear, or (on failure) none.
    /// Each staged note's metadata is written and its files synced first (outside the lock).
    @discardableResult
    public func commit(_ staged: [StagedNote]) throws -> [StoredNote] {
        for item in staged {
            try NoteFolderWriter(folder: item.folder).writeMetadata(item.note)
            try DurableFile.syncTree(item.folder)
        }
        return try withWriteLock {
            var done: [(from: URL, to: URL)] = []
            do {
                var stored: [StoredNote] = []
                for item in staged {
                    let notebookFolder = folder(of: item.notebook)
                    try makeFolders(notebookFolder)
                    let destination = notebookFolder.appendingPathComponent(Library.noteFolderName(item.note.id), isDirectory: true)
                    try DurableFile.move(item.folder, to: destination)
                    done.append((item.folder, destination))
                    stored.append(StoredNote(note: item.note, notebook: item.notebook, folder: destination))
                }
                for item in staged { removeStagingParent(of: item.folder) }
                return stored
            } catch {
                for move in done.reversed() { try? DurableFile.move(move.to, to: move.from) }
                throw error
            }
        }
    }

    /// Throws staged notes away.
    public func discard(_ staged: [StagedNote]) {
        for item in staged { removeStagingParent(of: item.folder) }
    }

    /// Saves page changes to a note already in the library (the live editor's autosave).
    public func save(_ changes: [PageDelta], to id: NoteID) throws {
        try withWriteLock {
            var stored = try locateNote(id)
            let writer = NoteFolderWriter(folder: stored.folder)
            for change in changes { try writer.apply(change) }
            let newPages = changes.map(\.pageID).filter { !stored.note.pages.contains($0) }
            if !newPages.isEmpty {
                stored.note.pages += newPages
            }
            stored.note.modified = Date().wholeSeconds
            try writer.writeMetadata(stored.note)
        }
    }

    /// A private staging folder holding a note folder with its metadata written.
    func stage(_ note: Note) throws -> URL {
        removeAbandonedStaging()
        let area = stagingFolder.appendingPathComponent("\(getpid())-\(NoteID.random().rawValue)", isDirectory: true)
        let noteFolder = area.appendingPathComponent(Library.noteFolderName(note.id), isDirectory: true)
        do {
            try makeFolders(noteFolder)
            try NoteFolderWriter(folder: noteFolder).writeMetadata(note)
        } catch {
            try? FileManager.default.removeItem(at: area)
            throw error
        }
        return noteFolder
    }

    func removeStagingParent(of noteFolder: URL) {
        try? FileManager.default.removeItem(at: noteFolder.deletingLastPathComponent())
    }

    /// Staging folders of processes that died (their pid no longer runs) hold nothing anyone wants.
    private func removeAbandonedStaging() {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: stagingFolder.path) else { return }
        for entry in entries where Library.processIsGone(stagingArea: entry) {
            try? FileManager.default.removeItem(at: stagingFolder.appendingPathComponent(entry))
        }
    }
}
