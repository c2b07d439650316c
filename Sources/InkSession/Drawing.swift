import InkCore

extension OpenNote {
    mutating func addPage(_ id: PageID, size: PageSize, template: PageTemplate, _ step: inout Step) {
        guard pageIndex[id] == nil else { return }
        pageIndex[id] = pages.count
        currentPageIndex = pages.count
        pages.append(Page(id: id, size: size, template: template))
        tracking.append(PageTracking(newAt: step.now))
        emit(pages.count - 1, isNewPage: true, &step)
        scheduleAutosave(&step)
    }

    mutating func selectPage(_ id: PageID) {
        if let index = pageIndex[id] { currentPageIndex = index }
    }

    /// Erases the current page's strokes with these ids; ids not on the page are ignored.
    mutating func erase(_ ids: [StrokeID], _ step: inout Step) {
        guard let page = currentPageIndex else { return }
        let erased = find(ids, onPage: page)
        guard !erased.isEmpty else { return }
        perform(.erase(page: page, erased), &step)
    }

    /// The strokes with these ids on a page, with their positions, in position order. A plain indexed
    /// scan per id: comparing ids in place costs under a nanosecond a stroke.
    private func find(_ ids: [StrokeID], onPage page: Int) -> [ErasedStroke] {
        let strokes = pages[page].strokes
        var found: [ErasedStroke] = []
        for id in Set(ids) {
            for index in strokes.indices where strokes[index].id == id {
                found.append(ErasedStroke(index: index, stroke: strokes[index]))
                break
            }
        }
        return found.sorted { $0.index < $1.index }
    }

    mutating func undo(_ step: inout Step) {
        guard let edit = undoStack.popLast() else { return }
        revert(edit, &step)
        redoStack.append(edit)
        scheduleAutosave(&step)
    }

    mutating func redo(_ step: inout Step) {
        guard let edit = redoStack.popLast() else { return }
        apply(edit, &step)
        undoStack.append(edit)
        scheduleAutosave(&step)
    }

    /// A new undoable change: applies it, makes it the latest undo step and clears the redo stack.
    /// `key` names the stroke it draws.
    mutating func perform(_ edit: Edit, key: String? = nil, _ step: inout Step) {
        apply(edit, key: key, &step)
        undoStack.append(edit)
        redoStack.removeAll()
        scheduleAutosave(&step)
    }
}
