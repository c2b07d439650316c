import Foundation
import InkCore
import InkIndex
import InkIndexPostgres
import InkRecognize
import InkStore
import InkText

/// How hard recognition looks at each line: ``RecognitionOptions/Quality``.
public typealias RecognitionQuality = RecognitionOptions.Quality
/// Which engines read handwriting: `tesseract`, `neural` (PP-OCR on ONNX Runtime) or `both` voting.
public typealias RecognitionReader = RecognitionOptions.Reader

/// One library as front ends use it: the operations that change notes go through here, so the same
/// rules hold whichever front end (the command line, the web notebook) asks. Recognised and typed
/// hashtags become tags by ``NoteTags``; whenever tags change, ``AfterChange`` files the note and
/// updates the index.
public final class Workspace: Sendable {
    let library: Library
    /// Where the index is: nil for the library's own SQLite index, else a PostgreSQL URL.
    public let indexURL: String?
    private let openedIndex = Once<any IndexBackend>()

    /// The workspace of `library`, its index in the library (`index.sqlite`) or, with `indexURL`
    /// (`postgres://…`), on a PostgreSQL server shared with other machines.
    package init(library: Library, indexURL: String? = nil) {
        self.library = library
        self.indexURL = indexURL
    }

    /// The search index, opened (or created) on first use, so that a command refused for bad input
    /// leaves the library exactly as it was.
    func index() throws -> any IndexBackend {
        try openedIndex.get {
            if let indexURL { return try PostgresIndex(url: indexURL) }
            return try SearchIndex(library: library)
        }
    }

    /// The index if it exists already (opened now if need be), else nil: a command that only edits
    /// notes does not create one. A PostgreSQL index is always there to open.
    func existingIndex() throws -> (any IndexBackend)? {
        if let index = openedIndex.ifMade { return index }
        guard indexURL != nil || FileManager.default.fileExists(atPath: SearchIndex.location(of: library).path) else { return nil }
        return try index()
    }

    /// The after-change policy for this library, with its index when it has one.
    func afterChange() throws -> AfterChange {
        AfterChange(library: library, index: try existingIndex())
    }

    // MARK: Recognition

    /// The ``RecognitionContext`` of this library now, for recognising its pages and those of
    /// `importing` (notes not committed yet): the one place every path takes it from.
    public func recognitionContext(importing: [NoteWords] = [], quality: RecognitionQuality = .best,
                                   reader: RecognitionReader = .both) throws -> RecognitionContext {
        var context = try RecognitionContext(library: library, index: (try? existingIndex()) ?? nil, importing: importing, quality: quality)
        context.reader = reader
        return context
    }

    /// Recognition during an import or ingest, on `jobs` threads at `quality` with `reader`, keeping what
    /// was read in the index. The context is taken once per import, with the notes imported, before any is committed.
    public func recognition(jobs: Int, quality: RecognitionQuality = .best, reader: RecognitionReader = .both) -> ImportRecognition {
        ImportRecognition(jobs: jobs, context: { [self] importing in
            try recognitionContext(importing: importing, quality: quality, reader: reader)
        }, makeRecognizer: { try $0.makeRecognizer() }, keep: { [self] note, pages in
            try index().record([(note, pages.map { ($0.page, $0.recognition) })], in: library)
        })
    }

    /// The indexing job over this library, recognising at `quality` with `reader` in the library's
    /// context as it is when the first page is recognised (the notes to read are in it already).
    public func indexer(quality: RecognitionQuality = .best, reader: RecognitionReader = .both) throws -> Indexer {
        let index = try index()
        // Made only when a page is to be recognised: a run with nothing new reads no typed text.
        let context = Once<RecognitionContext>()
        return Indexer(library: library, index: index) { [self] in
            try context.get { try recognitionContext(quality: quality, reader: reader) }.makeRecognizer()
        }
    }

    /// The words recognition counts in this library: the lexicon of its ``RecognitionContext``.
    package static func lexicon(of library: Library, index: (any IndexBackend)?) throws -> Lexicon {
        try RecognitionContext(library: library, index: index).lexicon
    }

    // MARK: Intake

    /// An importer into this library, recognising on `jobs` threads unless `recognize` is false.
    public func importer(recognize: Bool, jobs: Int, quality: RecognitionQuality = .best, reader: RecognitionReader = .both) -> Importer {
        var importer = Importer(library: library)
        if recognize { importer.recognition = recognition(jobs: jobs, quality: quality, reader: reader) }
        return importer
    }

    /// The library's drop folder, importing through the same intake as ``importer(recognize:jobs:)``.
    public func dropFolder(options: DropFolderOptions, recognize: Bool, jobs: Int) -> DropFolder {
        let folder = DropFolder(library: library, options: options)
        folder.importer = importer(recognize: recognize, jobs: jobs)
        return folder
    }

    // MARK: Editing notes

    /// What a change of typed text did: the change, and where the routing rules filed the note when
    /// the text gave it new tags.
    public struct TextEdit: Sendable {
        var change: TypedTextChange
        public var routed: [RoutedNote]
    }

    /// Replaces the typed text of a note; hashtags in it become tags (``NoteTags``), then ``AfterChange``.
    public func setTypedText(_ text: String, of note: NoteID) throws -> TextEdit {
        try edited(library.setTypedText(text, of: note))
    }

    /// Appends to the typed text of a note; as ``setTypedText(_:of:)``.
    public func appendTypedText(_ text: String, to note: NoteID) throws -> TextEdit {
        try edited(library.appendTypedText(text, to: note))
    }

    private func edited(_ change: TypedTextChange) throws -> TextEdit {
        let routed = change.addedTags.isEmpty ? [] : try afterChange().tagsChanged([change.stored.note.id])
        return TextEdit(change: change, routed: routed)
    }

    /// Tags a note by hand (`add`) and removes tags by hand (`remove`, remembered so recognition
    /// does not add them back), then ``AfterChange``. Returns the note as it ends up and where the
    /// routing rules filed it.
    func tag(_ note: NoteID, add: Set<Tag>, remove: Set<Tag>) throws -> (note: StoredNote, routed: [RoutedNote]) {
        var stored = try library.updateNote(note) { note in
            note.tag(add)
            note.untag(remove)
        }
        let routed = try afterChange().tagsChanged([note])
        if !routed.isEmpty { stored = try library.note(matching: note.rawValue) }
        return (stored, routed)
    }
}
