import Foundation
import InkCore
import InkInterchange
import InkPDF
import InkRecognize
import InkStore
import InkText
import InkWorkspace

/// What one imported note became.
public struct ImportedNote: Sendable, Codable, Equatable {
    public var id: NoteID
    public var title: String
    public var notebook: String
    public var pages: Int
    public var strokes: Int
    public var points: Int
    /// The note's tags, with the hashtags recognised during the import.
    public var tags: [String]
    /// Pages recognised during the import.
    public var recognized: Int
    /// True when the source had the note in its trash: it was imported, then moved to the library's
    /// trash (`inkwell trash restore` brings it back); absent otherwise.
    public var trashed: Bool?
    /// `new`, or `updated` when the note was imported from this source before and is brought up to date.
    public var status: String = "new"
    /// Updated notes: how many of its pages the update added or replaced.
    public var changedPages: Int?

    /// The JSON keys as `import --json` has always printed them (docs/cli-json.md).
    enum CodingKeys: String, CodingKey {
        case id, title, notebook, pages, strokes, points, tags, recognized = "recognised", trashed, status, changedPages
    }
}

/// A source imported before and unchanged since (its hash is the one its note keeps): nothing was
/// read but its bytes.
public struct UnchangedSource: Sendable, Codable, Equatable {
    public var file: String
    public var id: NoteID
    public var title: String
    public var notebook: String
    /// True when the note is in the trash: importing its source again does not bring it back
    /// (`trash restore` does; `import --as-new` makes a new note).
    public var inTrash: Bool?
}

/// What an import did: the files imported and, for each file that was not, why.
public struct ImportReport: Sendable, Codable, Equatable {
    public var imported: [ImportedFile] = []
    public var failures: [String] = []
    /// Pages that could not be recognised, and why (the notes are imported; `inkwell index` tries again).
    public var recognitionFailures: [String] = []
    /// Notes the routing rules filed out of the Inbox because recognition gave them tags.
    public var routed: [RoutedNote] = []
    /// Sources imported before and unchanged since: their notes were left alone.
    public var unchanged: [UnchangedSource] = []
}

/// Handwriting recognition during an import, as the editor session asks for it after its saves.
public struct ImportRecognition: Sendable {
    /// Pages recognised at once, on background threads.
    public var jobs: Int
    /// The ``RecognitionContext`` for recognising the notes being imported (their words given), taken
    /// once per import before any of them is committed.
    public var context: @Sendable (_ importing: [NoteWords]) throws -> RecognitionContext
    /// Makes one recogniser per worker thread, in that context.
    public var makeRecognizer: RecognizerFactory
    /// Keeps what was read on the pages of a note just committed (the search index). A failure here
    /// is reported and loses nothing but the time spent: `inkwell index` reads the pages again.
    package var keep: @Sendable (_ note: StoredNote, _ pages: [RecognizedPage]) throws -> Void

    /// With `context` left out, the notes' own tags are the only context (a recogniser that needs
    /// no lexicon, in tests).
    package init(jobs: Int,
                context: @escaping @Sendable (_ importing: [NoteWords]) throws -> RecognitionContext = { notes in
                    RecognitionContext(knownTags: Set(notes.flatMap(\.tags)), language: nil)
                },
                makeRecognizer: @escaping RecognizerFactory,
                keep: @escaping @Sendable (_ note: StoredNote, _ pages: [RecognizedPage]) throws -> Void) {
        self.jobs = jobs
        self.context = context
        self.makeRecognizer = makeRecognizer
        self.keep = keep
    }
}

/// A page recognised during an import: the content it was read from (as committed) and what was found.
public struct RecognizedPage: Sendable {
    public var page: Page
    public var recognition: PageRecognition
}

/// What one file became.
public struct ImportedFile: Sendable, Codable, Equatable {
    public var file: String
    public var format: String
    public var notes: [ImportedNote]
    /// What the file held that could not be kept (text boxes, images…), one line each.
    public var warnings: [String] = []
    /// The same, each with its file, page (where known) and reason.
    public var notKept: [NotKept] = []
}

