extension SessionState {
    /// Leaves at once when everything is stored; otherwise asks first. Strokes in progress are finished.
    mutating func requestLeave(_ step: inout Step) {
        guard note?.leaveStage != .savingThenLeaving, let asks = withNote({ note in
            note.finishAllStrokes(&step)
            if note.hasUnsavedChanges { note.leaveStage = .awaitingAnswer }
            return note.hasUnsavedChanges
        }) else { return }
        if asks {
            step.effects.append(.confirmLeave)
        } else {
            closeNote(&step)
        }
    }

    /// Acts on the answer to ``SessionEffect/confirmLeave``; ignored when no question is open.
    /// Saving and leaving is carried on by ``settle(_:)`` as saves finish.
    mutating func answerLeave(_ answer: LeaveAnswer, _ step: inout Step) {
        guard note?.leaveStage == .awaitingAnswer else { return }
        switch answer {
        case .stay:
            withNote { $0.leaveStage = .editing }
        case .discard:
            closeNote(&step)
        case .saveAndLeave:
            withNote { note in
                note.finishAllStrokes(&step)
                note.leaveStage = .savingThenLeaving
            }
        }
    }

    /// Lets go of the note, with whatever it held that wasn't saved, and of its save in flight.
    mutating func closeNote(_ step: inout Step) {
        withNote { $0.recognizeDeferredPages(&step) }
        phase = .noNote
        step.effects.append(.leave)
    }
}
