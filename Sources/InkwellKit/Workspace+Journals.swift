import Foundation
import InkStore

extension Workspace {
    /// Applies the journals a server that stopped before saving left (``LiveNote`` keeps every change
    /// in its note's journal until a save holds it): each note's pages get what the journal holds
    /// and lack, once. Call it before any note is open for live writing. Returns one line per note
    /// replayed, saying what it did and any damaged tail cut.
    public func replayJournals() -> [String] {
        library.notesWithJournal().map { note in
            do {
                let replay = try library.replayJournal(of: note)
                return "note \(note.rawValue): journal replayed (\(replay.strokesAdded) stroke(s) added, "
                    + "\(replay.strokesRemoved) removed, \(replay.pagesAdded) page(s) added)"
                    + (replay.warning.map { "; \($0)" } ?? "")
            } catch {
                return "note \(note.rawValue): journal not replayed: \(error)"
            }
        }
    }
}
