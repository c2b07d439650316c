import InkCore

/// Changes to one page relative to a baseline (what is stored, or what the save in flight will store).
///
/// A stroke removed that isn't in `added` is in the baseline; a stroke added back that is in `removed`
/// is the baseline's own. So no set of stored strokes is kept: each change costs O(1).
struct PageChanges: Sendable, Equatable {
    /// The page itself isn't in the baseline.
    var isNew = false
    var added: [StrokeID: Stroke] = [:]
    var removed: Set<StrokeID> = []

    var isEmpty: Bool { !isNew && added.isEmpty && removed.isEmpty }

    mutating func recordAdded(_ stroke: Stroke) {
        if removed.remove(stroke.id) == nil { added[stroke.id] = stroke }
    }

    mutating func recordRemoved(_ id: StrokeID) {
        if added.removeValue(forKey: id) == nil { removed.insert(id) }
    }

    /// These changes followed by `later` (whose baseline is this one's result), as one set of changes.
    func followed(by later: PageChanges) -> PageChanges {
        var combined = self
        combined.isNew = isNew || later.isNew
        for id in later.removed { combined.recordRemoved(id) }
        for stroke in later.added.values { combined.recordAdded(stroke) }
        return combined
    }
}

/// What the session keeps for each page besides the page itself.
struct PageTracking: Sendable, Equatable {
    /// The id for the next stroke drawn; never reused within the session, even after erasing.
    var nextStrokeID: UInt64
    /// The event time (seconds) at which the page's clock, used for ``Stroke/startTime``, reads zero.
    let origin: Double
    /// Changes the last successful save (and the save in flight) doesn't hold.
    var unsaved: PageChanges
    /// The changes held by the save in flight, if it holds any of this page.
    var saving: PageChanges?

    /// A page created in this session at `now`.
    init(newAt now: Double) {
        nextStrokeID = 1
        origin = now
        unsaved = PageChanges(isNew: true)
    }

    /// A stored page opened at `now`: its clock resumes where its last stroke ended. Its next stroke
    /// takes the id after its highest, or `nextStrokeID` if that is higher (ids of strokes removed).
    init(stored page: Page, enteredAt now: Double, nextStrokeID least: StrokeID?) {
        var highestID: UInt64 = 0
        var inkEnd = 0.0
        for stroke in page.strokes {
            highestID = max(highestID, stroke.id.rawValue)
            inkEnd = max(inkEnd, stroke.startTime + Double(stroke.points.last?.time ?? 0))
        }
        nextStrokeID = max(highestID &+ 1, least?.rawValue ?? 0)
        origin = now - (inkEnd.isFinite ? inkEnd : 0) / 1000
        unsaved = PageChanges()
    }

    mutating func takeStrokeID() -> StrokeID {
        defer { nextStrokeID &+= 1 }
        return StrokeID(nextStrokeID)
    }

    /// Moves the unsaved changes into the save that is starting, and returns them.
    mutating func beginSave() -> PageChanges {
        let changes = unsaved
        unsaved = PageChanges()
        saving = changes
        return changes
    }

    /// The save failed: its changes are unsaved again, before those made since.
    mutating func saveFailed() {
        if let saving { unsaved = saving.followed(by: unsaved) }
        saving = nil
    }
}

extension PageDelta {
    init(_ page: Page, _ changes: PageChanges) {
        self.init(pageID: page.id, size: page.size, template: page.template, isNew: changes.isNew,
                  addedStrokes: changes.added.values.sorted { $0.id < $1.id },
                  removedStrokeIDs: changes.removed.sorted())
    }
}
