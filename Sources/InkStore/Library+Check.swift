import Foundation
import InkCore

/// Counts over the whole library.
public struct LibraryStats: Sendable, Codable, Equatable {
    public var notebooks: Int
    public var notes: Int
    public var pages: Int
    public var pinned: Int
    public var tags: Int
    public var trashed: Int
    public var strokes: Int
    public var points: Int
    public var bytes: Int
}

/// What `check` found in one page file.
public struct PageReport: Sendable, Equatable {
    public var note: NoteID
    public var noteTitle: String
    public var page: PageID
    public var file: URL
    /// Nil when the file is missing.
    public var decoded: DecodedPage?
    /// Where the PDF the page is drawn on should be, when the note's folder lacks it.
    public var missingBackground: URL?
    public var missing: Bool { decoded == nil }
    public var isDamaged: Bool { decoded?.isDamaged ?? true }
}

extension Library {
    /// Counts notes, pages, strokes and bytes (reads every page file).
    public func stats() throws -> LibraryStats {
        let notes = try notes()
        var stats = LibraryStats(notebooks: try notebooks().count, notes: notes.count,
                                 pages: notes.reduce(0) { $0 + $1.note.pages.count },
                                 pinned: notes.filter(\.note.pinned).count,
                                 tags: Set(notes.flatMap(\.note.tags)).count,
                                 trashed: try trashItems().count, strokes: 0, points: 0, bytes: 0)
        for stored in notes {
            for id in stored.note.pages {
                let url = pageURL(id, in: stored.folder)
                guard let decoded = try? readPage(url, id: id) else { continue }
                stats.strokes += decoded.page.strokes.count
                stats.points += decoded.page.pointCount
                stats.bytes += (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
            }
        }
        return stats
    }

    /// Reads every page of every note and reports, per page, what is intact and what is damaged.
    public func check() throws -> [PageReport] {
        try notes().flatMap { stored in
            stored.note.pages.map { id in
                let url = pageURL(id, in: stored.folder)
                var report = PageReport(note: stored.note.id, noteTitle: stored.note.title, page: id, file: url,
                                        decoded: try? readPage(url, id: id))
                if let page = report.decoded?.page, let document = missingBackgrounds(of: stored, pages: [page]).first {
                    report.missingBackground = Library.backgroundURL(document, in: stored.folder)
                        ?? stored.folder.appendingPathComponent(Library.backgroundsFolderName)
                }
                return report
            }
        }
    }
}

/// What `check` finds beyond page files: notes that cannot be read, notes found twice, and links
/// that could lead out of the library.
public struct LibraryProblems: Sendable, Equatable {
    /// Note folders whose metadata cannot be read.
    public var damaged: [DamagedNote] = []
    /// Trash entries whose `trash.json` cannot be read.
    public var damagedTrash: [DamagedTrashEntry] = []
    /// Note ids found in more than one folder, with those folders (two synced copies merged).
    public var duplicates: [NoteID: [URL]] = [:]
    /// Sync tools' conflict copies beside notes' files, by note.
    public var conflicts: [NoteID: [ConflictFile]] = [:]
    /// Symbolic links under `notebooks/` or `trash/`: never followed (they could lead out of the
    /// library, or round in a loop).
    public var symbolicLinks: [URL] = []

    public var isEmpty: Bool { damaged.isEmpty && damagedTrash.isEmpty && duplicates.isEmpty && conflicts.isEmpty && symbolicLinks.isEmpty }
}

extension Library {
    /// Finds what keeps notes from being read or told apart (``LibraryProblems``), without changing anything.
    public func problems() throws -> LibraryProblems {
        try withReadLock {
            let listing = try listingUnlocked(in: .root, recursive: true)
            var problems = LibraryProblems(damaged: listing.damaged)
            problems.duplicates = Dictionary(grouping: listing.notes, by: \.note.id)
                .filter { $0.value.count > 1 }.mapValues { $0.map(\.folder) }
            problems.damagedTrash = try trashListing().damaged
            for stored in listing.notes {
                let found = conflicts(of: stored)
                if !found.isEmpty { problems.conflicts[stored.note.id, default: []] += found }
            }
            problems.symbolicLinks = symbolicLinks(under: notebooksFolder) + symbolicLinks(under: trashFolder)
            return problems
        }
    }

    /// The symbolic links in `folder` and its real (not linked) sub-folders, in path order.
    private func symbolicLinks(under folder: URL) -> [URL] {
        var found: [URL] = []
        func walk(_ url: URL) {
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted() {
                let child = url.appendingPathComponent(name)
                if Library.isSymbolicLink(child) { found.append(child) } else if Library.isFolder(child) { walk(child) }
            }
        }
        walk(folder)
        return found
    }
}

/// What compacting one page did.
public struct CompactionResult: Sendable, Codable, Equatable {
    public var note: NoteID
    public var page: PageID
    public var bytesBefore: Int
    public var bytesAfter: Int
    public var strokesDropped: Int
}

extension Library {
    /// Rewrites pages that hold removed or replaced strokes so they keep only the live ones
    /// (atomically: temporary file, fsync, rename). Damaged pages are left alone unless `salvage`,
    /// which rewrites them with every intact chunk (what `check` calls salvageable).
    /// With `dryRun`, says what it would rewrite and writes nothing (nor takes the write lock).
    public func compact(_ notes: [StoredNote], salvage: Bool = false, dryRun: Bool = false) throws -> [CompactionResult] {
        dryRun ? try compactPages(notes, salvage: salvage, write: false) : try withWriteLock { try compactPages(notes, salvage: salvage, write: true) }
    }

    private func compactPages(_ notes: [StoredNote], salvage: Bool, write: Bool) throws -> [CompactionResult] {
        var results: [CompactionResult] = []
        for stored in notes {
            for id in stored.note.pages {
                let url = pageURL(id, in: stored.folder)
                guard FileManager.default.fileExists(atPath: url.path) else { continue }
                let before = try DurableFile.read(url)
                let decoded = before.withUnsafeBytes { PageCodec.decode($0, fallbackID: id) }
                guard decoded.isDamaged ? salvage : decoded.deadStrokeCount > 0 else { continue }
                let after: [UInt8]
                do {
                    after = try PageCodec.encodeFile(decoded.page)
                } catch {
                    throw StoreError.encoding(url, "\(error)")
                }
                if write { try DurableFile.replace(url, with: after) }
                results.append(CompactionResult(note: stored.note.id, page: id, bytesBefore: before.count,
                                                bytesAfter: after.count, strokesDropped: decoded.deadStrokeCount))
            }
        }
        return results
    }
}
