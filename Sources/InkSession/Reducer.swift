import InkCore

extension SessionState {
    /// Moves the clock to `at` unless that would take it backwards; returns the new time.
    mutating func advanceClock(to at: Double) -> Double {
        let now = at.isFinite ? max(at, clock ?? at) : (clock ?? 0)
        clock = now
        return now
    }

    mutating func handle(_ event: SessionEvent, _ step: inout Step) {
        switch event {
        case let .enterNote(id, pages, tags, removedTags, nextStrokeIDs, _):
            enterNote(id, pages: pages, tags: tags, removedTags: removedTags, nextStrokeIDs: nextStrokeIDs, &step)
        case let .addPage(id, size, template, _):
            edit(&step) { $0.addPage(id, size: size, template: template, &$1) }
        case let .selectPage(id, _):
            edit(&step) { note, _ in note.selectPage(id) }
        case let .strokeDown(key, page, point, tool, color, width, writer, _):
            edit(&step) { $0.strokeDown(key, page: page, point, tool: tool, color: color, width: width, writer: writer, &$1) }
        case let .strokeMove(key, points, _):
            edit(&step) { $0.strokeMove(key, points, &$1) }
        case let .strokeUp(key, _):
            edit(&step) { $0.strokeUp(key, &$1) }
        case .navigationWanted:
            edit(&step) { $0.showNavigation(for: $1.config.navigationHideAfterReveal, &$1) }
        case let .erase(ids, writer, _):
            edit(&step) { $0.erase(ids, by: writer, &$1) }
        case let .undo(writer, _):
            edit(&step) { $0.undo(by: writer, &$1) }
        case let .redo(writer, _):
            edit(&step) { $0.redo(by: writer, &$1) }
        case let .tap(x, y, count, _):
            edit(&step) { $0.tap(x: x, y: y, count: count, &$1) }
        case .leaveRequested:
            if background == nil { requestLeave(&step) }
        case let .leaveAnswered(answer, _):
            if background == nil { answerLeave(answer, &step) }
        case .background:
            enterBackground(&step)
        case .foreground:
            enterForeground(&step)
        case let .saveFinished(id, _):
            withNote { $0.saveFinished(id, &step) }
        case let .saveFailed(id, reason, _):
            withNote { $0.saveFailed(id, reason: reason, &step) }
        case let .recognitionFinished(page, hashtags, _):
            withNote { $0.recognitionFinished(page, hashtags: hashtags, &step) }
        case let .recognitionFailed(page, reason, _):
            step.effects.append(.debugLog("recognition failed for page \(page): \(reason)"))
        case .tick:
            break
        }
    }

    /// Runs a user's edit on the open note, unless none is open, the app is in the background,
    /// or the note is being saved to leave.
    mutating func edit(_ step: inout Step, _ body: (inout OpenNote, inout Step) -> Void) {
        guard background == nil, let stage = note?.leaveStage, stage != .savingThenLeaving else { return }
        withNote { body(&$0, &step) }
    }

    /// After the event: fires timers it unblocked, and continues a flush or a save-and-leave.
    mutating func settle(_ step: inout Step) {
        fireDueTimers(&step)
        guard note?.isSaving == false else { return }
        if note?.leaveStage == .savingThenLeaving {
            if note?.hasUnsavedChanges == true {
                startSave(&step)
            } else {
                closeNote(&step)
            }
        } else if note?.flushRequested == true {
            withNote { $0.flushRequested = false }
            startSave(&step)
        }
    }
}
