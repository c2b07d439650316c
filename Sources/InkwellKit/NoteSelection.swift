import Foundation
import InkCore
import InkIndex
import InkStore
import InkWorkspace

/// Which notes an export (or a catalog) is about: named notes plus, when any filter is given, the
/// notes that pass every filter (notebook with the notebooks inside it, all the tags, a search).
public struct NoteSelection: Sendable, Equatable {
    /// Note ids, unique id prefixes or exact titles.
    public var names: [String] = []
    public var notebook: NotebookPath?
    /// All must match.
    public var tags: Set<Tag> = []
    /// A search query; its hits pass.
    public var query: String?
    /// Every note.
    public var all = false

    public init(names: [String] = [], notebook: NotebookPath? = nil, tags: Set<Tag> = [], query: String? = nil, all: Bool = false) {
        self.names = names
        self.notebook = notebook
        self.tags = tags
        self.query = query
        self.all = all
    }

    /// True when nothing is chosen (no names, no filters, not --all).
    public var isEmpty: Bool { names.isEmpty && !filters && !all }

    private var filters: Bool { notebook != nil || !tags.isEmpty || query != nil }

    /// The chosen notes, each once, oldest first (creation date, then id): the order of an export.
    package func notes(in workspace: Workspace) throws -> [StoredNote] {
        let library = workspace.library
        var chosen = try names.map { try library.note(matching: $0) }
        if filters || all {
            var candidates = try library.notes(in: notebook ?? .root)
            candidates = candidates.filter { tags.isSubset(of: $0.note.tags) }
            if let query {
                let index = try workspace.index()
                try index.refresh(from: library)
                let hits = Set(try index.search(SearchQuery(text: query, limit: 1_000_000)).map(\.note))
                candidates = candidates.filter { hits.contains($0.note.id) }
            }
            chosen += candidates
        }
        var seen = Set<NoteID>()
        return chosen.filter { seen.insert($0.note.id).inserted }
            .sorted { ($0.note.created, $0.note.id) < ($1.note.created, $1.note.id) }
    }

    /// The chosen notes in listing order (as `inkwell list` shows them), every note when nothing is
    /// chosen: the rows of a catalog.
    package func listed(in workspace: Workspace) throws -> [StoredNote] {
        let listing = try workspace.library.notes()
        guard !isEmpty else { return listing }
        let chosen = Set(try notes(in: workspace).map(\.note.id))
        return listing.filter { chosen.contains($0.note.id) }
    }
}
