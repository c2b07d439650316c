import Foundation
import InkCore
import InkSamples
import InkStore
@testable import InkLive
@testable import InkwellKit
import Testing

private let pageA = PageID(rawValue: "pageconfirmA")
private let pageB = PageID(rawValue: "pageconfirmB")
private let diskFull = StoreError.io(URL(fileURLWithPath: "/library/.journal/n.journal"), "disk full")
private let notKept = LiveUpdate.error("Couldn't keep the change safe on disk: \(diskFull)")

/// A change on `page`: the stroke of `key` drawn, or (without a key) stroke `removing` erased, so
/// every change of a test is told apart.
private func change(_ page: PageID = pageA, key: String? = nil, removing: UInt64 = 0) -> InkChange {
    InkChange(page: page, size: .remarkable, template: PageTemplate(), removed: key == nil ? [StrokeID(removing)] : [], key: key)
}

/// The rule for confirming a writer's stroke, event by event, with the exact updates each event tells.
@Suite struct ConfirmationsTests {
    @Test func aChangeTheJournalKeptConfirmsItsStroke() {
        var rule = Confirmations()
        let drawn = change(key: "a:1"), erased = change(removing: 7)
        #expect(rule.handed([drawn, erased]) == 0)
        #expect(rule.isJournaling)
        #expect(rule.appended(0, .success(())) == [.changed(drawn, confirming: ["a:1"]), .changed(erased, confirming: [])])
        #expect(!rule.isJournaling)
    }

    @Test func changesAreToldInTheOrderHandedWhateverOrderTheirAppendsComplete() {
        var rule = Confirmations()
        let first = change(key: "a:1"), second = change(pageB, key: "b:1"), third = change(key: "a:2")
        let numbers = [rule.handed([first]), rule.handed([second]), rule.handed([third])]
        #expect(numbers == [0, 1, 2])
        #expect(rule.appended(2, .success(())) == [])
        #expect(rule.appended(1, .failure(diskFull)) == [])
        #expect(rule.isJournaling)
        #expect(rule.appended(0, .success(())) == [
            .changed(first, confirming: ["a:1"]),
            .changed(second, confirming: []), notKept,
            .changed(third, confirming: ["a:2"]),
        ])
        #expect(!rule.isJournaling)
        let fourth = change(key: "a:3")
        #expect(rule.handed([fourth]) == 3, "append numbers go on after those told")
        #expect(rule.appended(3, .success(())) == [.changed(fourth, confirming: ["a:3"])])
    }

    @Test func aStrokeWhoseAppendFailedIsConfirmedOnlyByACompletedSaveStartedAfterThat() {
        var rule = Confirmations()
        let drawn = change(key: "a:1")
        _ = rule.handed([drawn])
        // A save starting while the append is under way does not hold the failure told after it.
        rule.saveStarted(through: 1)
        #expect(rule.appended(0, .failure(diskFull)) == [.changed(drawn, confirming: []), notKept])
        #expect(rule.saveFinished() == ([], 1))
        // A save that fails confirms nothing; the next one that completes does.
        rule.saveStarted(through: 1)
        rule.saveFailed()
        #expect(rule.saveFinished() == ([], nil), "no save in flight: nothing to confirm or compact")
        rule.saveStarted(through: 1)
        #expect(rule.saveFinished() == ([.confirmed(pageA, strokeKeys: ["a:1"])], 1))
        rule.saveStarted(through: 1)
        #expect(rule.saveFinished() == ([], 1), "confirmed once")
    }

    @Test func aCompletedSaveCompactsWhatItCoversAndConfirmsOnlyTheKeysItHeld() {
        var rule = Confirmations()
        for (number, failed) in [change(key: "a:1"), change(pageB, key: "b:1"), change(removing: 4), change(key: "a:2")].enumerated() {
            _ = rule.handed([failed])
            _ = rule.appended(number, .failure(diskFull))
        }
        rule.saveStarted(through: 4)
        // Failing while the save is in flight: the save does not hold it.
        let late = change(pageB, key: "b:2")
        _ = rule.handed([late])
        #expect(rule.appended(4, .failure(diskFull)) == [.changed(late, confirming: []), notKept])
        // Page by page in the order told; the erasure has no stroke to confirm.
        #expect(rule.saveFinished() == ([.confirmed(pageA, strokeKeys: ["a:1", "a:2"]), .confirmed(pageB, strokeKeys: ["b:1"])], 4))
        #expect(rule.sentAgain("b:2", on: pageB) == [], "the save did not hold it")
        rule.saveStarted(through: 5)
        #expect(rule.saveFinished() == ([.confirmed(pageB, strokeKeys: ["b:2"])], 5))
    }

    @Test func aKeySentAgainIsConfirmedAtOnceWhenOnDiskElseWhenItsAppendOrSaveCompletes() {
        var rule = Confirmations()
        #expect(rule.sentAgain("old:1", on: pageA) == [.confirmed(pageA, strokeKeys: ["old:1"])], "kept by an earlier session")
        let kept = change(key: "a:1"), failed = change(key: "a:2"), pending = change(key: "a:3")
        _ = rule.handed([kept])
        _ = rule.handed([failed])
        _ = rule.handed([pending])
        #expect(rule.appended(0, .success(())) == [.changed(kept, confirming: ["a:1"])])
        #expect(rule.appended(2, .success(())) == [], "on disk, but told after a:2")
        #expect(rule.sentAgain("a:1", on: pageB) == [.confirmed(pageB, strokeKeys: ["a:1"])])
        #expect(rule.sentAgain("a:3", on: pageA) == [])
        #expect(rule.appended(1, .failure(diskFull)) == [.changed(failed, confirming: []), notKept, .changed(pending, confirming: ["a:3"])])
        #expect(rule.sentAgain("a:3", on: pageA) == [.confirmed(pageA, strokeKeys: ["a:3"])])
        #expect(rule.sentAgain("a:2", on: pageA) == [])
        rule.saveStarted(through: 3)
        #expect(rule.sentAgain("a:2", on: pageA) == [], "the save holding it has not completed")
        #expect(rule.saveFinished() == ([.confirmed(pageA, strokeKeys: ["a:2"])], 3))
        #expect(rule.sentAgain("a:2", on: pageA) == [.confirmed(pageA, strokeKeys: ["a:2"])])
    }

    @Test func aStrokeLetGoOfWithoutDrawingIsConfirmedAtOnce() {
        let rule = Confirmations()
        let drawn = change(pageB, key: "b:1")
        #expect(rule.letGo([("a:1", pageA), ("b:1", pageB)], drawing: [drawn, change(removing: 3)])
            == [.confirmed(pageA, strokeKeys: ["a:1"])], "b:1 is confirmed by its change's append")
        #expect(rule.letGo([], drawing: [drawn]) == [])
    }

    @Test("seeded random journal and save events keep the rule", arguments: [1, 2, 3, 42, 2024] as [UInt64])
    func randomEvents(seed: UInt64) {
        var run = RandomConfirmationRun(seed: seed)
        for _ in 0..<3000 { run.step() }
        run.finish()
    }
}

