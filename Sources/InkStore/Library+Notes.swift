import Foundation
import InkCore

extension Library {
    /// Every note in the library, or in `notebook` (and, when `recursive`, its sub-notebooks), in listing
    /// order: pinned notes first, then the rest; within each, notebook by notebook (a notebook's own notes
    /// before its sub-notebooks', sub-notebooks by name), each notebook's notes in its manual order (notes
    /// without a place first, newest first; see ``moveNote(_:to:placement:)``).
    /// The listing is taken under the shared lock: a note being moved meanwhile is listed once,
    /// where it is before or after the move.
    ///
    /// A note whose metadata cannot be read is left out (``listing(in:recursive:)`` names it, and
    /// `inkwell check`), so one damaged note never hides the others.
    public func notes(in notebook: NotebookPath = .root, recursive: Bool = true) throws -> [StoredNote] {
        try listing(in: notebook, recursive: recursive).notes
    }

    /// The notes as ``notes(in:recursive:)`` lists them, with the note folders that could not be read
    /// and why: what a front end warns about once, and `check` reports.
    public func listing(in notebook: NotebookPath = .root, recursive: Bool = true) throws -> NoteListing {
        try withReadLock { try listingUnlocked(in: notebook, recursive: recursive) }
    }

    func notesUnlocked(in notebook: NotebookPath, recursive: Bool) throws -> [StoredNote] {
        try listingUnlocked(in: notebook, recursive: recursive).notes
    }

    func listingUnlocked(in notebook: NotebookPath, recursive: Bool) throws -> NoteListing {
        var found: [StoredNote] = [], damaged: [DamagedNote] = []
        func walk(_ path: NotebookPath) throws {
            let direct = try notesDirectly(in: path)
            found += NotebookOrder(direct.notes, file: try readOrderFile(of: path)).all
            damaged += direct.damaged
            guard recursive else { return }
            for name in try subfolders(of: folder(of: path)) where !name.hasSuffix(Library.noteSuffix) {
                if let child = try? path.appending(name) { try walk(child) }
            }
        }
        try walk(notebook)
        if !damaged.isEmpty { damageSeen.withLock { for item in damaged { $0[item.folder.path] = item.reason } } }
        return NoteListing(notes: found.filter(\.note.pinned) + found.filter { !$0.note.pinned }, damaged: damaged)
    }

    /// Finds one note by id, unique id prefix (4 characters or more) or exact title (case-insensitive).
    /// A note whose id is found twice (two synced copies merged) is refused until `check --repair`
    /// tells the copies apart: acting on one copy would leave the other behind.
    public func note(matching reference: String) throws -> StoredNote {
        let all = try notes()
        let exact = all.filter { $0.note.id.rawValue == reference }
        if exact.count > 1 { throw StoreError.duplicateNote(exact[0].note.id, exact.map(\.folder)) }
        if let exact = exact.first { return exact }
        var matches = reference.count >= 4 ? all.filter { $0.note.id.rawValue.hasPrefix(reference.lowercased()) } : []
        if matches.isEmpty {
            matches = all.filter { $0.note.title.caseInsensitiveCompare(reference) == .orderedSame }
        }
        if Set(matches.map(\.note.id)).count == 1, matches.count > 1 {
            throw StoreError.duplicateNote(matches[0].note.id, matches.map(\.folder))
        }
        switch matches.count {
        case 0: throw StoreError.noSuchNote(reference)
        case 1: return matches[0]
        default: throw StoreError.ambiguousNote(reference, matches.map(\.note))
        }
    }

    /// Creates an empty note (no pages) in `notebook`, creating the notebook if needed.
    public func createNote(title: String, in notebook: NotebookPath = .inbox, created: Date = Date(),
                           tags: Set<Tag> = [], pinned: Bool = false, source: String = "user") throws -> StoredNote {
        let note = Note(id: .random(), title: try Library.validTitle(title), created: created.wholeSeconds,
                        pinned: pinned, tags: tags, source: source)
        return try withWriteLock {
            let notebookFolder = folder(of: notebook)
            try makeFolders(notebookFolder)
            let noteFolder = notebookFolder.appendingPathComponent(Library.noteFolderName(note.id), isDirectory: true)
            let staged = try stage(note)
            try DurableFile.move(staged, to: noteFolder)
            // The staging area the note was made in is empty now: it goes too, not left for `check` to report.
            removeStagingParent(of: staged)
            return StoredNote(note: note, notebook: notebook, folder: noteFolder)
        }
    }

