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
    /// Does `edit` to the pages and records it as unsaved.
    mutating func apply(_ edit: Edit) {
        switch edit {
        case let .draw(page, stroke):
            pages[page].strokes.append(stroke)
            tracking[page].unsaved.recordAdded(stroke)
        case let .erase(page, erased):
            for item in erased.reversed() {
                pages[page].strokes.remove(at: item.index)
                tracking[page].unsaved.recordRemoved(item.stroke.id)
            }
        }
    }

    /// Undoes `edit`, which is the latest edit still applied, and records it as unsaved.
    mutating func revert(_ edit: Edit) {
        switch edit {
        case let .draw(page, stroke):
            pages[page].strokes.removeLast()
            tracking[page].unsaved.recordRemoved(stroke.id)
        case let .erase(page, erased):
            for item in erased {
                pages[page].strokes.insert(item.stroke, at: item.index)
                tracking[page].unsaved.recordAdded(item.stroke)
            }
        }
    }
}