/// Pages read on background threads while an import goes on.
typealias RecognitionPool = WorkerPool<Page, PageRecognition>

/// Imports recordings into a library: decode every file, replay each note, then commit them all at once.
/// A file that fails to decode or replay leaves the library exactly as it was.
public struct Importer {
    package let library: Library
    /// The notebook for notes whose recording names none.
    public var notebook: NotebookPath = .inbox
    /// The title for notes whose recording names none (default: the file's name).
    public var title: String?
    /// The source the imported notes keep (default: ``source(ofFormat:)``, e.g. `import:rm`).
    public var source: String?
    /// Recognise the pages the session asks for (nil: leave them to `inkwell index`).
    public var recognition: ImportRecognition?
    /// Called with a file's notes just before they are committed (the drop folder writes its journal
    /// here); throwing stops the commit. Notes that update a note already in the library are not
    /// among them.
    package var beforeCommit: (([StagedNote]) throws -> Void)?
    /// Import every source as new notes, even one imported before (`--as-new`); otherwise a source
    /// already in the library (its ``NoteOrigin``) updates its note, or is skipped when unchanged.
    public var asNew = false
    /// The file `import -` staged standard input in: it is known by its bytes' hash, not its path
    /// (``SourceIdentity/ofContent(_:)``), so the same bytes piped in again find their note.
    public var standardInput: URL?
    /// The library's origins and the sources' identities, when a sync plan found them already.
    var basis: SyncBasis?

    package init(library: Library) { self.library = library }

    /// The files to import for `paths`: files as given, folders searched for known extensions (names
    /// that are not UTF-8 found and read too, ``RawPath``); a reMarkable document's parts left to its
    /// `.content` (``RecordingFormat/importable(_:)``).
    public static func expand(_ paths: [URL]) throws -> [URL] {
        var files: [URL] = []
        for path in paths {
            switch RawPath.kind(of: path) {
            case .missing:
                throw ImportError(file: path.path, reason: "no such file or folder")
            case .file:
                files.append(path)
            case .folder:
                // A folder that cannot be read would otherwise look empty.
                guard RawPath.withSystemPath(path, { access($0, R_OK | X_OK) }) == 0 else {
                    throw ImportError(file: path.path, reason: "permission denied: the folder cannot be read (check its permissions, or run as a user who may read it)")
                }
                files += RawPath.files(under: path).filter { RecordingFormat.knownExtensions.contains($0.pathExtension.lowercased()) }
            }
        }
        return RecordingFormat.importable(files)
    }

    /// Decodes one file into a recording, naming the file in every error; ink beyond its pages' edges is
    /// reported as not kept.
    package static func decode(_ url: URL) throws(ImportError) -> Recording {
        let data: Data
        do {
            data = try RawPath.read(url)
        } catch {
            throw ImportError(file: url.path, reason: "cannot read: \(error.localizedDescription)")
        }
        if let format = RecordingFormat.detect(data) {
            // Ink is checked against its pages once they are final (a reMarkable page placed on its PDF page).
            return PDFImport.preparingBackgrounds(try format.decode(data, file: url.path), file: url.path).reportingInkOutsidePages(file: url.path)
        }
        guard PDFFile.looksLikePDF(data) else {
            throw ImportError(file: url.path, reason: RecordingFormat.notARecording + ", or a PDF to write on")
        }
        return try PDFImport.decode(data, file: url.path)
    }

