import InkCore

/// An undoable change to a page's strokes.
enum Edit: Sendable, Equatable {
    /// A stroke drawn (at its place in id order: the end of its page when it is drawn).
    case draw(page: Int, Stroke)
    /// Strokes erased, with their positions before erasing, in increasing position order.
    case erase(page: Int, [ErasedStroke])
}

/// An edit in the note's history, and the writer who made it (nil: the note's one writer).
struct HistoryEntry: Sendable, Equatable {
    let edit: Edit
    let writer: String?
}

/// An erased stroke and where it stood on its page.
struct ErasedStroke: Sendable, Equatable {
    let index: Int
    let stroke: Stroke
}

extension OpenNote {
    /// Does `edit` to the pages, records it as unsaved and emits it; `key` names the stroke it draws.
    /// Returns false, changing nothing, when nothing of it applies any more (every stroke it erases is
    /// gone): another writer's edits may have come between an undo and its redo.
    @discardableResult
    mutating func apply(_ edit: Edit, key: String? = nil, _ step: inout Step) -> Bool {
        switch edit {
        case let .draw(page, stroke):
            let index = place(of: stroke.id, onPage: page)
            pages[page].strokes.insert(stroke, at: index)
            tracking[page].unsaved.recordAdded(stroke)
            emit(page, added: [PlacedStroke(index: index, stroke: stroke)], key: key, &step)
        case let .erase(page, erased):
            var removed: [StrokeID] = []
            for item in erased.reversed() {
                guard let index = position(of: item.stroke.id, onPage: page, expected: item.index) else { continue }
                pages[page].strokes.remove(at: index)
                tracking[page].unsaved.recordRemoved(item.stroke.id)
                removed.append(item.stroke.id)
            }
            guard !removed.isEmpty else { return false }
            emit(page, removed: removed.reversed(), &step)
        }
        return true
    }

    /// Takes `edit` back, records it as unsaved and emits it. The latest edit still applied is taken
    /// back exactly; an earlier one (a writer undoing theirs while others wrote since) as far as it
    /// still can: a stroke drawn is removed if it is still there, strokes erased come back. Returns
    /// false, changing nothing, when nothing of it can be taken back.
    @discardableResult
    mutating func revert(_ edit: Edit, _ step: inout Step) -> Bool {
        switch edit {
        case let .draw(page, stroke):
            guard let index = position(of: stroke.id, onPage: page, expected: pages[page].strokes.count - 1) else { return false }
            pages[page].strokes.remove(at: index)
            tracking[page].unsaved.recordRemoved(stroke.id)
            emit(page, removed: [stroke.id], &step)
        case let .erase(page, erased):
            var added: [PlacedStroke] = []
            for item in erased where position(of: item.stroke.id, onPage: page, expected: item.index) == nil {
                let index = place(of: item.stroke.id, onPage: page)
                pages[page].strokes.insert(item.stroke, at: index)
                tracking[page].unsaved.recordAdded(item.stroke)
                added.append(PlacedStroke(index: index, stroke: item.stroke))
            }
            guard !added.isEmpty else { return false }
            emit(page, added: added, &step)
        }
        return true
    }

    /// Where a stroke with this id goes on the page: a page's strokes are in id order (the order they
    /// were drawn in, which is how the store keeps them), so a stroke redone or brought back after
    /// others' strokes goes among them, not on top. The end, for a new stroke, is looked at first.
    private func place(of id: StrokeID, onPage page: Int) -> Int {
        let strokes = pages[page].strokes
        if strokes.last.map({ $0.id < id }) ?? true { return strokes.count }
        var low = 0, high = strokes.count
        while low < high {
            let middle = (low + high) / 2
            if strokes[middle].id < id { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Where the stroke `id` is on the page: at `expected` when nothing moved it (looked at first, so
    /// the usual undo costs no search), else found from the end; nil when it is not on the page.
    private func position(of id: StrokeID, onPage page: Int, expected: Int) -> Int? {
        let strokes = pages[page].strokes
        if strokes.indices.contains(expected), strokes[expected].id == id { return expected }
        return strokes.lastIndex { $0.id == id }
    }

    /// Emits the change of the page at `index` (``SessionEffect/inkChanged(_:)``).
    func emit(_ index: Int, isNewPage: Bool = false, added: [PlacedStroke] = [], removed: [StrokeID] = [], key: String? = nil,
              _ step: inout Step) {
        let page = pages[index]
        step.effects.append(.inkChanged(InkChange(page: page.id, size: page.size, template: page.template, isNewPage: isNewPage,
                                                  added: added, removed: removed, key: key)))
    }
}
