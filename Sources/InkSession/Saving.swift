import InkCore

extension SessionState {
    /// Saves every unsaved change of the open note, which has no save in flight; clears the autosave
    /// and retry timers either way.
    mutating func startSave(_ step: inout Step, atCeiling: Bool = false) {
        let id = SaveRequestID(nextRequestID)
        if withNote({ $0.startSave(id: id, atCeiling: atCeiling, &step) }) == true { nextRequestID += 1 }
    }
}

extension OpenNote {
    /// Emits a save request with id `id`; false, and nothing emitted, when nothing is unsaved (then
    /// the recognition a ceiling save deferred is asked for: the writer has paused).
    mutating func startSave(id: SaveRequestID, atCeiling: Bool, _ step: inout Step) -> Bool {
        deadlines.autosave = nil
        deadlines.retry = nil
        unsavedSince = nil
        var deltas: [PageDelta] = []
        var indices: [Int] = []
        for index in tracking.indices where !tracking[index].unsaved.isEmpty {
            deltas.append(PageDelta(pages[index], tracking[index].beginSave()))
            indices.append(index)
        }
        guard !deltas.isEmpty else {
            failedSaves = 0
            recognizeDeferredPages(&step)
            return false
        }
        saveInFlight = SaveInFlight(id: id, pageIndices: indices, atCeiling: atCeiling)
        step.effects.append(.save(SaveRequest(id: id, noteID: self.id, pages: deltas)))
        return true
    }

    /// The save is stored: asks for recognition of its pages (with those a ceiling save deferred), or,
    /// for a save the ceiling forced while writing went on, defers it to the pause: the next quiet
    /// save, or the autosave delay after the last change. Outcomes of other requests are ignored.
    mutating func saveFinished(_ id: SaveRequestID, _ step: inout Step) {
        guard let save = saveInFlight, save.id == id else { return }
        saveInFlight = nil
        failedSaves = 0
        for index in save.pageIndices { tracking[index].saving = nil }
        for page in save.pageIndices.map({ pages[$0].id }) where recognitionDeferredSet.insert(page).inserted { recognitionDeferred.append(page) }
        if save.atCeiling, let lastChange {
            if deadlines.autosave == nil { deadlines.autosave = lastChange + step.config.autosaveDelay }
        } else {
            recognizeDeferredPages(&step)
        }
    }

    /// Asks for the recognition of the saved pages that wait for it.
    mutating func recognizeDeferredPages(_ step: inout Step) {
        guard !recognitionDeferred.isEmpty else { return }
        step.effects.append(.recognize(id, pages: recognitionDeferred))
        recognitionDeferred = []
        recognitionDeferredSet = []
    }

    /// The save failed: its changes are unsaved again and a retry is scheduled, or, when the retries
    /// are used up, the failure is reported. A save-and-leave stops, with an error, and the note stays open.
    mutating func saveFailed(_ id: SaveRequestID, reason: String, _ step: inout Step) {
        guard let save = saveInFlight, save.id == id else { return }
        saveInFlight = nil
        flushRequested = false
        for index in save.pageIndices { tracking[index].saveFailed() }
        if leaveStage == .savingThenLeaving {
            leaveStage = .editing
            step.effects.append(.reportError("Couldn't save the note, so it stays open: \(reason)"))
        }
        failedSaves += 1
        let delays = step.config.retryDelays
        if failedSaves <= delays.count {
            deadlines.retry = step.now + delays[failedSaves - 1]
        } else {
            failedSaves = 0
            step.effects.append(.reportError(
                "Couldn't save the note: \(reason). Your changes are kept and will be saved after your next change."))
        }
    }
}
