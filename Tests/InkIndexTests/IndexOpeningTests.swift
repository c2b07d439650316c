import Foundation
import InkCore
import InkStore
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

@Suite("Opening a damaged or impossible index")
struct DamagedIndexTests {
    func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-index-damage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test("a garbage index.sqlite is set aside and made anew, with a notice naming where it went")
    func garbageIndex() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("index.sqlite")
        let garbage = Data(repeating: 0x5A, count: 8192)
        try garbage.write(to: url)
        let index = try SearchIndex(url: url)
        #expect(!index.isReadOnly && !index.isInMemory)
        let aside = try #require(index.setAside)
        #expect(try Data(contentsOf: aside) == garbage)
        #expect(index.notice?.contains(aside.path) == true)
        #expect(try index.database.read(SearchIndex.migrator.hasCompletedMigrations))
        // Opened again, the new index is simply there.
        #expect(try SearchIndex(url: url).setAside == nil)
    }

    @Test("where no index can be kept (a read-only folder), none is created: one in memory answers from the files")
    func nowhereToKeepIt() throws {
        guard getuid() != 0 else {
            // root writes into read-only folders; the full-disk path is the same catch, exercised by the CLI tests.
            let folder = try folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let blocked = folder.appendingPathComponent("not-a-folder")
            try Data("x".utf8).write(to: blocked)
            let index = try SearchIndex(url: blocked.appendingPathComponent("index.sqlite"))
            #expect(index.isInMemory && index.notice?.contains("searched from the files") == true)
            #expect(throws: StoreError.self) { try index.claim(PageID.random()) }
            return
        }
        let folder = try folder()
        defer { chmod(folder.path, 0o755); try? FileManager.default.removeItem(at: folder) }
        chmod(folder.path, 0o555)
        let index = try SearchIndex(url: folder.appendingPathComponent("index.sqlite"))
        #expect(index.isInMemory)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
