import Foundation
import InkExport
import InkCore
import InkIndex
import InkRender
import InkStore
import InkText
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a push into an Obsidian vault did.
public struct ObsidianPushReport: Sendable, Codable, Equatable {
    /// One daily note written.
    public struct DailyNote: Sendable, Codable, Equatable {
        /// Relative to the vault.
        public var path: String
        /// True when the daily note did not exist before.
        public var created: Bool
        public var added: [NoteID] = []
        public var updated: [NoteID] = []
    }

    public var vault: String
    /// The push journal (``PushJournal``).
    public var journal: String
    public var dailyNotes: [DailyNote] = []
    /// Page images written, relative to the vault.
    public var attachments: [String] = []
    /// Notes pushed before and unchanged since: nothing was written for them.
    public var unchanged: [NoteID] = []
    public var failed: [ExportReport.Failure] = []
    public var seconds = 0.0
}

/// Appends notes to the daily notes of an Obsidian vault: each note becomes a section (title
/// heading, recognised text as Markdown that keeps hashtags and task markers, page images embedded
/// from the vault's attachment folder) in the daily note of the day it was created.
///
/// The push journal records each note's content hash, so a second push adds nothing and a note
/// changed since is added again as an "updated" section. The user's text is never rewritten: a
/// daily note is read, extended, written to a temporary file and renamed over the old one only
/// if the file still holds what was read. Before anything is written every target is checked; a
/// failure while writing removes the images written for daily notes not yet replaced, so the vault
/// holds whole daily notes, each recorded in the journal, and nothing else.
public struct ObsidianPush: Sendable {
    public let library: Library
    /// Recognised text; nil when the library has no index (sections then hold images only).
    public let index: (any IndexBackend)?
    public let vault: URL
    /// The time zone that decides a note's day and the times shown.
    public var timeZone: TimeZone = .current
    /// Scale of the page images (1 is the page size in pixels).
    public var scale: Double = 1
    /// Notes rendered at once.
    public var parallelism = max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// The time recorded in the journal.
    public var clock: @Sendable () -> Date = { Date() }
    /// Runs just before a daily note is replaced (tests use it to change the file under the push).
    var beforeReplacing: @Sendable (URL) -> Void = { _ in }

    public init(library: Library, index: (any IndexBackend)?, vault: URL) {
        self.library = library
        self.index = index
        self.vault = vault
    }

    /// A note's section, ready to be written.
    struct Section {
        let stored: StoredNote
        let kind: PushRecord.Kind
        let hash: String
        /// Relative to the vault.
        let dailyNote: String
        /// Page images (page index, path relative to the vault).
        let images: [(page: Int, path: String)]
        let lines: [String]
    }

