import InkCore

/// An undoable change to a page's strokes.
enum Edit: Sendable, Equatable {
    /// A stroke drawn. While it is the latest edit applied, it is its page's last stroke.
    case draw(page: Int, Stroke)
    /// Strokes erased, with their positions before erasing, in increasing position order.
    case erase(page: Int, [ErasedStroke])
}

/// An erased stroke and where it stood on its page.
struct ErasedStroke: Sendable, Equatable {
    let index: Int
    let stroke: Stroke
}

extension OpenNote {
    /// Does `edit` to the pages, records it as unsaved and emits it; `key` names the stroke
    /// it draws.
    mutating func apply(_ edit: Edit, key: String? = nil, _ step: inout Step) {
        switch edit {
        case let .draw(page, stroke):
            pages[page].strokes.append(stroke)
            tracking[page].unsaved.recordAdded(stroke)
            emit(page, added: [PlacedStroke(index: pages[page].strokes.count - 1, stroke: stroke)], key: key, &step)
        case let .erase(page, erased):
            for item in erased.reversed() {
                pages[page].strokes.remove(at: item.index)
                tracking[page].unsaved.recordRemoved(item.stroke.id)
            }
            emit(page, removed: erased.map(\.stroke.id), &step)
        }
    }

    /// Undoes `edit`, which is the latest edit still applied, records it as unsaved and emits it.
    mutating func revert(_ edit: Edit, _ step: inout Step) {
        switch edit {
        case let .draw(page, stroke):
            pages[page].strokes.removeLast()
            tracking[page].unsaved.recordRemoved(stroke.id)
            emit(page, removed: [stroke.id], &step)
        case let .erase(page, erased):
            for item in erased {
                pages[page].strokes.insert(item.stroke, at: item.index)
                tracking[page].unsaved.recordAdded(item.stroke)
            }
            emit(page, added: erased.map { PlacedStroke(index: $0.index, stroke: $0.stroke) }, &step)
        }
    }

    /// Emits the change of the page at `index` (``SessionEffect/inkChanged(_:)``).
    func emit(_ index: Int, isNewPage: Bool = false, added: [PlacedStroke] = [], removed: [StrokeID] = [], key: String? = nil,
              _ step: inout Step) {
        let page = pages[index]
        step.effects.append(.inkChanged(InkChange(page: page.id, size: page.size, template: page.template, isNewPage: isNewPage,
                                                  added: added, removed: removed, key: key)))
    }
}
