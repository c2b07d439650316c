import Foundation
import InkStore

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
