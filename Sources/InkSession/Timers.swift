/// A timer of the session.
enum DueTimer {
    case autosave, navigationHide, retry, draftFinalization, strokeStall
}

extension SessionState {
    /// Fires, earliest first, every timer due by now that can act now. A due timer that can't act
    /// (a save while a save is out; anything but the draft while in the background)
    /// waits, and fires as soon as it can.
    mutating func fireDueTimers(_ step: inout Step) {
        while let timer = dueTimer(at: step.now) {
            switch timer {
            case .draftFinalization: finalizeDraft(&step)
            case .navigationHide: withNote { $0.hideNavigation(&step) }
            case .strokeStall: withNote { $0.endStalledStrokes(&step) }
            case .autosave:
                // Sooner than the delay after the last change: the ceiling, while writing goes on.
                let writing = note?.lastChange.map { step.now < $0 + step.config.autosaveDelay } ?? false
                startSave(&step, atCeiling: writing)
            case .retry: startSave(&step)
            }
        }
    }

    func dueTimer(at now: Double) -> DueTimer? {
        if let background {
            guard let deadline = background.draftDeadline, deadline <= now else { return nil }
            return .draftFinalization
        }
        guard let deadlines = note?.deadlines else { return nil }
        var earliest: (timer: DueTimer, deadline: Double)?
        func consider(_ timer: DueTimer, _ deadline: Double?) {
            guard let deadline, deadline <= now else { return }
            if let current = earliest, current.deadline <= deadline { return }
            earliest = (timer, deadline)
        }
        consider(.navigationHide, deadlines.navigationHide)
        consider(.strokeStall, deadlines.strokeStall)
        if note?.canStartSave == true {
            // A pending retry carries every change, so the autosave waits for it.
            if deadlines.retry != nil {
                consider(.retry, deadlines.retry)
            } else {
                consider(.autosave, deadlines.autosave)
            }
        }
        return earliest?.timer
    }
}

extension OpenNote {
    /// Starts the autosave countdown after a drawing change, or restarts it (debouncing), but never
    /// past `autosaveCeiling` after the first change not yet in a save. A countdown that has already
    /// run out is left alone: that save happens as soon as it can.
    mutating func scheduleAutosave(_ step: inout Step) {
        lastChange = step.now
        if let due = deadlines.autosave, due <= step.now { return }
        let since = unsavedSince ?? step.now
        unsavedSince = since
        deadlines.autosave = min(step.now + step.config.autosaveDelay, since + step.config.autosaveCeiling)
    }
}
