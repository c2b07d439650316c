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
    package let library: Library
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
    package func index() throws -> any IndexBackend {
        try openedIndex.get {
            if let indexURL { return try PostgresIndex(url: indexURL) }
            return try SearchIndex(library: library)
        }
    }

    /// The index if it exists already (opened now if need be), else nil: a command that only edits
    /// notes does not create one. A PostgreSQL index is always there to open.
    package func existingIndex() throws -> (any IndexBackend)? {
        if let index = openedIndex.ifMade { return index }
        guard indexURL != nil || FileManager.default.fileExists(atPath: SearchIndex.location(of: library).path) else { return nil }
        return try index()
    }

    /// The after-change policy for this library, with its index when it has one.
    package func afterChange() throws -> AfterChange {
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

    /// The words recognition counts in this library: the lexicon of its ``RecognitionContext``.
    package static func lexicon(of library: Library, index: (any IndexBackend)?) throws -> Lexicon {
        try RecognitionContext(library: library, index: index).lexicon
    }
}