    /// Imports `files`: decodes all of them first, then replays and commits each file's notes together.
    /// Unless `keepGoing`, one bad file means nothing is imported. Once `shouldStop()` says yes, no
    /// further file is started (those done stay imported). `progress` hears (files done, files).
    ///
    /// With ``recognition``, a file's pages are read on background threads while the next files are
    /// replayed; files are committed in order, each once its pages are read and the outcomes handed
    /// to its notes' sessions.
    public func run(_ files: [URL], replayer: NoteReplayer, keepGoing: Bool,
                    progress: (Int, Int) -> Void = { _, _ in }, shouldStop: () -> Bool = { false }) -> ImportReport {
        var report = ImportReport()
        let origins: OriginIndex?
        do {
            origins = asNew ? nil : try basis?.origins ?? OriginIndex(library)
        } catch {
            report.failures.append("\(library.root.path): \(error)")
            return report
        }
        var decoded: [(URL, Recording)] = []
        var identities: [URL: NoteOrigin] = [:]
        // A file whose stamp is the one kept from the last time is not read to be hashed (SourceHashes).
        let hashes = basis == nil ? SourceHashes(library: library) : nil
        for file in files where !shouldStop() {
            do {
                let identity: NoteOrigin
                if file == standardInput {
                    identity = try SourceIdentity.ofContent(file)
                } else if let known = basis?.identities[file.path] {
                    identity = known
                } else {
                    identity = try SourceIdentity.of(file, hashes: hashes)
                }
                identities[file] = identity
                // Unchanged since its note was imported: its hash is all it costs.
                let known = origins?.notes(forFile: identity) ?? []
                if !known.isEmpty, known.allSatisfy({ $0.note.origin?.hash == identity.hash }) {
                    report.unchanged += known.map { UnchangedSource(file: file.path, id: $0.note.id, title: $0.note.title, notebook: $0.notebook.description) }
                    continue
                }
                decoded.append((file, try Importer.decode(file)))
            } catch {
                report.failures.append(error.description)
            }
        }
        guard report.failures.isEmpty || keepGoing else { return report }
        var done = files.count - decoded.count
        progress(done, files.count)
        let pool = recognitionPool(for: decoded)
        defer { pool?.close() }
        // Files replayed and waiting for their pages to be read, in order. Only a few pages are read
        // ahead, so that memory stays bounded however many files there are. A trace is printed as
        // the replay goes, so then each file is finished before the next starts.
        let readAhead = replayer.trace == nil ? 2 * (recognition?.jobs ?? 1) + 2 : 0
        var waiting: [FileInProgress] = []
        var stopStaging = false, stopCommitting = false
        func commit(all: Bool) {
            while let first = waiting.first, all || first.isReady(pool) || (pool?.outstanding ?? 0) > readAhead {
                waiting.removeFirst()
                do {
                    guard !stopCommitting else { throw CancellationError() }
                    let outcome = try complete(first, pool: pool)
                    if !outcome.file.notes.isEmpty || outcome.unchanged.isEmpty { report.imported.append(outcome.file) }
                    report.unchanged += outcome.unchanged
                    report.failures += outcome.failures
                    report.routed += outcome.routed
                    report.recognitionFailures += outcome.recognitionFailures
                } catch {
                    if !(error is CancellationError) { report.failures.append("\(first.file.path): \(error)") }
                    library.discard(first.notes.map(\.staged))
                    if !keepGoing { stopCommitting = true }
                }
                done += 1
                progress(done, files.count)
            }
        }
        for (file, recording) in decoded where !stopStaging && !stopCommitting && !shouldStop() {
            do {
                waiting.append(try start(recording, from: file, identity: identities[file], origins: origins, replayer: replayer, pool: pool))
            } catch {
                report.failures.append("\(file.path): \(error)")
                // The files before it are still committed, as they were before recognition.
                stopStaging = !keepGoing
                done += 1
                progress(done, files.count)
            }
            commit(all: readAhead == 0)
        }
        commit(all: true)
        // Kept for the next import, unless the run failed: then the library is left as it was.
        if report.failures.isEmpty || keepGoing { hashes?.save() }
        return report
    }

    /// The source of a note imported from a file in `format`: `import:replay` for replay logs,
    /// `import:FORMAT` otherwise (`import:inkml`, `import:rm`, `import:xopp`).
    public static func source(ofFormat format: String) -> String {
        "import:" + (format == RecordingFormat.replayLog.rawValue ? "replay" : format)
    }

