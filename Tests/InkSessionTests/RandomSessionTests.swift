import InkCore
import InkSamples
import InkSession
import Testing


/// A store that applies save requests as the real one does, delta by delta, and checks each delta
/// makes sense against what it holds.
struct FakeStore {
    struct StoredPage {
        var size: PageSize
        var template: PageTemplate
        var strokes: [StrokeID: Stroke] = [:]
    }

    var notes: [NoteID: [PageID]] = [:]
    var pages: [PageID: StoredPage] = [:]

    mutating func apply(_ request: SaveRequest) {
        for delta in request.pages {
            if delta.isNew {
                #expect(pages[delta.pageID] == nil, "new page \(delta.pageID) already stored")
                pages[delta.pageID] = StoredPage(size: delta.size, template: delta.template)
                notes[request.noteID, default: []].append(delta.pageID)
            }
            #expect(pages[delta.pageID] != nil, "delta for unknown page \(delta.pageID)")
            for stroke in delta.addedStrokes {
                #expect(pages[delta.pageID]?.strokes[stroke.id] == nil, "stroke \(stroke.id) added twice")
                pages[delta.pageID]?.strokes[stroke.id] = stroke
            }
            for id in delta.removedStrokeIDs {
                #expect(pages[delta.pageID]?.strokes.removeValue(forKey: id) != nil, "removed unknown stroke \(id)")
            }
        }
    }

    /// A note's pages as the store would load them: strokes in id order.
    func load(_ note: NoteID) -> [Page] {
        (notes[note] ?? []).map { id in
            let stored = pages[id]!
            return Page(id: id, size: stored.size, template: stored.template,
                        strokes: stored.strokes.values.sorted { $0.id < $1.id })
        }
    }
}

/// Feeds thousands of seeded random events — well-formed and not — to a session wired to a fake store,
/// and checks the invariants after every one.
struct RandomSessionRun {
    var rng: SeededGenerator
    var session = Session()
    var store = FakeStore()
    var outstanding: SaveRequest?
    var time = 0.0
    var pagesCreated = 0
    let noteIDs = [NoteID(rawValue: "n0te0000000a"), NoteID(rawValue: "n0te0000000b")]

