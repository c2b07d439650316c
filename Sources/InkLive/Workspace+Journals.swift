import Foundation
import InkCore
import InkStore
import InkWorkspace

extension Workspace {
    /// Applies the journals a server that stopped before saving left (``LiveNote`` keeps every change
    /// in its note's journal until a save holds it): each note's pages get what the journal holds
    /// and lack, once. Call it before any note is open for live writing. Returns one line per note
    /// replayed, saying what it did and any damaged tail cut.
    public func replayJournals() -> [String] {
        library.notesWithJournal().map { note in describe(note, Result { try library.replayJournal(of: note) }) }
    }

    /// Marks this process as the library's live writer (`inkwell serve`) while the returned object
    /// lives: other processes leave its notes' journals alone.
    public func holdLiveLease() throws -> AnyObject {
        try library.holdLiveLease()
    }

    /// Applies leftover journals as ``replayJournals()`` does, unless a server is running on the
    /// library (nil: it owns them). For commands that read notes, such as `check`.
    public func replayJournalsIfIdle() -> [String]? {
        library.replayJournalsIfIdle()?.map { describe($0.note, $0.outcome) }
    }

    /// A warning for a reading command (`note show`, `render`, `export`) when `note`'s journal holds
    /// strokes or erasures its stored pages lack (a server stopped before saving them), so what it
    /// shows is not all that was written; nil when the pages have everything. It only reads: the
    /// journal is applied by `inkwell check` or the next `inkwell serve`, which may write.
    public func journalWarning(for note: NoteID) -> String? {
        guard let contents = try? NoteJournal.read(library.journalURL(of: note)), contents.hasChanges,
              let stored = try? library.note(matching: note.rawValue), let pages = try? library.pages(of: stored) else { return nil }
        let before = Dictionary(pages.map { ($0.id, Set($0.strokes.map(\.id))) }, uniquingKeysWith: { first, _ in first })
        var after = before
        for change in contents.entries.flatMap(\.pages) {
            after[change.page, default: []].subtract(change.removed)
            after[change.page, default: []].formUnion(change.added.map(\.id))
        }
        let added = after.reduce(0) { $0 + $1.value.subtracting(before[$1.key] ?? []).count }
        let removed = before.reduce(0) { $0 + $1.value.subtracting(after[$1.key] ?? []).count }
        guard added + removed > 0 else { return nil }
        let what = [added > 0 ? "\(added) stroke(s)" : nil, removed > 0 ? "\(removed) erasure(s)" : nil].compactMap { $0 }.joined(separator: " and ")
        return "note \(note.rawValue) \"\(stored.note.title)\": \(what) only in its journal (a server stopped before saving), "
            + "not in what is shown here; `inkwell check` or starting `inkwell serve` applies it"
    }

    private func describe(_ note: NoteID, _ outcome: Result<JournalReplay, any Error>) -> String {
        switch outcome {
        case .success(let replay):
            "note \(note.rawValue): journal replayed (\(replay.strokesAdded) stroke(s) added, "
                + "\(replay.strokesRemoved) removed, \(replay.pagesAdded) page(s) added)"
                + (replay.warning.map { "; \($0)" } ?? "")
        case .failure(let error):
            "note \(note.rawValue): journal not replayed: \(error)"
        }
    }
}
