import Foundation
import InkCore
import Testing
@testable import InkIndex

@Suite("Opening the index")
struct IndexOpeningTests {
    @Test("several openers of a new index at once all succeed, and it is created once")
    func concurrentCreation() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-index-open-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for round in 0..<10 {
            let url = folder.appendingPathComponent("index-\(round).sqlite")
            let failures = Locked<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 6) { _ in
                do { _ = try SearchIndex(url: url) } catch { failures.withLock { $0.append("\(error)") } }
            }
            #expect(failures.withLock { $0 }.isEmpty, "round \(round): \(failures.withLock { $0 })")
            let index = try SearchIndex(url: url)
            #expect(try index.database.read(SearchIndex.migrator.hasCompletedMigrations))
        }
    }
}
