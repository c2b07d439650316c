import Foundation
import InkCore
import InkText

/// A copy of one of a note's files that a sync tool left beside it when two devices changed the file
/// at once (`X.sync-conflict-20261126-123456-ABCDEFG.inkpage`, `body (conflicted copy).md`, …).
public struct ConflictFile: Sendable, Equatable {
    /// The copy.
    public var url: URL
    /// The name of the note's file it is a copy of (`note.json`, `body.md`, `ID.inkpage`).
    public var original: String
    /// The tool whose naming it follows: Syncthing, Dropbox, Nextcloud, OneDrive or iCloud.
    public var tool: String
}

/// What resolving a note's conflicts did.
public struct ConflictResolution: Sendable, Equatable {
    public var note: NoteID
    /// The conflict files merged (now removed from the note's folder).
    public var merged: [ConflictFile]
    /// Strokes taken from the other copies, over all pages.
    public var strokesAdded: Int
    /// Strokes one copy had erased that the other still had, over all pages.
    public var erasuresApplied: Int
    /// The trash entry holding the note as it was before (its files and the conflict copies).
    public var before: TrashItem?
}

extension Library {
    /// The sync tools' conflict-copy names, each a pattern giving the original's base name and
    /// extension. OneDrive and iCloud append so little (`-DEVICE`, ` 2`) that a match counts only when
    /// the original is one of the note's own files.
    private static let conflictPatterns: [(tool: String, pattern: NSRegularExpression, loose: Bool)] = [
        ("Syncthing", #"^(.+)\.sync-conflict-\d{8}-\d{6}-[A-Z0-9]{7}(\.[^.]+)?$"#, false),
        // Nextcloud's names are Dropbox's with a date and time: the more specific pattern goes first.
        ("Nextcloud", #"^(.+) \(conflicted copy \d{4}-\d{2}-\d{2} \d{6}\)(\.[^.]+)?$"#, false),
        ("Dropbox", #"^(.+) \([^()]*conflicted copy[^()]*\)(\.[^.]+)?$"#, false),
        ("iCloud", #"^(.+) \d+(\.[^.]+)$"#, true),
        ("OneDrive", #"^(.+?)-[A-Za-z0-9][A-Za-z0-9_-]*(\.[^.]+)$"#, true),
    ].map { ($0.0, try! NSRegularExpression(pattern: $0.1), $0.2) }

    /// The note file `name` is a sync tool's conflict copy of, and the tool, when it is one;
    /// `isNoteFile` says which names are a note's own files.
    static func conflictOriginal(of name: String, isNoteFile: (String) -> Bool) -> (original: String, tool: String)? {
        guard !isNoteFile(name) else { return nil }
        let range = NSRange(name.startIndex..., in: name)
        for (tool, pattern, loose) in conflictPatterns {
            guard let match = pattern.firstMatch(in: name, range: range) else { continue }
            let base = Range(match.range(at: 1), in: name).map { String(name[$0]) } ?? ""
            let ext = Range(match.range(at: 2), in: name).map { String(name[$0]) } ?? ""
            let original = base + ext
            if isNoteFile(original) || (!loose && !original.isEmpty && Library.isNoteFileName(original)) { return (original, tool) }
        }
        return nil
    }

    /// True for the names of a note's own files: its metadata, typed text and page files.
    static func isNoteFileName(_ name: String) -> Bool {
        if name == "note.json" || name == typedTextName { return true }
        guard name.hasSuffix(pageSuffix) else { return false }
        return PageID.isWellFormed(String(name.dropLast(pageSuffix.count)))
    }

    /// The conflict copies in a note's folder, in name order.
    public func conflicts(of stored: StoredNote) -> [ConflictFile] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: stored.folder.path)) ?? []).sorted()
        let present = Set(names)
        return names.compactMap { name in
            guard !name.hasPrefix("."), let found = Library.conflictOriginal(of: name, isNoteFile: { present.contains($0) && Library.isNoteFileName($0) })
            else { return nil }
            return ConflictFile(url: stored.folder.appendingPathComponent(name), original: found.original, tool: found.tool)
        }
    }

    /// Merges the conflict copies of note `id` into it, losing nothing:
    /// - pages by stroke id: the strokes of both copies, each copy's erasures applied to the other's
    ///   strokes; a stroke id both copies drew anew keeps both strokes (the other copy's gets a new id);
    /// - typed text: both kept, the other copy's under a marked heading;
    /// - metadata: the most recently changed copy's, with the other copies' tags and pages added.
    /// The note as it was, conflict copies included, goes to the trash first (restorable as a note
    /// of its own). Nothing to merge: returns nil.
    @discardableResult
    public func resolveConflicts(of id: NoteID) throws -> ConflictResolution? {
        try withWriteLock {
            let stored = try locateNote(id)
            let conflicts = conflicts(of: stored)
            guard !conflicts.isEmpty else { return nil }
            var resolution = ConflictResolution(note: id, merged: conflicts, strokesAdded: 0, erasuresApplied: 0)
            resolution.before = try trashCopy(of: stored)
            let writer = NoteFolderWriter(folder: stored.folder)
            // Pages first, then the text, then the metadata that lists the pages.
            for conflict in conflicts where conflict.original.hasSuffix(Library.pageSuffix) {
                let id = PageID(rawValue: String(conflict.original.dropLast(Library.pageSuffix.count)))
                let url = stored.folder.appendingPathComponent(conflict.original)
                guard FileManager.default.fileExists(atPath: url.path) else {
                    // Only the copy survives: it is the page.
                    try DurableFile.move(conflict.url, to: url)
                    continue
                }
                let ours = try readPage(url, id: id), theirs = try readPage(conflict.url, id: id)
                let merge = PageMerge(ours, theirs)
                resolution.strokesAdded += merge.added
                resolution.erasuresApplied += merge.erased
                do {
                    try DurableFile.replace(url, with: try PageCodec.encodeFile(merge.page))
                } catch let error as PageEncodingError {
                    throw StoreError.encoding(url, error.reason)
                }
            }
            let bodies = conflicts.filter { $0.original == Library.typedTextName }
            if !bodies.isEmpty {
                let url = stored.folder.appendingPathComponent(Library.typedTextName)
                var text = (try? readTypedText(url)) ?? ""
                for copy in bodies {
                    // Text that is not UTF-8 is kept as far as it reads (the copy itself is in the trash).
                    let bytes = try DurableFile.read(copy.url)
                    let other = (try? readTypedText(copy.url)) ?? String(decoding: bytes, as: UTF8.self)
                    guard other != text, !other.isEmpty else { continue }
                    text += (text.isEmpty || text.hasSuffix("\n") ? "" : "\n")
                        + "\n## From another device's copy (\(copy.url.lastPathComponent))\n\n" + other
                }
                try writer.writeTypedText(TypedText(text))
            }
            var note = stored.note
            for copy in conflicts where copy.original == "note.json" {
                guard let other = try? JSONFile.read(NoteDocument.self, from: copy.url).note, other.id == id else { continue }
                let tags = note.tags.union(other.tags), pages = note.pages + other.pages.filter { !note.pages.contains($0) }
                if other.modified > note.modified { note = other }
                note.tags = tags
                note.pages = pages.filter { FileManager.default.fileExists(atPath: pageURL($0, in: stored.folder).path) }
            }
            if !bodies.isEmpty { _ = note.adopt(hashtags: TypedText((try? readTypedText(stored.folder.appendingPathComponent(Library.typedTextName))) ?? "").hashtags) }
            note.modified = max(note.modified, Date().wholeSeconds)
            try writer.writeMetadata(note)
            for copy in conflicts { unlink(copy.url.path) }
            try DurableFile.syncFolder(stored.folder)
            return resolution
        }
    }

    /// Puts a copy of the note's folder as it is (conflict copies included) in the trash, as a note of
    /// its own (a new id, titled "… (before resolving conflicts)"), so resolving can be undone by hand.
    private func trashCopy(of stored: StoredNote) throws -> TrashItem {
        var copy = stored.note
        copy.id = .random()
        copy.title = String("\(stored.note.title) (before resolving conflicts)".prefix(1_000))
        let staged = try stage(copy)
        defer { removeStagingParent(of: staged) }
        do {
            for name in try FileManager.default.contentsOfDirectory(atPath: stored.folder.path) where name != "note.json" && !name.hasPrefix(".") {
                try FileManager.default.copyItem(at: stored.folder.appendingPathComponent(name), to: staged.appendingPathComponent(name))
            }
        } catch {
            throw StoreError.io(stored.folder, "cannot copy the note before resolving: \(error.localizedDescription)")
        }
        return try moveToTrash(staged, kind: .note, name: copy.title, notebook: stored.notebook, noteCount: 1)
    }
}

/// Two copies of one page merged by stroke id (see ``Library/resolveConflicts(of:)``).
struct PageMerge {
    var page: Page
    /// Strokes taken from the other copy.
    var added = 0
    /// Strokes of ours that the other copy had erased.
    var erased = 0

    init(_ ours: DecodedPage, _ theirs: DecodedPage) {
        page = ours.page
        var byID = Dictionary(page.strokes.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        var nextID = max(page.strokes.map(\.id.rawValue).max() ?? 0, theirs.page.strokes.map(\.id.rawValue).max() ?? 0,
                         ours.removedStrokes.keys.map(\.rawValue).max() ?? 0, theirs.removedStrokes.keys.map(\.rawValue).max() ?? 0) + 1
        // Ours that the other copy erased (the very stroke, not another drawn under the same id there).
        let erasedThere = page.strokes.filter { theirs.removedStrokes[$0.id] == $0 }.map(\.id)
        for id in erasedThere { byID[id] = nil }
        erased = erasedThere.count
        for stroke in theirs.page.strokes {
            if byID[stroke.id] == stroke || ours.removedStrokes[stroke.id] == stroke { continue }
            var kept = stroke
            if byID[stroke.id] != nil || ours.removedStrokes[stroke.id] != nil {
                kept.id = StrokeID(nextID)
                nextID += 1
            }
            byID[kept.id] = kept
            added += 1
        }
        page.strokes = byID.values.sorted { $0.id < $1.id }
    }
}
