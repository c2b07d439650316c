import Foundation
import InkCore
import InkIndex
import InkStore
import InkText
import InkWorkspace

/// The library as a whole: opening and creating it, its counts, checks, compaction and upgrade.
extension Workspace {
    /// The workspace of the library at `location`, which must exist (only ``createLibrary(at:)`` makes
    /// one, so a mistyped path never starts a second library), its index as in ``init(library:indexURL:)``.
    public convenience init(opening location: URL, indexURL: String? = nil) throws {
        self.init(library: try Library(opening: location), indexURL: indexURL)
    }

    /// The same library with its index at `indexURL` (nil: the library's own).
    public func withIndex(at indexURL: String?) -> Workspace {
        Workspace(library: library, indexURL: indexURL)
    }

    /// `$INKWELL_LIBRARY`, else `$XDG_DATA_HOME/inkwell`, else `~/.local/share/inkwell`.
    public static func defaultLibraryLocation() -> URL { Library.defaultLocation() }

    /// Creates a library at `location` (or confirms the one there); its folder.
    public static func createLibrary(at location: URL) throws -> URL { try Library.create(at: location).root }

    /// The library's folder.
    public var libraryFolder: URL { library.root }

    /// Fails, saying why, when the library cannot be written (read-only, or from a newer Inkwell).
    public func checkWritable() throws { try library.checkWritable() }

    /// The error of a library whose lock another process holds: `folder` is what was waited for.
    public static func lockedError(_ folder: URL) -> any Error { StoreError.locked(folder) }

    /// Brings a library written by an older Inkwell to this one's format.
    public func upgrade() throws -> LibraryUpgrade { try library.upgrade() }

    /// Counts of notebooks, notes, pages, strokes, points, tags, trash and page bytes.
    public func stats() throws -> LibraryStats { try library.stats() }

    /// Every tag with the number of notes that have it, most used first (then by name).
    public func tagCounts() throws -> [(tag: String, notes: Int)] {
        var counts: [String: Int] = [:]
        for stored in try library.notes() {
            for tag in stored.note.tags { counts[tag.name, default: 0] += 1 }
        }
        return counts.map { (tag: $0.key, notes: $0.value) }.sorted { ($1.notes, $0.tag) < ($0.notes, $1.tag) }
    }

    /// Verifies every page file and typed text, and lists leftovers of interrupted writes and the
    /// journals of changes a stopped server had not saved yet.
    public func check() throws -> LibraryCheck {
        let reports = try library.check()
        var rows = reports.map { report in
            CheckRow(kind: "page", note: report.note.rawValue, title: report.noteTitle, page: report.page.rawValue, file: report.file.path,
                     missing: report.missing, damaged: report.isDamaged,
                     readableStrokes: report.decoded?.page.strokes.count ?? 0,
                     problems: report.decoded?.problems.map(\.description) ?? ["file is missing"])
        }
        rows += reports.compactMap { report in
            report.missingBackground.map { url in
                CheckRow(kind: "background", note: report.note.rawValue, title: report.noteTitle, page: report.page.rawValue, file: url.path,
                         missing: true, damaged: true, readableStrokes: report.decoded?.page.strokes.count ?? 0,
                         problems: ["the PDF page \(report.page.rawValue) is drawn on is missing: the page is drawn on plain paper"])
            }
        }
        // Placeholders an import left for source pages it could not read: not damage, but worth saying.
        rows += reports.compactMap { report in
            report.decoded?.page.template.unreadableNotice.map { notice in
                CheckRow(kind: "placeholder", note: report.note.rawValue, title: report.noteTitle, page: report.page.rawValue, file: report.file.path,
                         missing: false, damaged: false, readableStrokes: 0, problems: ["a placeholder left by the import: \(notice)"])
            }
        }
        let texts = try library.checkTypedTexts()
        rows += texts.map { report in
            CheckRow(kind: "text", note: report.note.rawValue, title: report.noteTitle, page: "", file: report.file.path,
                     missing: false, damaged: true, readableStrokes: 0, problems: [report.problem])
        }
        rows += try problemRows()
        let leftovers = library.leftovers()
        rows += leftovers.map { leftover in
            CheckRow(kind: "leftover", note: "", title: "", page: "", file: leftover.path, missing: false, damaged: false, readableStrokes: 0,
                     problems: ["left by an interrupted write (\(leftover.bytes) bytes); `inkwell compact` removes it"])
        }
        rows += library.notesWithJournal().map { note in
            CheckRow(kind: "journal", note: note.rawValue, title: "", page: "", file: library.journalURL(of: note).path,
                     missing: false, damaged: false, readableStrokes: 0,
                     problems: ["changes `inkwell serve` kept in the note's journal and has not saved into its pages yet; "
                                + "a running server saves them, a killed one's are applied by the next `inkwell check` or `inkwell serve`"])
        }
        return LibraryCheck(rows: rows, pages: reports.count, unreadableTexts: texts.count,
                            leftovers: leftovers.map { ($0.path, $0.bytes) })
    }