    /// Pushes `notes`; `progress` hears (done, total).
    public func run(_ notes: [StoredNote], progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }) throws -> ObsidianPushReport {
        let started = Date()
        let settings = try ObsidianVault(at: vault)
        return try VaultLock.withExclusive(settings.root) {
            var journal = try PushJournal(vault: settings.root)
            var report = ObsidianPushReport(vault: settings.root.path, journal: journal.url.path)
            let planned = plan(notes, settings: settings, journal: journal)
            var sections: [Section] = []
            for (stored, result) in zip(notes, planned) {
                switch result {
                case .success(let section?): sections.append(section)
                case .success(nil): report.unchanged.append(stored.note.id)
                case .failure(let error):
                    report.failed.append(.init(note: stored.note.id, title: stored.note.title, reason: "\(error)"))
                }
            }
            var done = notes.count - sections.count
            progress(done, notes.count)
            let days = ObsidianPush.days(sections)
            try preflight(days, settings: settings, journal: journal.url)
            try write(days, journal: &journal, report: &report) {
                done += 1
                progress(done, notes.count)
            }
            report.seconds = Date().timeIntervalSince(started)
            return report
        }
    }

    // MARK: Planning

    /// Each note's section, or nil when it was pushed before and has not changed.
    private func plan(_ notes: [StoredNote], settings: ObsidianVault, journal: PushJournal) -> [Result<Section?, Error>] {
        let results = Slots<Result<Section?, Error>>(count: notes.count)
        DispatchQueue.concurrentPerform(iterations: notes.count) { position in
            results.set(position, Result { try section(for: notes[position], settings: settings, journal: journal) })
        }
        return (0..<notes.count).map { results.take($0) ?? .failure(ExportError(path: "", reason: "not planned")) }
    }

    private func section(for stored: StoredNote, settings: ObsidianVault, journal: PushJournal) throws -> Section? {
        let note = stored.note
        let pages = try library.pages(of: stored)
        let texts = try index?.pageTexts(of: note.id) ?? [:]
        let pageHashes = pages.map { ObsidianPush.padded(ContentHash.of(page: $0)) }
        let pageTexts = pages.map { texts[$0.id] ?? "" }
        let typed = try library.typedText(of: stored)
        let hash = ObsidianPush.contentHash(title: note.title, notebook: stored.notebook, tags: note.tags,
                                            pages: Array(zip(pageHashes, pageTexts)), typed: typed.text)
        let previous = journal.latest[note.id]
        if previous?.hash == hash { return nil }
        let dailyNote = try settings.dailyNote(for: note.created, timeZone: timeZone)
        let folder = try settings.attachmentFolder(for: dailyNote)
        let base = ExportNaming.baseName(title: note.title, created: note.created)
        let suffix = scale == 1 ? "" : "@\(Int(scale))x"
        let images = pages.indices.map { index in
            (page: index, path: (folder.isEmpty ? "" : folder + "/")
                + base + String(format: "-p%02d-", index + 1) + pageHashes[index].prefix(8) + suffix + ".png")
        }
        let kind: PushRecord.Kind = previous == nil ? .added : .updated
        return Section(stored: stored, kind: kind, hash: hash, dailyNote: dailyNote, images: images,
                       lines: lines(stored, kind: kind, texts: pageTexts, images: images.map(\.path), typed: typed))
    }

    /// The Markdown of a note's section.
    func lines(_ stored: StoredNote, kind: PushRecord.Kind, texts: [String], images: [String], typed: TypedText) -> [String] {
        let note = stored.note
        var heading = "## " + ObsidianMarkdown.inline(note.title)
        if kind == .updated {
            let sameDay = day(note.modified) == day(note.created)
            heading += " (updated " + clockTime(note.modified, withDate: !sameDay) + ")"
        }
        var meta = ["inkwell"]
        if !stored.notebook.isRoot { meta.append(ObsidianMarkdown.inline(stored.notebook.description)) }
        meta.append(clockTime(note.created, withDate: false))
        if !note.tags.isEmpty { meta.append(note.tags.sorted().map { "#" + $0.name }.joined(separator: " ")) }
        var lines = [heading, meta.joined(separator: " · ")]
        for (text, image) in zip(texts, images) {
            let markdown = ObsidianMarkdown.text(text)
            if !markdown.isEmpty { lines += [""] + markdown }
            lines += ["", "![[\(image)]]"]
        }
        let typedLines = ObsidianMarkdown.typed(typed)
        if !typedLines.isEmpty { lines += [""] + typedLines }
        return lines
    }

    private func day(_ date: Date) -> String {
        MomentDateFormat.isoDay.string(from: date, timeZone: timeZone)
    }

    private func clockTime(_ date: Date, withDate: Bool) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        let time = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
        return withDate ? day(date) + " " + time : time
    }

    /// What decides whether a note changed since it was pushed: its title, notebook, tags, each
    /// page's strokes (canonical content hash) and recognised text, and its typed text. Not the
    /// Markdown itself, so a different time zone or a newer inkwell does not push everything again.
    static func contentHash(title: String, notebook: NotebookPath, tags: Set<Tag>, pages: [(hash: String, text: String)],
                            typed: String) -> String {
        var text = "inkwell obsidian push 1\n\(title)\n\(notebook)\n\(tags.sorted().map(\.name).joined(separator: " "))\n"
        for page in pages { text += page.hash + "\n" + page.text + "\n\u{1E}" }
        text += typed
        return hex(ContentHash.of(Array(text.utf8)))
    }

    static func hex(_ value: UInt64) -> String { padded(String(value, radix: 16)) }

    /// A 64-bit hash in hex, 16 digits.
    static func padded(_ digits: String) -> String { String(repeating: "0", count: max(0, 16 - digits.count)) + digits }

    /// Sections grouped by daily note, days in the order of their first note's creation.
    static func days(_ sections: [Section]) -> [(path: String, sections: [Section])] {
        let sorted = sections.sorted { ($0.stored.note.created, $0.stored.note.id) < ($1.stored.note.created, $1.stored.note.id) }
        var order: [String] = []
        var groups: [String: [Section]] = [:]
        for section in sorted {
            if groups[section.dailyNote] == nil { order.append(section.dailyNote) }
            groups[section.dailyNote, default: []].append(section)
        }
        return order.map { ($0, groups[$0]!) }
    }

    // MARK: Checking before writing

    /// Refuses, before anything is written, what would fail: folders that cannot be created or
    /// written, daily notes that are no regular file or no UTF-8 text.
    private func preflight(_ days: [(path: String, sections: [Section])], settings: ObsidianVault, journal: URL) throws(ExportError) {
        guard !days.isEmpty else { return }
        var folders: Set<String> = [PushJournal.relativePath.split(separator: "/").dropLast().joined(separator: "/")]
        for (path, sections) in days {
            folders.insert(path.split(separator: "/").dropLast().joined(separator: "/"))
            for section in sections {
                for image in section.images { folders.insert(image.path.split(separator: "/").dropLast().joined(separator: "/")) }
            }
            let url = settings.root.appendingPathComponent(path)
            var info = stat()
            if lstat(url.path, &info) == 0 {
                guard info.st_mode & S_IFMT == S_IFREG else {
                    throw ExportError(path: url.path, reason: "is not a regular file (a folder or a symbolic link); inkwell only appends to plain daily notes")
                }
                let bytes: [UInt8]
                do { bytes = [UInt8](try Data(contentsOf: url)) } catch {
                    throw ExportError(path: url.path, reason: "cannot read the daily note: \(error.localizedDescription)")
                }
                guard String(validating: bytes, as: UTF8.self) != nil else {
                    throw ExportError(path: url.path, reason: "is not UTF-8 text; inkwell will not append to it")
                }
            }
        }
        for folder in folders.sorted() { try VaultFiles.checkWritable(folder, in: settings.root) }
        if FileManager.default.fileExists(atPath: journal.path), access(journal.path, W_OK) != 0 {
            throw ExportError(path: journal.path, reason: "the push journal is not writable: \(String(cString: strerror(errno)))")
        }
    }

    // MARK: Writing

    private func write(_ days: [(path: String, sections: [Section])], journal: inout PushJournal,
                       report: inout ObsidianPushReport, rendered: () -> Void) throws {
        let root = URL(fileURLWithPath: report.vault)
        var files = VaultFiles(root: root)
        let flat = days.enumerated().flatMap { day, entry in entry.sections.map { (day: day, section: $0) } }
        var ready: [[Section]] = Array(repeating: [], count: days.count)
        var nextDay = 0
        do {
            let window = max(1, parallelism) * 2
            var start = 0
            while start < flat.count {
                let batch = Array(flat[start..<min(flat.count, start + window)])
                let results = Slots<Result<[[UInt8]], Error>>(count: batch.count)
                DispatchQueue.concurrentPerform(iterations: batch.count) { offset in
                    results.set(offset, Result { try images(of: batch[offset].section) })
                }
                for (offset, item) in batch.enumerated() {
                    switch results.take(offset) ?? .failure(ExportError(path: "", reason: "not rendered")) {
                    case .success(let pngs):
                        for (image, png) in zip(item.section.images, pngs) {
                            if try files.writeNew(image.path, png, day: item.day) { report.attachments.append(image.path) }
                        }
                        ready[item.day].append(item.section)
                    case .failure(let error):
                        let note = item.section.stored.note
                        report.failed.append(.init(note: note.id, title: note.title, reason: "\(error)"))
                    }
                    rendered()
                }
                start += window
                // Days whose every note has been rendered are written now, in order.
                let complete = start >= flat.count ? days.count : flat[start].day
                while nextDay < complete {
                    if !ready[nextDay].isEmpty {
                        report.dailyNotes.append(try commit(days[nextDay].path, ready[nextDay], files: &files, journal: &journal, day: nextDay))
                    }
                    ready[nextDay] = []
                    nextDay += 1
                }
            }
        } catch {
            files.rollBack()
            throw error
        }
    }

    /// The PNG of every page of a section.
    private func images(of section: Section) throws -> [[UInt8]] {
        let pages = try library.pages(of: section.stored)
        guard pages.count == section.images.count else {
            throw ExportError(path: section.stored.folder.path, reason: "the note changed while it was being pushed")
        }
        var options = RenderOptions(title: section.stored.note.title)
        options.backgrounds = library.backgroundDocuments(of: section.stored)
        let renderer = Renderer(options: options)
        return try section.images.map { try renderer.png(pages[$0.page], scale: scale) }
    }

    /// Appends `sections` to the daily note at `path` and records them in the journal.
    private func commit(_ path: String, _ sections: [Section], files: inout VaultFiles, journal: inout PushJournal,
                        day: Int) throws -> ObsidianPushReport.DailyNote {
        let url = files.root.appendingPathComponent(path)
        let before: [UInt8]? = FileManager.default.fileExists(atPath: url.path) ? try DurableFile.read(url) : nil
        let after = ObsidianPush.appending(sections.map(\.lines), to: before ?? [])
        try files.createFolders(String(path.split(separator: "/").dropLast().joined(separator: "/")))
        try VaultFiles.replace(url, expecting: before, with: after, beforeRename: beforeReplacing)
        let now = clock()
        let records = sections.map {
            PushRecord(note: $0.stored.note.id, title: $0.stored.note.title, hash: $0.hash, dailyNote: path,
                       kind: $0.kind, pushed: now, library: library.root.path)
        }
        do {
            try journal.append(records)
        } catch {
            // Unrecorded, the sections would be added again next time: put the daily note back.
            let restored: Bool
            if let before {
                restored = (try? VaultFiles.replace(url, expecting: after, with: before)) != nil
            } else {
                restored = (try? VaultFiles.remove(url, expecting: after)) != nil
            }
            throw ExportError(path: journal.url.path, reason: "\(error); " + (restored
                ? "\(path) was put back as it was"
                : "\(path) keeps the new sections, which the next push will add again"))
        }
        files.committed(day: day)
        return ObsidianPushReport.DailyNote(path: path, created: before == nil,
                                            added: sections.filter { $0.kind == .added }.map(\.stored.note.id),
                                            updated: sections.filter { $0.kind == .updated }.map(\.stored.note.id))
    }

    /// `existing` with the sections appended: the user's bytes untouched, a blank line before each
    /// section, the file's own line ending (CRLF when it uses CRLF).
    static func appending(_ sections: [[String]], to existing: [UInt8]) -> [UInt8] {
        let crlf = zip(existing, existing.dropFirst()).contains { $0 == 0x0D && $1 == 0x0A }
        let newline: [UInt8] = crlf ? [0x0D, 0x0A] : [0x0A]
        var out = existing
        if !out.isEmpty {
            if out.last != 0x0A { out += newline }
            let blank = out.count >= 2 * newline.count && Array(out.suffix(2 * newline.count)) == newline + newline
            if !blank && out != newline { out += newline }
        }
        for (index, lines) in sections.enumerated() {
            if index > 0 { out += newline }
            for line in lines { out += Array(line.utf8) + newline }
        }
        return out
    }
}

extension MomentDateFormat {
    /// `YYYY-MM-DD`.
    static let isoDay = try! MomentDateFormat("YYYY-MM-DD")
}
