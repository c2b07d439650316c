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

    /// Erases the current page's strokes with these ids, as `writer`'s edit; ids not on the page are ignored.
    mutating func erase(_ ids: [StrokeID], by writer: String?, _ step: inout Step) {
        guard let page = currentPageIndex else { return }
        let erased = find(ids, onPage: page)
        guard !erased.isEmpty else { return }
        perform(.erase(page: page, erased), by: writer, &step)
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

    /// Takes back `writer`'s latest edit still applied (one that others' edits left nothing of to
    /// take back is dropped, and the one before it taken back).
    mutating func undo(by writer: String?, _ step: inout Step) {
        guard let entry = carryOutLatest(of: writer, from: \.undoStack, { $0.revert($1, &step) }) else { return }
        redoStack.append(entry)
        scheduleAutosave(&step)
    }

    /// Does again `writer`'s latest edit undone (one that no longer applies is dropped, as by undo).
    mutating func redo(by writer: String?, _ step: inout Step) {
        guard let entry = carryOutLatest(of: writer, from: \.redoStack, { $0.apply($1, &step) }) else { return }
        undoStack.append(entry)
        scheduleAutosave(&step)
    }

    /// Removes `writer`'s latest entry from `stack` and carries its edit out with `act`; one `act`
    /// cannot carry out (it returns false) is dropped and the one before it tried. Returns the entry
    /// carried out, if any.
    private mutating func carryOutLatest(of writer: String?, from stack: WritableKeyPath<OpenNote, [HistoryEntry]>,
                                         _ act: (inout OpenNote, Edit) -> Bool) -> HistoryEntry? {
        while let index = self[keyPath: stack].lastIndex(where: { $0.writer == writer }) {
            let entry = self[keyPath: stack].remove(at: index)
            if act(&self, entry.edit) { return entry }
        }
        return nil
    }

    /// A new undoable change of `writer`: applies it, makes it their latest undo step and clears their
    /// redo steps (the others' stay). `key` names the stroke it draws.
    mutating func perform(_ edit: Edit, key: String? = nil, by writer: String?, _ step: inout Step) {
        apply(edit, key: key, &step)
        undoStack.append(HistoryEntry(edit: edit, writer: writer))
        redoStack.removeAll { $0.writer == writer }
        scheduleAutosave(&step)
    }
}