    /// What keeps notes from being read or told apart, as check rows: damaged note folders and trash
    /// entries, note ids found twice, sync tools' conflict copies and symbolic links.
    private func problemRows() throws -> [CheckRow] {
        let problems = try library.problems()
        func row(_ kind: String, note: String = "", title: String = "", file: URL, damaged: Bool = true, _ problem: String) -> CheckRow {
            CheckRow(kind: kind, note: note, title: title, page: "", file: file.path, missing: false, damaged: damaged, readableStrokes: 0,
                     problems: [problem])
        }
        var rows = problems.damaged.map { damaged in
            row("note", file: damaged.folder, "\(damaged.reason); the note is skipped everywhere until `inkwell check --repair` rebuilds its note.json")
        }
        rows += problems.damagedTrash.map { damaged in
            row("trash", file: damaged.folder, "\(damaged.reason); `inkwell check --repair` rebuilds its trash.json")
        }
        for (id, folders) in problems.duplicates.sorted(by: { $0.key < $1.key }) {
            rows += folders.map { folder in
                row("duplicate", note: id.rawValue, file: folder,
                    "note \(id) is in \(folders.count) folders (two synced copies); commands refuse it until `inkwell check --repair` gives the copy changed later its own id")
            }
        }
        for (id, conflicts) in problems.conflicts.sorted(by: { $0.key < $1.key }) {
            rows += conflicts.map { conflict in
                row("conflict", note: id.rawValue, file: conflict.url,
                    "a \(conflict.tool) conflict copy of \(conflict.original): another device's version, hidden until `inkwell resolve \(id)` merges it")
            }
        }
        rows += problems.symbolicLinks.map { link in
            row("link", file: link, damaged: false, "a symbolic link: never followed (it could lead out of the library)")
        }
        return rows
    }

    /// Repairs what ``check()`` reports and can be repaired without losing anything: an unreadable
    /// `note.json` or `trash.json` rebuilt from its folder (the old file kept beside it), a note found
    /// twice split into two notes. Says what it did and what it guessed.
    public func repair() throws -> [RepairRow] {
        try library.repair().map { RepairRow(folder: $0.folder.path, action: $0.action, guessed: $0.guessed) }
    }

    /// Merges the sync tools' conflict copies of the note `reference` names into it (pages by stroke
    /// id, both texts, newest metadata with every tag; the note as it was goes to the trash first);
    /// nil when it has none.
    public func resolveConflicts(of reference: String) throws -> ConflictOutcome? {
        let stored = try library.note(matching: reference)
        guard let resolution = try library.resolveConflicts(of: stored.note.id) else { return nil }
        _ = try afterChange().tagsChanged([stored.note.id])
        return ConflictOutcome(note: stored.note.id.rawValue, title: stored.note.title,
                               merged: resolution.merged.map { $0.url.lastPathComponent },
                               strokesAdded: resolution.strokesAdded, erasuresApplied: resolution.erasuresApplied,
                               before: resolution.before?.id)
    }