    /// Changes a note's metadata under the lock: `change` sees the current version on disk.
    @discardableResult
    public func updateNote(_ id: NoteID, _ change: (inout Note) throws -> Void) throws -> StoredNote {
        try withWriteLock {
            var stored = try locateNote(id)
            try change(&stored.note)
            stored.note.id = id
            stored.note.title = try Library.validTitle(stored.note.title)
            stored.note.modified = Date().wholeSeconds
            try NoteFolderWriter(folder: stored.folder).writeMetadata(stored.note)
            return stored
        }
    }

    /// Moves a note to another notebook (created if needed), to a place in its notebook's manual order,
    /// or both. A note moved to another notebook without a placement has no place there yet: it is listed
    /// with the new notes, first. `.before` and `.after` name a note in the destination notebook.
    /// A move to another notebook of a note a server has open for writing is refused unless `force`
    /// (a place in its own notebook's order is not the note's folder, and is allowed).
    @discardableResult
    public func moveNote(_ id: NoteID, to notebook: NotebookPath? = nil, placement: NotePlacement? = nil,
                         force: Bool = false) throws -> StoredNote {
        try withWriteLock {
            var stored = try locateNote(id)
            let destination = notebook ?? stored.notebook
            if destination != stored.notebook { try requireNotOpen(id, title: stored.note.title, force: force) }
            switch placement {
            case .before(let other), .after(let other):
                guard other != id else { throw StoreError.invalid("a note cannot be placed before or after itself") }
                let anchor = try locateNote(other)
                guard anchor.notebook == destination else {
                    throw StoreError.invalid("\"\(anchor.note.title)\" is in \(anchor.notebook.displayName), not in \(destination.displayName)")
                }
            case .first, .last, nil: break
            }
            stored = try moveNoteUnlocked(stored, to: destination)
            if let placement { try place(id, placement, in: destination) }
            return stored
        }
    }

    /// The move to another notebook itself: one rename of the note folder, and the note leaves its old
    /// notebook's manual order. The caller holds the lock.
    func moveNoteUnlocked(_ stored: StoredNote, to destination: NotebookPath) throws -> StoredNote {
        var stored = stored
        if destination != stored.notebook {
            let destinationFolder = folder(of: destination)
            try makeFolders(destinationFolder)
            let moved = destinationFolder.appendingPathComponent(Library.noteFolderName(stored.note.id), isDirectory: true)
            try DurableFile.move(stored.folder, to: moved)
            try removeFromOrder(stored.note.id, of: stored.notebook)
            stored.notebook = destination
            stored.folder = moved
        }
        return stored
    }

    /// Moves a note to the trash, remembering its place in the notebook's manual order for ``restore(_:)``;
    /// its journal goes with it. A note a server has open for writing is refused unless `force`.
    @discardableResult
    public func deleteNote(_ id: NoteID, force: Bool = false) throws -> TrashItem {
        try withWriteLock {
            let stored = try locateNote(id)
            try requireNotOpen(id, title: stored.note.title, force: force)
            let place = try notebookOrder(stored.notebook).neighbours(of: id)
            let item = try moveToTrash(stored.folder, kind: .note, name: stored.note.title, notebook: stored.notebook,
                                       noteCount: 1, place: place, journals: [id])
            try removeFromOrder(id, of: stored.notebook)
            return item
        }
    }

    /// Reads every page of a note, in order, wherever the note is now (it may have moved since it
    /// was listed); a damaged page throws (``check()`` reports what is salvageable).
    public func pages(of stored: StoredNote) throws -> [Page] {
        try decodedPages(of: stored).map(\.page)
    }

