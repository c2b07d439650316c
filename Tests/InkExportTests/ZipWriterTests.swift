import Foundation
import TestSupport
import Testing
@testable import InkExport

@Suite("ZIP writer")
struct ZipWriterTests {
    let scratch = ScratchFolder()
    var folder: URL { scratch.url }

    @Test("entries from memory and from files, in folders, stored or deflated, pass unzip -t")
    func writeArchive() throws {
        let source = folder.appendingPathComponent("page.bin")
        try Data((0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }).write(to: source)
        let destination = folder.appendingPathComponent("export.zip")
        let writer = try ZipWriter(destination: destination)
        try writer.add(Array("# Notes\n".utf8), as: "Work/Meetings/20261121-notes.md", compress: true)
        try writer.add(file: source, as: "Work/20261121-page.png", compress: false)
        try writer.commit()
        let (status, output) = try tool(["unzip", "-t", destination.path])
        #expect(status == 0, "\(output)")
        let (_, listing) = try tool(["unzip", "-v", destination.path])
        #expect(listing.contains("Work/Meetings/20261121-notes.md"))
        #expect(listing.contains("Stored") && listing.contains("Defl"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["export.zip", "page.bin"])
    }

    @Test("unsafe entry names are refused")
    func unsafeNames() throws {
        let writer = try ZipWriter(destination: folder.appendingPathComponent("bad.zip"))
        for name in ["../escape.txt", "/etc/passwd", "a/../../b", "a\\b", "", "a//b", "./a"] {
            #expect(throws: ExportError.self, "\(name)") { try writer.add([1], as: name, compress: true) }
        }
        writer.discard()
    }

    @Test("a discarded or failed archive leaves nothing behind")
    func nothingLeftBehind() throws {
        let writer = try ZipWriter(destination: folder.appendingPathComponent("half.zip"))
        try writer.add(Array("x".utf8), as: "x.txt", compress: true)
        writer.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)

        let missing = try ZipWriter(destination: folder.appendingPathComponent("missing.zip"))
        try missing.add(file: folder.appendingPathComponent("does-not-exist"), as: "y.bin", compress: false)
        #expect(throws: ExportError.self) { try missing.commit() }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)

        let unwritable = folder.appendingPathComponent("no-such-folder/out.zip")
        #expect(throws: ExportError.self) { try ZipWriter(destination: unwritable) }
    }

    @Test("temporaries are made beside the archive, never in $TMPDIR; those of an export that was killed are swept by the next, a running one's kept")
    func temporariesBesideAndSwept() throws {
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let dead = ended.processIdentifier
        // What a killed export leaves: its archive half written, its entries' files, libzip's own temporary.
        let leftovers = [".old.zip.inkwell-export-\(dead).17.partial", ".old.zip.inkwell-export-\(dead).17.partial.aB3xYz",
                         ".other.zip.inkwell-export-\(dead).9.parts"]
        for name in leftovers where name.hasSuffix(".parts") {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(name).appendingPathComponent("sub"), withIntermediateDirectories: true)
        }
        for name in leftovers where !name.hasSuffix(".parts") { try Data("half".utf8).write(to: folder.appendingPathComponent(name)) }
        let running = ".live.zip.inkwell-export-1.5.partial"  // pid 1 always runs
        try Data("busy".utf8).write(to: folder.appendingPathComponent(running))

        let writer = try ZipWriter(destination: folder.appendingPathComponent("new.zip"))
        let during = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(Set(leftovers).isDisjoint(with: during), "\(during)")
        #expect(during.contains(running))
        #expect(writer.partsFolder.deletingLastPathComponent().standardizedFileURL.path == folder.standardizedFileURL.path)
        #expect(writer.partsFolder.lastPathComponent.hasPrefix(".new.zip.inkwell-export-\(getpid())."))
        try Data("part".utf8).write(to: writer.partsFolder.appendingPathComponent("0.part"))
        try writer.add(file: writer.partsFolder.appendingPathComponent("0.part"), as: "a.txt", compress: true)
        try writer.commit()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [running, "new.zip"].sorted())
    }
}

/// A fresh empty folder under the system temporary folder, removed with this value.
final class ScratchFolder: Sendable {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-zip-\(UUID().uuidString)")

    init() { try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(at: url) }
}