    /// A note replayed to the end of its recording, its pages submitted for recognition.
    private struct NoteInProgress {
        var replay: ReplayInProgress<StagedNote>
        /// The tags the recording gave the note, before recognition.
        let tags: Set<Tag>
        /// The typed text the recording gave the note.
        let text: TypedText
        /// Where the note comes from (nil: a source with no identity, such as an upload).
        let origin: NoteOrigin?
        /// The note imported from the same source before, which this import updates (nil: a new note).
        let target: StoredNote?
        /// The date the recording gives the note, if any.
        let created: Date?
        var submitted: [(page: Page, ticket: Int)] = []
        /// Set once the outcomes are handed to the session and it has left the note.
        var finished: StagedNote?
        var recognized: [RecognizedPage] = []
        /// Pages that could not be read: "page N: reason".
        var failures: [String] = []

        var staged: StagedNote { finished ?? replay.staged }

        /// Waits for the pages to be read and hands the outcomes to the session, which then lets go.
        mutating func finish(_ pool: RecognitionPool?) throws {
            guard finished == nil else { return }
            var outcomes: [PageID: Result<[Tag], any Error>] = [:]
            for (page, ticket) in submitted {
                guard let outcome = pool?.result(ticket) else { continue }
                switch outcome {
                case .success(let recognition):
                    outcomes[page.id] = .success(recognition.hashtags)
                    recognized.append(RecognizedPage(page: page, recognition: recognition))
                case .failure(let error):
                    outcomes[page.id] = .failure(error)
                    failures.append("page \((replay.staged.note.pages.firstIndex(of: page.id) ?? 0) + 1): \(error)")
                }
            }
            finished = try replay.finish(outcomes)
        }
    }

    /// A file whose notes are replayed and wait for recognition.
    private struct FileInProgress {
        let file: URL
        let recording: Recording
        var notes: [NoteInProgress]
        /// Notes of the file imported before from a source that has not changed since.
        var unchanged: [UnchangedSource] = []

        func isReady(_ pool: RecognitionPool?) -> Bool {
            guard let pool else { return true }
            return notes.allSatisfy { $0.finished != nil || $0.submitted.allSatisfy { pool.isDone($0.ticket) } }
        }
    }

    /// Replays every note of a file into staged notes and submits the pages their sessions asked to
    /// recognise. While tracing, each note is finished at once, so that its trace stays together.
    private func start(_ recording: Recording, from url: URL, identity: NoteOrigin?, origins: OriginIndex?,
                       replayer: NoteReplayer, pool: RecognitionPool?) throws -> FileInProgress {
        var notes: [NoteInProgress] = []
        var unchanged: [UnchangedSource] = []
        var current: StagedNote?
        do {
            for (index, recorded) in recording.notes.enumerated() {
                var origin = identity.map { SourceIdentity.origin(of: recorded, index: index, file: $0) }
                // The note keeps what this import of its source did not keep.
                let notKept = recording.notKept(file: url.path)
                origin?.notKept = notKept.isEmpty ? nil : notKept
                let target = origin.flatMap { origins?.note(for: $0) }
                if target == nil, let origin, let trashed = origins?.trashed(origin), let id = trashed.noteID {
                    unchanged.append(UnchangedSource(file: url.path, id: id,
                                                     title: trashed.name, notebook: trashed.notebook.description, inTrash: true))
                    continue
                }
                if let target, target.note.origin?.hash == origin?.hash {
                    unchanged.append(UnchangedSource(file: url.path, id: target.note.id, title: target.note.title, notebook: target.notebook.description))
                    continue
                }
                // An update holds the pages in memory and writes only those that changed.
                current = try stagedNote(recorded, index: index, of: recording, from: url, holdingPages: target != nil)
                // The PDF its pages are drawn on, stored once under its content ID, which the pages then name.
                var recorded = recorded
                if let background = recorded.background {
                    let id = try PDFPages.documentID(of: background)
                    try current!.addBackground(background, id: id)
                    recorded = recorded.namingBackground(id)
                }
                // Tags as recorded: what typed text and recognition add is what the after-change policy routes.
                var note = NoteInProgress(replay: try replayer.start(recorded, into: current!), tags: Set(recorded.tags),
                                          text: TypedText(recorded.typedText), origin: origin, target: target, created: recorded.created)
                current = nil
                if let pool {
                    // An update recognises only the pages it adds or replaces.
                    let changed = target.map { Set(ImportUpdate.changedPages(note.replay.staged.note.pages, origin: origin!, before: $0.note.origin)) }
                    note.submitted = try note.replay.pagesToRecognize.filter { changed?.contains($0) ?? true }.map { id in
                        let page = try note.replay.staged.page(id)
                        return (page, pool.submit(page))
                    }
                }
                notes.append(note)
                if replayer.trace != nil { try notes[notes.count - 1].finish(pool) }
            }
            return FileInProgress(file: url, recording: recording, notes: notes, unchanged: unchanged)
        } catch {
            library.discard(notes.map(\.staged) + (current.map { [$0] } ?? []))
            throw error
        }
    }