    /// Every page of a note as ``pages(of:)`` reads it, with the id past every stroke its file ever
    /// held (those since erased or undone too): what a new stroke on it is numbered from, so that an
    /// id never names two strokes of a page. A page file ending in a torn append (a crash inside a
    /// save) is first cut back to its whole chunks, as the next append would; other damage throws.
    public func pagesForWriting(of stored: StoredNote) throws -> (pages: [Page], nextStrokeIDs: [PageID: StrokeID]) {
        let decoded: [DecodedPage]
        do {
            decoded = try decodedPages(of: stored)
        } catch StoreError.damagedPage {
            try withWriteLock {
                let current = try locateNote(stored.note.id)
                for id in current.note.pages {
                    _ = try DurableFile.cutTornTail(pageURL(id, in: current.folder), whole: PageCodec.wholeLength)
                }
            }
            decoded = try decodedPages(of: stored)
        }
        var next: [PageID: StrokeID] = [:]
        for page in decoded {
            let highest = max(page.page.strokes.map(\.id.rawValue).max() ?? 0, page.removedStrokes.keys.map(\.rawValue).max() ?? 0)
            next[page.page.id] = StrokeID(highest &+ 1)
        }
        return (decoded.map(\.page), next)
    }

    private func decodedPages(of stored: StoredNote) throws -> [DecodedPage] {
        try readingNote(stored) { current in
            try stored.note.pages.map { id in
                let url = pageURL(id, in: current.folder)
                let decoded = try readPage(url, id: id)
                if let problem = decoded.problems.first(where: \.isDamage) { throw StoreError.damagedPage(url, problem) }
                return decoded
            }
        }
    }

    /// Runs `read` on the files of a note listed earlier. Should the note move (or go to the trash)
    /// while it reads, its folder is gone and `read` fails: it is then run again under the shared
    /// lock, with the note where it is now, so a reader sees the note before or after a move, never
    /// a missing file. Reads that do not race a move take no lock.
    public func readingNote<T>(_ stored: StoredNote, _ read: (StoredNote) throws -> T) throws -> T {
        do {
            return try read(stored)
        } catch {
            guard !FileManager.default.fileExists(atPath: stored.folder.appendingPathComponent("note.json").path) else { throw error }
            return try withReadLock { try read(try locateNote(stored.note.id)) }
        }
    }

    /// Reads one page file, reporting (not throwing on) damage.
    public func readPage(_ url: URL, id: PageID) throws -> DecodedPage {
        let bytes = try DurableFile.read(url)
        return bytes.withUnsafeBytes { PageCodec.decode($0, fallbackID: id) }
    }

    /// The note with `id`, wherever it is, read fresh from disk.
    func locateNote(_ id: NoteID) throws -> StoredNote {
        guard NoteID.isWellFormed(id.rawValue) else { throw StoreError.noSuchNote(id.rawValue) }
        let name = Library.noteFolderName(id)
        func search(_ path: NotebookPath) throws -> StoredNote? {
            let here = folder(of: path)
            for child in try subfolders(of: here) {
                if child == name {
                    let noteFolder = here.appendingPathComponent(child, isDirectory: true)
                    let note = try JSONFile.read(NoteDocument.self, from: noteFolder.appendingPathComponent("note.json")).note
                    return StoredNote(note: note, notebook: path, folder: noteFolder)
                }
                if !child.hasSuffix(Library.noteSuffix), let sub = try? path.appending(child), let hit = try search(sub) {
                    return hit
                }
            }
            return nil
        }
        guard let found = try search(.root) else { throw StoreError.noSuchNote(id.rawValue) }
        return found
    }

    /// `text` made a valid title (``validTitle(_:)``): control characters (a line break, an escape)
    /// and runs of white space become one space, the ends are trimmed, and what is left is cut to
    /// 1,000 characters (a title of nothing else stays empty, and is refused as such). For titles
    /// taken from file names and from other software's files, which may hold anything (bytes that
    /// are not UTF-8 arrive as U+FFFD).
    public static func cleanTitle(_ text: String) -> String {
        var cleaned = ""
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if scalar.properties.generalCategory == .control || scalar.properties.isWhitespace {
                pendingSpace = !cleaned.isEmpty
                continue
            }
            if pendingSpace { cleaned.append(" ") }
            pendingSpace = false
            cleaned.unicodeScalars.append(scalar)
        }
        return String(cleaned.prefix(1_000))
    }

    /// Titles are free text, but not empty, not over 1,000 characters and without control characters.
    /// Returns the title trimmed, or throws ``StoreError/invalid(_:)`` saying what is wrong with it.
    public static func validTitle(_ title: String) throws -> String {
        let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw StoreError.invalid("a note title cannot be empty") }
        guard trimmed.count <= 1_000 else { throw StoreError.invalid("a note title is limited to 1,000 characters") }
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw StoreError.invalid("a note title cannot contain control characters")
        }
        return trimmed
    }
}