    /// Note folders this workspace's listings skipped because their metadata cannot be read, and why:
    /// what a front end warns about once.
    public var skippedDamage: [(folder: String, reason: String)] {
        library.damageSeen.withLock { $0 }.sorted { $0.key < $1.key }.map { (folder: $0.key, reason: $0.value) }
    }

    /// Rewrites the pages of the notes `references` name (every note when empty) without erased and
    /// undone strokes (with `salvage`, damaged pages too, keeping what is readable), then removes the
    /// leftovers of interrupted writes. With `dryRun`, what it would rewrite and remove; nothing changes.
    public func compact(_ references: [String], salvage: Bool, dryRun: Bool = false) throws -> CompactOutcome {
        let selected = references.isEmpty ? try library.notes() : try references.map { try library.note(matching: $0) }
        let results = try library.compact(selected, salvage: salvage, dryRun: dryRun)
        let removed = dryRun ? library.leftovers() : try library.removeLeftovers()
        return CompactOutcome(results: results, removed: removed.map { ($0.path, $0.bytes) })
    }

    /// A note's details as `note show` prints them: the note, each page (size, template, strokes, layers,
    /// PDF page, damage, recognition status) and its typed text's counts.
    public func details(of reference: String) throws -> NoteDetails {
        let stored = try library.note(matching: reference)
        let states = try recognitionStates(of: [stored])
        let rows = stored.note.pages.enumerated().map { index, id in
            let state = states.state(of: id)
            var row = NoteDetails.PageRow(number: index + 1, id: id.rawValue, width: 0, height: 0, template: "-", strokes: 0, points: 0,
                                          status: state.status, reason: state.reason)
            do {
                let decoded = try library.readPage(library.pageURL(id, in: stored.folder), id: id)
                let page = decoded.page
                (row.width, row.height, row.template) = (page.size.width, page.size.height, page.template.kind.description)
                (row.strokes, row.points) = (page.strokes.count, page.pointCount)
                if !page.template.layers.isEmpty {
                    row.layers = page.template.layers.enumerated().map { index, layer in
                        NoteDetails.LayerRow(name: layer.name, visible: layer.isVisible, strokes: page.strokes.count { Int($0.layer) == index })
                    }
                }
                row.background = page.template.background.map { background in
                    NoteDetails.BackgroundRow(document: background.document, page: background.page + 1,
                                              stored: library.missingBackgrounds(of: stored, pages: [page]).isEmpty)
                }
                row.damage = decoded.problems.first(where: \.isDamage).map { "damaged at \($0)" }
                row.placeholder = page.template.unreadableNotice
            } catch {
                row.damage = "\(error)"
            }
            return row
        }
        return NoteDetails(note: NoteRow(NoteEntry(stored)), origin: stored.note.origin, pages: rows, typedText: TypedTextStatistics(try library.typedText(of: stored)),
                           conflicts: library.conflicts(of: stored).map { $0.url.lastPathComponent })
    }
}

/// One finding of ``Workspace/check()``, as `check --json` prints it.
public struct CheckRow: Sendable, Encodable {
    /// `page` for a page file, `text` for a note's typed text (body.md; `page` is then empty),
    /// `leftover` for what an interrupted write left (only `file` and `problems` then), `background` for a
    /// page whose PDF is missing from its note's folder (`file` is where it should be), `note` for a
    /// note folder whose note.json cannot be read, `trash` for such a trash entry, `duplicate` for each
    /// folder of a note id found twice, `conflict` for a sync tool's conflict copy, `link` for a
    /// symbolic link (reported, not damage).
    public var kind: String
    public var note: String
    public var title: String
    public var page: String
    public var file: String
    public var missing: Bool
    public var damaged: Bool
    public var readableStrokes: Int
    public var problems: [String]
}

/// One thing ``Workspace/repair()`` did.
public struct RepairRow: Sendable, Encodable {
    /// The folder it concerns, as it is after the repair.
    public var folder: String
    public var action: String
    /// What was guessed rather than known.
    public var guessed: [String]
}

