import InkCore

extension SessionState {
    /// Opens a note and shows navigation; ignored while a note is open or the app is in the background.
    mutating func enterNote(_ id: NoteID, pages: [Page], tags: Set<Tag>, removedTags: Set<Tag>,
                            nextStrokeIDs: [PageID: StrokeID], _ step: inout Step) {
        guard note == nil, background == nil else { return }
        var opened = OpenNote(id: id, pages: pages, tags: tags, removedTags: removedTags, nextStrokeIDs: nextStrokeIDs, at: step.now)
        opened.showNavigation(for: step.config.navigationHideAfterEnter, &step)
        phase = .open(opened)
    }

    /// Freezes the session: no timer but the draft's fires, and pen input and taps are ignored,
    /// until the app comes back.
    mutating func enterBackground(_ step: inout Step) {
        guard background == nil else { return }
        background = Background(since: step.now,
                                draftDeadline: note == nil ? nil : step.now + step.config.draftRetention)
    }

    /// Unfreezes the session (timers that came due meanwhile fire in ``settle(_:)``). After the draft
    /// was finalised, the note is re-entered clean: navigation shows as on entering.
    mutating func enterForeground(_ step: inout Step) {
        guard let background else { return }
        self.background = nil
        if background.isDraftFinalized {
            withNote { $0.showNavigation(for: step.config.navigationHideAfterEnter, &step) }
        }
    }

    /// The app stayed in the background too long: finishes the strokes in progress, saves every unsaved
    /// change (once the save in flight is done, if there is one), clears the undo history and emits
    /// ``SessionEffect/finaliseDraft(_:)`` after the save request.
    mutating func finalizeDraft(_ step: inout Step) {
        background?.draftDeadline = nil
        guard let draft = withNote({ note in
            note.finishAllStrokes(&step)
            note.undoStack.removeAll()
            note.redoStack.removeAll()
            if note.isSaving { note.flushRequested = true }
            return (id: note.id, isSaving: note.isSaving)
        }) else { return }
        background?.isDraftFinalized = true
        if !draft.isSaving { startSave(&step) }
        step.effects.append(.finalizeDraft(draft.id))
    }
}