    /// Finishes a file's notes, commits the new ones together and applies the ``AfterChange`` policy to
    /// the notes recognition tagged (as `inkwell index` does), updates the notes imported from the same
    /// sources before (``ImportUpdate``), then keeps what was read on their pages.
    /// Throws, leaving the library as it was, when the new notes could not be committed; an update
    /// that fails leaves its note as it was and is reported.
    private func complete(_ item: FileInProgress, pool: RecognitionPool?) throws -> FileOutcome {
        let notes = try finished(item.notes, pool: pool)
        var outcome = FileOutcome()
        outcome.unchanged = item.unchanged
        var committed = try commitNew(notes.filter { $0.target == nil }, routing: &outcome.routed)
        var summaries: [ImportedNote] = []
        var notKept = item.recording.notKept(file: item.file.path)
        for note in notes {
            let stored: StoredNote
            var changed: Int?
            if let target = note.target, let origin = note.origin {
                guard let updated = update(target, from: note, origin: origin, file: item.file, outcome: &outcome, notKept: &notKept) else { continue }
                stored = updated.0
                changed = updated.1
            } else {
                stored = committed.removeFirst()
            }
            keepRecognition(of: note, as: stored, file: item.file, outcome: &outcome)
            var summary = try summary(of: stored, recognized: note.recognized.count)
            if let changed {
                summary.status = "updated"
                summary.changedPages = changed
            }
            summaries.append(summary)
        }
        outcome.file = ImportedFile(file: item.file.path, format: item.recording.format, notes: summaries,
                                    warnings: notKept.map(\.description), notKept: notKept)
        try trashing(&outcome.file, as: item.recording)
        return outcome
    }

    /// `notes` with their pages read and their sessions finished; each new note given its origin,
    /// each source page naming the page made of it, and what the source gave it besides (tags,
    /// typed text) for a later update.
    private func finished(_ notes: [NoteInProgress], pool: RecognitionPool?) throws -> [NoteInProgress] {
        var notes = notes
        for index in notes.indices {
            try notes[index].finish(pool)
            if notes[index].target == nil, let origin = notes[index].origin {
                let origin = ImportUpdate.recording(ImportUpdate.mapped(origin, to: notes[index].staged),
                                                    tags: notes[index].tags, text: notes[index].text)
                try notes[index].finished!.update { $0.origin = origin }
            }
        }
        return notes
    }