/// What ``Workspace/resolveConflicts(of:)`` did.
public struct ConflictOutcome: Sendable, Encodable {
    public var note: String
    public var title: String
    /// The conflict copies merged (now gone from the note's folder).
    public var merged: [String]
    public var strokesAdded: Int
    public var erasuresApplied: Int
    /// The trash entry holding the note as it was before.
    public var before: String?
}

/// Everything ``Workspace/check()`` found.
public struct LibraryCheck: Sendable {
    /// Every page, then pages on missing PDFs, unreadable typed texts and leftovers.
    public var rows: [CheckRow]
    /// Page files checked.
    public var pages: Int
    /// Typed texts that are not UTF-8.
    public var unreadableTexts: Int
    public var leftovers: [(path: String, bytes: Int)]
}

/// What ``Workspace/compact(_:salvage:)`` did; encodes as the list of pages rewritten.
public struct CompactOutcome: Sendable, Encodable {
    let results: [CompactionResult]
    /// Leftovers of interrupted writes removed.
    public var removed: [(path: String, bytes: Int)]
    /// Pages rewritten.
    public var pages: Int { results.count }
    public var bytesFreed: Int { results.reduce(0) { $0 + $1.bytesBefore - $1.bytesAfter } }
    public func encode(to encoder: any Encoder) throws { try results.encode(to: encoder) }
}

/// Counts of a note's typed text as `note show` and `note text --json` print them.
public struct TypedTextStatistics: Sendable, Encodable {
    public var lines: Int
    public var words: Int
    public var characters: Int
    public var readingMinutes: Int
    public var readingSeconds: Int
    public var wordsPerMinute: Int

    public init(_ text: TypedText) {
        let stats = text.statistics
        lines = text.lines.count
        words = stats.words
        characters = stats.characters
        readingMinutes = stats.readingMinutes
        readingSeconds = stats.readingSeconds
        wordsPerMinute = TextStatistics.wordsPerMinute
    }

    /// `12 lines, 85 words, 460 characters, 1 min read`
    public var summary: String {
        "\(lines) line\(lines == 1 ? "" : "s"), \(words) word\(words == 1 ? "" : "s"), "
            + "\(characters) character\(characters == 1 ? "" : "s"), \(readingMinutes) min read"
    }
}

/// A note's details (``Workspace/details(of:)``), as `note show --json` prints them.
public struct NoteDetails: Sendable, Encodable {
    public var note: NoteRow
    /// Where an imported note was read from (absent for notes written in Inkwell).
    public var origin: NoteOrigin?
    public var pages: [PageRow]
    public var typedText: TypedTextStatistics
    /// Sync tools' conflict copies beside the note's files (another device's versions), by file name.
    public var conflicts: [String]

    public struct PageRow: Sendable, Encodable {
        public var number: Int
        public var id: String
        public var width: Float
        public var height: Float
        public var template: String
        public var strokes: Int
        public var points: Int
        /// The page's layers, bottom first, with their stroke counts (absent when the page has one unnamed layer).
        public var layers: [LayerRow]?
        /// The PDF page the page is drawn on (absent when it has none).
        public var background: BackgroundRow?
        /// What is wrong with the page file, when it is damaged or missing.
        public var damage: String?
        /// Why the page is a placeholder, when an import could not read its source page ("page 3 could
        /// not be read: …"); absent otherwise.
        public var placeholder: String?
        public var status: String
        /// Why recognition failed, when it did.
        public var reason: String?
    }

    public struct BackgroundRow: Sendable, Encodable {
        /// The document's content ID (SHA-256), its file `backgrounds/ID.pdf` in the note's folder.
        public var document: String
        /// The PDF page, counting from 1.
        public var page: Int
        /// False when the note's folder lacks the document (the page is drawn on plain paper).
        public var stored: Bool
    }

    public struct LayerRow: Sendable, Encodable {
        public var name: String
        public var visible: Bool
        public var strokes: Int
    }
}
