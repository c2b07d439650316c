import Foundation
import InkCore
import InkStore

/// What the application layer asks of a library's search index, whichever database holds it: the
/// embedded SQLite index (``SearchIndex``, the default) or a shared server (PostgreSQL, in
/// InkIndexPostgres). Every backend gives the same answers for the same library; the library's
/// files stay the source of truth, and everything an index holds can be rebuilt from them.
///
/// How pages get recognised differs: the SQLite index is filled by one machine's indexing job
/// (claims by process, `--shard` to split by hand); a shared backend is also a ``PageQueue`` that
/// workers on many machines claim pages from.
public protocol IndexBackend: AnyObject, Sendable {
    /// Where the index is, for messages: a file path, or a database URL without its password.
    var location: String { get }
    /// True when the index can only be read (searches and page states work; changes are refused).
    var isReadOnly: Bool { get }
    /// What a front end should say once about how the index was opened (read-only, kept in memory,
    /// made anew in place of a damaged file), or nil.
    var notice: String? { get }

    /// Brings titles, notebooks, tags and typed text up to date with the library without recognising
    /// anything. The embedded index also drops notes gone from the library; a shared one drops none
    /// (a host with an older view of the library must not undo another's notes).
    func refresh(from library: Library) throws
    /// Makes the index's copy of these notes' metadata and typed text match the library (with
    /// `complete`, `notes` is the whole library and notes not in it are removed).
    func update(_ notes: [StoredNote], library: Library, complete: Bool) throws
    /// Ranked notes for `query` (see ``SearchIndex/search(_:)`` for the rules every backend follows).
    func search(_ query: SearchQuery) throws -> [SearchHit]
    /// The recognition state of every page of `notes`.
    func pageStates(of notes: [StoredNote], in library: Library) throws -> [PageID: PageState]
    /// The recognised text of each recognised page of a note.
    func pageTexts(of note: NoteID) throws -> [PageID: String]
    /// The recognised words of each page of a note, in reading order.
    func words(of note: NoteID) throws -> [PageID: [RecognizedWord]]
    /// Hashtags found in each note: recognised in its handwriting, and typed in its text.
    func hashtagsFound() throws -> [NoteID: Set<Tag>]
    /// The recognised words (case folded, at least three characters) read with at least `confidence`
    /// (0…1) on at least `pages` pages, counted in the index.
    func wordsRead(withConfidence confidence: Float, onPages pages: Int) throws -> [String]

    /// Keeps what recognition read on pages outside the indexing job (an import), in one transaction.
    func record(_ notes: [(note: StoredNote, pages: [(page: Page, recognition: PageRecognition)])], in library: Library) throws
    /// Removes everything from the index (the next run recognises every page again).
    func clear() throws
}

extension SearchIndex: IndexBackend {
    public var location: String { url.path }
}

extension IndexBackend {
    /// The words recognition read surely on several pages, which a word list may lack: names and
    /// jargon a person writes often. Words of letters only, three or more, case folded, each read
    /// with at least `confidence` on at least `pages` pages.
    /// Punctuation around a word is left out (a word counts where it was read in the same form, case
    /// aside, on enough pages).
    public func recognizedVocabulary(confidence: Float = 0.85, pages: Int = 2) throws -> Set<String> {
        let around = CharacterSet.punctuationCharacters.union(.symbols)
        return Set(try wordsRead(withConfidence: confidence, onPages: pages).compactMap { text in
            let word = text.trimmingCharacters(in: around)
            return word.count >= 3 && word.allSatisfy(\.isLetter) ? word.lowercased() : nil
        })
    }
}

/// A page a worker claimed from a ``PageQueue``: recognise the content with hash ``hash``.
public struct QueuedPage: Sendable, Equatable {
    public var page: PageID
    public var note: NoteID
    public var hash: String

    public init(page: PageID, note: NoteID, hash: String) {
        (self.page, self.note, self.hash) = (page, note, hash)
    }
}

/// How far a shared indexing run has got, across all its workers.
public struct QueueStatus: Sendable, Codable, Equatable {
    /// Pages recognised from their current content.
    public var done: Int
    /// Pages a live worker is recognising (its lease has not run out).
    public var leased: Int
    /// Pages waiting (including pages whose worker's lease ran out).
    public var pending: Int
    public var failed: Int
    /// Pages recognised in the last minute, per second.
    public var pagesPerSecond: Double
    /// Workers holding leases now.
    public var workers: Int

    public init(done: Int, leased: Int, pending: Int, failed: Int, pagesPerSecond: Double, workers: Int) {
        (self.done, self.leased, self.pending, self.failed, self.pagesPerSecond, self.workers) = (done, leased, pending, failed, pagesPerSecond, workers)
    }
}

/// A shared index's work queue: pages to recognise are rows; workers anywhere claim batches of them
/// for a lease, and commit each result against the content it was read from. A worker that dies
/// leaves its lease to run out, and the page is claimed again; a page whose content changed after it
/// was claimed is queued again with its new content, and the old result is refused.
public protocol PageQueue: IndexBackend {
    /// The recognised version of every page recognised so far, by page id.
    func recognizedPages() throws -> [String: RecognizedPageVersion]
    /// Notes that `page` is now `signature` on disk, its content unchanged since it was read.
    func confirm(_ page: PageID, signature: String) throws
    /// Queues these pages' content (unless that content is recognised, queued or being recognised already).
    func enqueue(_ pages: [(page: PageID, hash: String)]) throws
    /// Claims up to `limit` waiting pages (or pages whose lease ran out) for `lease` seconds.
    func claim(limit: Int, lease: TimeInterval) throws -> [QueuedPage]
    /// Files what was read on a claimed page whose file was `signature`; false (nothing filed) when
    /// the claim was lost (its lease ran out and another worker took it) or the page changed since.
    func commit(_ recognition: PageRecognition, of claimed: QueuedPage, signature: String?) throws -> Bool
    /// Files why a claimed page could not be recognised (false, as for ``commit(_:of:signature:)``).
    func fail(_ claimed: QueuedPage, reason: String) throws -> Bool
    /// Seconds until the first lease held now runs out (nil when no page is leased).
    func nextLeaseExpiry() throws -> TimeInterval?
    /// Counts across all workers.
    func status() throws -> QueueStatus
}

/// A shared index's server could not be reached: the connection was refused, lost (the server
/// stopped or restarted) or a statement got no answer in time. Nothing of the statement that failed
/// is kept by the server, so it may be tried again once the server is back.
public struct IndexUnreachable: Error, CustomStringConvertible {
    /// Where and why, e.g. "127.0.0.1:5432/inkwell: cannot connect to PostgreSQL: connection refused".
    public let description: String

    public init(_ description: String) { self.description = description }
}