    /// Commits the new notes `fresh` together (after ``beforeCommit``) and files those recognition
    /// tagged by the routing rules (`routed`); returns them as committed, where they now are.
    private func commitNew(_ fresh: [NoteInProgress], routing routed: inout [RoutedNote]) throws -> [StoredNote] {
        try beforeCommit?(fresh.map(\.staged))
        guard !fresh.isEmpty else { return [] }
        var committed = try library.commit(fresh.map(\.staged))
        // Routed first, so that what was read is kept for the notes where they now are.
        let retagged = zip(committed, fresh).filter { $0.note.tags != $1.tags }.map(\.0.note.id)
        routed = try AfterChange(library: library, index: nil).tagsChanged(Set(retagged))
        for moved in routed {
            if let at = committed.firstIndex(where: { $0.note.id == moved.id }) {
                committed[at] = try library.note(matching: moved.id.rawValue)
            }
        }
        return committed
    }

    /// Brings `target` up to date from `note`, its source imported afresh (``ImportUpdate``): the
    /// note as updated and the pages added or replaced, or nil (the note as it was, the failure in
    /// `outcome`). A typed text kept because it was edited in Inkwell is said in `notKept` (the source's
    /// text is what was not kept).
    private func update(_ target: StoredNote, from note: NoteInProgress, origin: NoteOrigin, file: URL,
                        outcome: inout FileOutcome, notKept: inout [NotKept]) -> (StoredNote, Int)? {
        do {
            try note.staged.writePages(ImportUpdate.changedPages(note.staged.note.pages, origin: origin, before: target.note.origin))
            let update = ImportUpdate(library: library, target: target, staged: note.staged, origin: origin, created: note.created,
                                      tags: note.tags, text: note.text, currentText: try library.typedTextSource(of: target))
            let stored = try library.applyUpdate(update.update).note
            if update.keptEditedText {
                notKept.append(NotKept(file: file.path, reason: "the typed text of note \(target.note.id) \"\(target.note.title)\" was edited in Inkwell, so it was kept as it is; the source's text changed (import --as-new to see it)"))
            }
            return (stored, update.changedPages)
        } catch {
            library.discard([note.staged])
            outcome.failures.append("\(file.path): note \(target.note.id) \"\(target.note.title)\" was not updated (it is as it was): \(error)")
            return nil
        }
    }

    /// Keeps what recognition read on `note`'s pages for `stored` (the search index), and reports
    /// the pages it could not read; a failure to keep it is reported, and costs nothing else.
    private func keepRecognition(of note: NoteInProgress, as stored: StoredNote, file: URL, outcome: inout FileOutcome) {
        outcome.recognitionFailures += note.failures.map { "\(file.path): \"\(stored.note.title)\" \($0)" }
        guard let recognition, !note.recognized.isEmpty else { return }
        do {
            try recognition.keep(stored, note.recognized)
        } catch {
            outcome.recognitionFailures.append("\(file.path): \"\(stored.note.title)\": what was read was not kept: \(error)")
        }
    }

    /// Moves the notes just imported whose source had them in its trash (``RecordedNote/trashed``) to the
    /// library's trash, as `note delete` does, marking them so in `file`'s summaries.
    private func trashing(_ file: inout ImportedFile, as recording: Recording) throws {
        for (index, recorded) in recording.notes.enumerated() where recorded.trashed && file.notes.indices.contains(index) {
            _ = try library.deleteNote(file.notes[index].id)
            file.notes[index].trashed = true
        }
    }

    /// What importing one file did.
    public struct FileOutcome: Sendable {
        public var file = ImportedFile(file: "", format: "", notes: [])
        /// Notes the routing rules filed out of the Inbox because recognition gave them tags.
        public var routed: [RoutedNote] = []
        /// Pages that could not be recognised, and why.
        public var recognitionFailures: [String] = []
        /// Notes of the file imported before from a source unchanged since: left alone.
        public var unchanged: [UnchangedSource] = []
        /// Notes that could not be updated from the file, and why (each is as it was).
        public var failures: [String] = []
    }