    init(seed: UInt64) { rng = SeededGenerator(seed: seed) }

    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }

    /// One of two writers' pens, mostly the first.
    mutating func pen() -> String { chance(0.8) ? "a" : "b" }

    mutating func point() -> InkPoint {
        InkPoint(x: Float.random(in: 0...1404, using: &rng), y: Float.random(in: -10...1872, using: &rng),
                 pressure: Float.random(in: 0...1, using: &rng))
    }

    mutating func randomEvent() -> SessionEvent {
        time += chance(0.02) ? Double.random(in: 0...40, using: &rng) : Double.random(in: 0...0.6, using: &rng)
        let at = chance(0.01) ? time - 1 : time
        let state = session.state
        if state.note == nil, state.background == nil, chance(0.7) {
            let id = noteIDs.randomElement(using: &rng)!
            return .enterNote(id, pages: store.load(id), tags: [InkCore.Tag("a")!],
                              removedTags: [InkCore.Tag("gone")!], at: at)
        }
        let page = state.note?.currentPageID.flatMap { id in state.note?.pages.first { $0.id == id } }
        let strokes = page?.strokes.map(\.id) ?? []
        switch Int.random(in: 0..<100, using: &rng) {
        case 0..<12:
            let target = chance(0.9) ? state.note?.currentPageID : state.note?.pages.randomElement(using: &rng)?.id
            let key = pen()
            return .strokeDown(key: key, page: target ?? PageID(rawValue: "none"), point(),
                               tool: Tool.allCases.randomElement(using: &rng)!, writer: key, at: at)
        case 12..<45:
            return .strokeMove(key: pen(), (0..<Int.random(in: 1...3, using: &rng)).map { _ in point() }, at: at)
        case 45..<56:
            return .strokeUp(key: pen(), at: at)
        case 56..<60:
            let picked = (0..<Int.random(in: 1...3, using: &rng)).compactMap { _ in strokes.randomElement(using: &rng) }
            return .erase(picked + (chance(0.2) ? [StrokeID(9999)] : []), writer: pen(), at: at)
        case 60..<64:
            return .undo(writer: pen(), at: at)
        case 64..<67:
            return .redo(writer: pen(), at: at)
        case 67..<69:
            pagesCreated += 1
            return .addPage(PageID(rawValue: "pg" + String(pagesCreated)), at: at)
        case 69..<71:
            let id = state.note?.pages.randomElement(using: &rng)?.id ?? PageID(rawValue: "none")
            return .selectPage(id, at: at)
        case 71..<74:
            return .tap(x: 10, y: Double.random(in: 0...300, using: &rng),
                        count: Int.random(in: 1...2, using: &rng), at: at)
        case 74..<76:
            return .leaveRequested(at: at)
        case 76..<79:
            return .leaveAnswered([.saveAndLeave, .discard, .stay].randomElement(using: &rng)!, at: at)
        case 79..<80:
            return .background(at: at)
        case 80..<82:
            return .foreground(at: at)
        case 82..<93:
            return resolveSave(succeed: chance(0.7), at: at)
        case 93..<96:
            let id = page?.id ?? PageID(rawValue: "none")
            let found = InkCore.Tag("t\(Int.random(in: 0..<5, using: &rng))")!
            return chance(0.8)
                ? .recognitionFinished(id, hashtags: [InkCore.Tag("gone")!, found], at: at)
                : .recognitionFailed(id, reason: "busy", at: at)
        default:
            return .tick(at: at)
        }
    }

    /// The store's answer to the request that is out (applied first on success), or a stray answer.
    mutating func resolveSave(succeed: Bool, at: Double) -> SessionEvent {
        guard let request = outstanding else { return .saveFinished(SaveRequestID(999_999), at: at) }
        outstanding = nil
        if succeed {
            store.apply(request)
            return .saveFinished(request.id, at: at)
        }
        return .saveFailed(request.id, reason: "flaky", at: at)
    }

    mutating func send(_ event: SessionEvent) {
        let before = session.state
        let effects = session.send(event)
        let after = session.state
        check(event, effects, before, after)
    }

    mutating func check(_ event: SessionEvent, _ effects: [SessionEffect],
                        _ before: SessionState, _ after: SessionState) {
        #expect((after.clock ?? 0) >= (before.clock ?? 0))
        for effect in effects {
            switch effect {
            case .save(let request):
                #expect(outstanding == nil, "two saves in flight")
                // A save due at the event's time fires before it, even when the event then leaves.
                #expect(request.noteID == (after.note ?? before.note)?.id)
                outstanding = request
            case .leave:
                #expect(after.note == nil)
                // The session let go of its save in flight (a discard); the store still finishes it.
                if let request = outstanding { store.apply(request) }
                outstanding = nil
            default:
                break
            }
        }
        if before.note != nil, after.note == nil { #expect(effects.contains(.leave)) }
        guard let note = after.note else { return }
        #expect(note.isSaving == (outstanding != nil))
        if let old = before.note, old.id == note.id {
            checkStrokes(event, old, note)
            checkChanges(effects, old, note)
        }
        if !note.hasUnsavedChanges {
            let stored = store.load(note.id)
            let outline = { (pages: [Page]) in pages.map { "\($0.id): \($0.strokes.map(\.id))" } }
            #expect(outline(stored) == outline(note.pages), "store and session disagree with nothing unsaved")
            let same = stored == note.pages
            #expect(same, "stored strokes differ from the session's")
        }
    }

    /// The ink changes the event emitted, applied to the pages before it, give the pages after it:
    /// they account for every change of ink, and for nothing else.
    func checkChanges(_ effects: [SessionEffect], _ old: OpenNote, _ new: OpenNote) {
        var pages = old.pages
        for case .inkChanged(let change) in effects {
            if let index = pages.firstIndex(where: { $0.id == change.page }) {
                #expect(!change.isNewPage)
                pages[index].apply(change)
            } else {
                #expect(change.isNewPage && change.added.isEmpty && change.removed.isEmpty)
                pages.append(Page(id: change.page, size: change.size, template: change.template))
            }
        }
        #expect(pages == new.pages, "the ink changes do not account for the pages")
    }

    /// Every completed stroke stays on its page, unchanged, unless erased or undone.
    func checkStrokes(_ event: SessionEvent, _ old: OpenNote, _ new: OpenNote) {
        let removable: Set<StrokeID>? = switch event {
        case .erase(let ids, _, _): Set(ids)
        case .undo, .redo: nil
        default: []
        }
        for (oldPage, newPage) in zip(old.pages, new.pages) {
            let kept = Dictionary(uniqueKeysWithValues: newPage.strokes.map { ($0.id, $0) })
            for stroke in oldPage.strokes {
                if let now = kept[stroke.id] {
                    #expect(now == stroke)
                } else {
                    #expect(removable == nil || removable!.contains(stroke.id), "stroke \(stroke.id) lost")
                }
            }
        }
        // An undo may take back a stroke the stall rule ended just before it.
        for (key, drawing) in old.strokesInProgress where new.strokesInProgress[key] == nil && removable != nil {
            let before = Set(old.pages.first { $0.id == drawing.pageID }?.strokes.map(\.id) ?? [])
            let added = new.pages.first { $0.id == drawing.pageID }?.strokes.filter { !before.contains($0.id) } ?? []
            #expect(added.contains { Array($0.points.prefix(drawing.stroke.points.count)) == drawing.stroke.points },
                    "stroke in progress \(key) lost")
        }
    }

    /// Comes back, saves and leaves, with a store that now always succeeds.
    mutating func finish() {
        send(.foreground(at: time))
        send(.leaveRequested(at: time))
        send(.leaveAnswered(.saveAndLeave, at: time))
        while session.state.note != nil, outstanding != nil {
            time += 0.1
            send(resolveSave(succeed: true, at: time))
        }
        #expect(session.state.note == nil)
    }
}

@Suite("Random sessions")
struct RandomSessionTests {
    @Test("thousands of seeded random events keep every invariant", arguments: [1, 2, 3, 2024] as [UInt64])
    func randomEvents(seed: UInt64) {
        var run = RandomSessionRun(seed: seed)
        for _ in 0..<5000 {
            run.send(run.randomEvent())
        }
        run.finish()
    }
}
