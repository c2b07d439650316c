import InkCore
import InkStore

/// When a live note may confirm a writer's stroke (tell its key in ``LiveUpdate/changed(_:confirming:)``
/// or ``LiveUpdate/confirmed(_:strokeKeys:)``): only once it is on disk. A pure value fed the journal's
/// and the saves' events by ``LiveNote``; each event returns what to tell the observers, in order.
///
/// - The changes handed to the journal are told in the order they were handed, each once its append's
///   outcome is known, even when an append completes before an older one.
/// - A change the journal kept confirms its stroke's key. One it could not keep is told unconfirmed
///   (with an error); its key is confirmed by the first save started after that which completes.
/// - A completed save lets the journal drop the entries it covers and confirms only the keys it held:
///   keys whose append failed while it was in flight wait for the next one.
/// - A key sent again is confirmed at once when it is on disk; else its append or save confirms it.
/// - A stroke the note let go of without drawing anything is confirmed at once: nothing of it is kept.
struct Confirmations {
    /// The changes handed to the journal and not told yet, oldest first, each with its append's
    /// outcome once known; `appendsTold` appends were told before them.
    private var journaling: [(changes: [InkChange], outcome: Result<Void, StoreError>?)] = []
    private var appendsTold = 0
    /// Keys of strokes whose append failed and no completed save holds yet, in the order told.
    private var unjournaled: [(page: PageID, key: String)] = []
    /// The save in flight: the journal's sequence it covers, and how many of `unjournaled` it holds
    /// (the first ones: keys are only added at the end).
    private var saving: (through: UInt64, unjournaled: Int)?

    /// Whether a change handed to the journal has not been told yet.
    var isJournaling: Bool { !journaling.isEmpty }

    /// One event's `changes` are handed to the journal as one entry; returns the append's number, to
    /// give ``appended(_:_:)`` with its outcome.
    mutating func handed(_ changes: [InkChange]) -> Int {
        journaling.append((changes, nil))
        return appendsTold + journaling.count - 1
    }

    /// Append `number`'s outcome is known: tells every change handed up to the first append whose
    /// outcome is not, in order.
    mutating func appended(_ number: Int, _ outcome: Result<Void, StoreError>) -> [LiveUpdate] {
        journaling[number - appendsTold].outcome = outcome
        var told: [LiveUpdate] = []
        while let first = journaling.first, let outcome = first.outcome {
            journaling.removeFirst()
            appendsTold += 1
            for change in first.changes {
                let keys = change.key.map { [$0] } ?? []
                switch outcome {
                case .success: told.append(.changed(change, confirming: keys))
                case .failure:
                    unjournaled += keys.map { (change.page, $0) }
                    told.append(.changed(change, confirming: []))
                }
            }
            if case .failure(let error) = outcome { told.append(.error("Couldn't keep the change safe on disk: \(error)")) }
        }
        return told
    }

    /// A save started: it holds the journal's entries through `sequence` and every change told unkept so far.
    mutating func saveStarted(through sequence: UInt64) {
        saving = (sequence, unjournaled.count)
    }

    /// The save in flight completed: confirms the keys it held (page by page, in the order told) and
    /// says through which sequence the journal may drop its entries.
    mutating func saveFinished() -> (told: [LiveUpdate], compactThrough: UInt64?) {
        guard let save = saving else { return ([], nil) }
        saving = nil
        let held = unjournaled.prefix(save.unjournaled)
        unjournaled.removeFirst(save.unjournaled)
        var byPage: [(page: PageID, keys: [String])] = []
        for (page, key) in held {
            if let index = byPage.firstIndex(where: { $0.page == page }) { byPage[index].keys.append(key) } else { byPage.append((page, [key])) }
        }
        return (byPage.map { .confirmed($0.page, strokeKeys: $0.keys) }, save.through)
    }

    /// The save in flight failed: it confirms nothing and the journal keeps its entries.
    mutating func saveFailed() {
        saving = nil
    }

    /// A writer sent again the stroke of `key`, which the note already has and does not have in
    /// progress: confirmed at once (on `page`) when it is on disk; when its append is under way, or
    /// failed and no save holds it yet, that append or save confirms it.
    func sentAgain(_ key: String, on page: PageID) -> [LiveUpdate] {
        let pending = journaling.contains { $0.changes.contains { $0.key == key } } || unjournaled.contains { $0.key == key }
        return pending ? [] : [.confirmed(page, strokeKeys: [key])]
    }

    /// Strokes in progress the session no longer has (`ended`: key and page) after an event that made
    /// `changes`: each that drew none of them was let go of, and is confirmed at once.
    func letGo(_ ended: [(key: String, page: PageID)], drawing changes: [InkChange]) -> [LiveUpdate] {
        ended.filter { stroke in !changes.contains { $0.key == stroke.key } }.map { .confirmed($0.page, strokeKeys: [$0.key]) }
    }
}