    /// Imports one decoded recording read from `url`: replays its notes, recognises the pages their
    /// sessions ask for, commits them together and applies ``AfterChange``, as ``run(_:replayer:keepGoing:progress:)``
    /// does for each file. Throws, leaving the library as it was, when any of that fails.
    ///
    /// With `identity` (the source's ``SourceIdentity``), a source imported before updates its note
    /// (or, unchanged, is left alone) as ``run(_:replayer:keepGoing:progress:)`` does; without, the
    /// notes are new and keep no origin (an upload names no source that could come again).
    package func importRecording(_ recording: Recording, from url: URL, identity: NoteOrigin? = nil, replayer: NoteReplayer) throws -> FileOutcome {
        let pool = recognitionPool(for: [(url, recording)])
        defer { pool?.close() }
        let origins = asNew || identity == nil ? nil : try OriginIndex(library)
        let item = try start(recording, from: url, identity: identity, origins: origins, replayer: replayer, pool: pool)
        do {
            return try complete(item, pool: pool)
        } catch {
            library.discard(item.notes.map(\.staged))
            throw error
        }
    }

    /// Imports `data` as a PDF to write on, and as nothing else (an upload says it is a PDF: it is never
    /// read as another format, which could name files beside it), `name` naming it in errors.
    public func importPDF(_ data: Data, named name: String, replayer: NoteReplayer) throws -> FileOutcome {
        guard data.starts(with: Array("%PDF-".utf8)) else {
            throw ImportError(file: name, position: "byte 0", reason: "not a PDF (it does not start with %PDF-)")
        }
        return try importRecording(try PDFImport.decode(data, file: name), from: URL(fileURLWithPath: name), replayer: replayer)
    }

    /// The pool that reads the pages of `files`' notes (nil without ``recognition``), in the
    /// ``RecognitionContext`` of the library with those notes, taken once, before any is committed
    /// (the first recogniser is made before the first page is read, and nothing is committed before
    /// its pages are read). A context that cannot be taken fails every page, as a recogniser that
    /// cannot start does.
    private func recognitionPool(for files: [(URL, Recording)]) -> RecognitionPool? {
        guard let settings = recognition else { return nil }
        let importing = files.flatMap { url, recording in
            recording.notes.enumerated().map { index, recorded in
                NoteWords(title: noteTitle(recorded, index: index, from: url), tags: Set(recorded.tags).union(TypedText(recorded.typedText).hashtags),
                          typedText: recorded.typedText)
            }
        }
        let context = Once<RecognitionContext>()
        return RecognitionPool(workers: settings.jobs) {
            try settings.makeRecognizer(try context.get { try settings.context(importing) }).recognize
        }
    }

    /// The title of the `index`th note of a recording read from `url`, cleaned: a file's name or a
    /// recorded title may hold line breaks or escapes.
    private func noteTitle(_ recorded: RecordedNote, index: Int, from url: URL) -> String {
        let fallback = title ?? url.deletingPathExtension().lastPathComponent
        return Library.cleanTitle(recorded.title ?? (index == 0 ? fallback : "\(fallback) (\(index + 1))"))
    }

    private func summary(of stored: StoredNote, recognized: Int) throws -> ImportedNote {
        let pages = try library.pages(of: stored)
        return ImportedNote(id: stored.note.id, title: stored.note.title, notebook: stored.notebook.description,
                            pages: pages.count, strokes: pages.reduce(0) { $0 + $1.strokes.count },
                            points: pages.reduce(0) { $0 + $1.pointCount },
                            tags: stored.note.tags.sorted().map(\.name), recognized: recognized)
    }

    /// A new staged note for the `index`th note of `recording`, read from `url`.
    private func stagedNote(_ recorded: RecordedNote, index: Int, of recording: Recording, from url: URL, holdingPages: Bool = false) throws -> StagedNote {
        var staged = try library.stage(title: noteTitle(recorded, index: index, from: url), in: recorded.notebook ?? notebook, created: recorded.created ?? Date(),
                                       tags: Set(recorded.tags), pinned: recorded.pinned,
                                       source: source ?? Importer.source(ofFormat: recording.format), holdingPages: holdingPages)
        do {
            try staged.setTypedText(TypedText(recorded.typedText))
        } catch {
            library.discard([staged])
            throw error
        }
        return staged
    }
}