/// Feeds a ``Confirmations`` seeded random events — appends completing in any order, succeeding or
/// failing, saves started, completed and failed, strokes let go and sent again — and checks every
/// update it tells against a model of what is on disk.
private struct RandomConfirmationRun {
    var rng: SeededGenerator
    var rule = Confirmations()
    /// Every change handed, in order, with its append's number, and how many were told.
    var handed: [(change: InkChange, append: Int)] = []
    var toldCount = 0
    /// The changes of every append, by number, the appends whose outcome was not given yet, those
    /// that failed, and how many errors were told.
    var appended: [[InkChange]] = []
    var pending: [Int] = []
    var failedAppends: Set<Int> = []
    var errorsTold = 0
    /// The page of every stroke the note has, by key.
    var strokes: [String: PageID] = [:]
    /// Keys whose append succeeded; keys told unkept and no completed save holds; keys on disk.
    var appendedKeys: Set<String> = []
    var unjournaled: Set<String> = []
    var durable: Set<String> = []
    /// The save in flight: the sequence it covers and the unkept keys it holds.
    var save: (through: UInt64, holds: Set<String>)?
    /// How often each key was confirmed, and was sent again while on disk.
    var confirmations: [String: Int] = [:]
    var sentAgainOnDisk: [String: Int] = [:]
    var nextKey = 0
    var nextErasure: UInt64 = 0

    init(seed: UInt64) { rng = SeededGenerator(seed: seed) }

    mutating func chance(_ p: Double) -> Bool { rng.unit() < p }

    mutating func step() {
        switch rng.index(below: 100) {
        case 0..<35: sessionEvent()
        case 35..<70: completeAppend(succeed: chance(0.75))
        case 70..<78: if save == nil { startSave() }
        case 78..<88: if save != nil { finishSave(succeed: chance(0.7)) }
        default: sendAgain()
        }
    }

