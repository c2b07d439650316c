import Foundation
import InkCore
import InkIndex
import InkStore
import InkWorkspace

/// Where the search index is, once opened.
public struct IndexInfo: Sendable, Equatable {
    /// Its file, or the PostgreSQL server.
    public var location: String
    /// True when it could only be opened for reading (read-only library or full disk): what it answers
    /// is as of the last time it was written.
    public var isReadOnly: Bool
    /// What to say once about how it was opened (read-only, kept in memory, made anew in place of a
    /// damaged file), or nil.
    public var notice: String?
}

/// Each page's recognition state, from the search index.
public struct RecognitionStates: Sendable {
    let states: [PageID: PageState]

    /// No index yet: every page is pending.
    public static let unknown = RecognitionStates(states: [:])

    /// A page's status (`pending`, `processing`, `recognised`, `failed`) and, when it failed, why.
    public func state(of page: PageID) -> (status: String, reason: String?) {
        let state = states[page] ?? PageState(status: .pending)
        return (state.status.rawValue, state.reason)
    }

    /// How many of `pages` are in each status, every status present (zero when none).
    public func counts(of pages: some Sequence<PageID>) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: PageState.counts(pages.map { states[$0] ?? PageState(status: .pending) }).map { ($0.key.rawValue, $0.value) })
    }

    /// How many pages are in each status, over every page the states are of.
    public var totals: [String: Int] {
        Dictionary(uniqueKeysWithValues: PageState.counts(states.values).map { ($0.key.rawValue, $0.value) })
    }
}

/// Search and the index as front ends see it.
extension Workspace {
    /// Opens the index (creating it if need be) and says where it is.
    public func openIndex() throws -> IndexInfo {
        let index = try index()
        return IndexInfo(location: index.location, isReadOnly: index.isReadOnly, notice: index.notice)
    }

    /// Opens the index if it exists already (never creates one) and says where it is; nil when there is none.
    public func openExistingIndex() throws -> IndexInfo? {
        try existingIndex().map { IndexInfo(location: $0.location, isReadOnly: $0.isReadOnly, notice: $0.notice) }
    }

    /// Notes with every word (prefix and typo tolerant) and every tag, in `notebook` if given, best first;
    /// the index is brought up to date with the library first.
    public func search(_ words: String, tags: [Tag] = [], notebook: NotebookPath? = nil, limit: Int) throws -> [SearchHit] {
        let index = try index()
        try index.refresh(from: library)
        return try index.search(SearchQuery(text: words, tags: tags, notebook: notebook, limit: limit))
    }

    /// The recognition state of the pages of `notes` (every note when nil); every page is pending when
    /// there is no index yet (none is created).
    public func recognitionStates(of notes: Set<NoteID>? = nil) throws -> RecognitionStates {
        let stored = try library.notes().filter { notes?.contains($0.note.id) ?? true }
        return try recognitionStates(of: stored)
    }

    func recognitionStates(of stored: [StoredNote]) throws -> RecognitionStates {
        guard let index = try existingIndex() else {
            return RecognitionStates(states: Dictionary(stored.flatMap(\.note.pages).map { ($0, PageState(status: .pending)) }, uniquingKeysWith: { first, _ in first }))
        }
        return RecognitionStates(states: try index.pageStates(of: stored, in: library))
    }

    /// The library view: every notebook, every note in listing order, and their pages' recognition states.
    public func listing() throws -> (notebooks: [NotebookPath], notes: [NoteEntry], states: RecognitionStates) {
        let notes = try library.notes()
        let states = try existingIndex().map { RecognitionStates(states: try $0.pageStates(of: notes, in: library)) } ?? .unknown
        return (try library.notebooks(), notes.map(NoteEntry.init), states)
    }
}

extension Workspace {
    /// Progress across every worker: from the queue on PostgreSQL, from the page states on SQLite.
    public func indexProgress() throws -> QueueStatus {
        if let queue = try index() as? any PageQueue { return try queue.status() }
        let counts = PageState.counts(try recognitionStates().states.values)
        return QueueStatus(done: counts[.recognized] ?? 0, leased: counts[.processing] ?? 0,
                           pending: counts[.pending] ?? 0, failed: counts[.failed] ?? 0, pagesPerSecond: 0, workers: 0)
    }
}