    /// An event of the session: strokes end (some drawn, some let go of) and erasures are made.
    mutating func sessionEvent() {
        var ended: [(key: String, page: PageID)] = []
        var changes: [InkChange] = []
        for _ in 0..<rng.index(below: 4) {
            let page = chance(0.5) ? pageA : pageB
            if chance(0.7) {
                nextKey += 1
                let key = "w:\(nextKey)"
                strokes[key] = page
                ended.append((key, page))
                if chance(0.85) { changes.append(change(page, key: key)) }
            } else {
                nextErasure += 1
                changes.append(change(page, removing: nextErasure))
            }
        }
        let letGo = Set(ended.map(\.key)).subtracting(changes.compactMap(\.key))
        let told = rule.letGo(ended, drawing: changes)
        #expect(told == ended.filter { letGo.contains($0.key) }.map { .confirmed($0.page, strokeKeys: [$0.key]) })
        durable.formUnion(letGo)
        check(told)
        guard !changes.isEmpty else { return }
        #expect(rule.handed(changes) == appended.count)
        handed += changes.map { ($0, appended.count) }
        pending.append(appended.count)
        appended.append(changes)
    }

    mutating func completeAppend(succeed: Bool) {
        guard !pending.isEmpty else { return }
        let number = pending.remove(at: rng.index(below: pending.count))
        if succeed { appendedKeys.formUnion(appended[number].compactMap(\.key)) } else { failedAppends.insert(number) }
        check(rule.appended(number, succeed ? .success(()) : .failure(diskFull)))
    }

    mutating func startSave() {
        let through = UInt64(appended.count)
        save = (through, unjournaled)
        rule.saveStarted(through: through)
    }

    mutating func finishSave(succeed: Bool) {
        guard let held = save else { return }
        save = nil
        guard succeed else { return rule.saveFailed() }
        unjournaled.subtract(held.holds)
        durable.formUnion(held.holds)
        let (told, compactThrough) = rule.saveFinished()
        #expect(compactThrough == held.through)
        #expect(Set(told.flatMap { $0.confirmedKeys }) == held.holds)
        check(told)
    }

    mutating func sendAgain() {
        guard let key = strokes.keys.sorted().randomElement(using: &rng) else { return }
        let page = chance(0.8) ? strokes[key]! : pageB
        let onDisk = durable.contains(key)
        if onDisk { sentAgainOnDisk[key, default: 0] += 1 }
        let told = rule.sentAgain(key, on: page)
        #expect(told == (onDisk ? [.confirmed(page, strokeKeys: [key])] : []), "\(key) sent again")
        for update in told { if case .confirmed(_, let keys) = update { for key in keys { confirmations[key, default: 0] += 1 } } }
    }

    /// Checks updates the rule told: changes in the order handed, each confirming its key only when
    /// its append succeeded, and an error after the changes of each failed append; confirmations only
    /// of keys on disk, on their page.
    mutating func check(_ told: [LiveUpdate]) {
        for update in told {
            switch update {
            case .changed(let change, let keys):
                #expect(toldCount < handed.count && handed[toldCount].change == change, "changes told in the order handed")
                toldCount += 1
                guard let key = change.key else {
                    #expect(keys.isEmpty)
                    continue
                }
                if appendedKeys.contains(key) {
                    #expect(keys == [key])
                    durable.insert(key)
                } else {
                    #expect(keys.isEmpty, "\(key) confirmed though its append failed")
                    unjournaled.insert(key)
                }
                for key in keys { confirmations[key, default: 0] += 1 }
            case .confirmed(let page, let keys):
                #expect(!keys.isEmpty)
                for key in keys {
                    #expect(durable.contains(key), "\(key) confirmed before it is on disk")
                    #expect(strokes[key] == page)
                    confirmations[key, default: 0] += 1
                }
            case .error:
                let append = toldCount > 0 ? handed[toldCount - 1].append : nil
                #expect(append.map(failedAppends.contains) == true, "an error told after a kept change")
                #expect(toldCount == handed.count || handed[toldCount].append != append, "an error told amid an append's changes")
                errorsTold += 1
            default:
                Issue.record("unexpected update \(update)")
            }
        }
    }

    /// Completes every append (some failing), then a save that holds everything: every stroke is then
    /// confirmed once, and once more for each time it was sent again on disk.
    mutating func finish() {
        while !pending.isEmpty { completeAppend(succeed: chance(0.75)) }
        #expect(!rule.isJournaling)
        #expect(toldCount == handed.count)
        #expect(errorsTold == failedAppends.count)
        if save != nil { finishSave(succeed: true) }
        startSave()
        finishSave(succeed: true)
        #expect(unjournaled.isEmpty)
        for key in strokes.keys.sorted() {
            #expect(confirmations[key] == 1 + sentAgainOnDisk[key, default: 0], "\(key) confirmed \(confirmations[key] ?? 0) times")
        }
    }
}

extension LiveUpdate {
    /// The keys a ``LiveUpdate/confirmed(_:strokeKeys:)`` confirms.
    fileprivate var confirmedKeys: [String] {
        if case .confirmed(_, let keys) = self { keys } else { [] }
    }
}
