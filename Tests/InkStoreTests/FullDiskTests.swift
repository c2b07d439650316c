import Foundation
import InkCore
import Testing
@testable import InkStore
#if canImport(Glibc)
import Glibc
#endif

/// A save on a full disk costs a retry, never a damaged page (issue 40): an append that fails part way
/// is taken back, and a torn tail left by a crash is cut off before the next append.
@Suite("Appends on a full disk")
struct FullDiskTests {
    let root = temporaryFolder()

    func stroke(_ id: UInt64, x: Float) -> Stroke {
        Stroke(id: StrokeID(id), width: 2, startTime: Double(id) * 100,
               points: (0..<40).map { InkPoint(x: x + Float($0), y: 10 + Float($0), pressure: 0.5, time: Float($0) * 10) })
    }

    /// A library with one note of one page holding strokes 1 and 2, and that page's file.
    func notePage() throws -> (library: Library, note: NoteID, page: PageID, url: URL) {
        let library = try Library.create(at: root)
        let note = try library.createNote(title: "Full disk").note.id
        let page = PageID.random()
        try library.save([PageDelta(pageID: page, isNew: true, addedStrokes: [stroke(1, x: 10), stroke(2, x: 20)])], to: note)
        let stored = try library.locateNote(note)
        return (library, note, page, library.pageURL(page, in: stored.folder))
    }

    func decoded(_ url: URL, _ page: PageID) throws -> DecodedPage {
        try DurableFile.read(url).withUnsafeBytes { PageCodec.decode($0, fallbackID: page) }
    }

    @Test("an append the disk fills part way leaves the page as it was, says 'disk full', and the retry is whole")
    func failedAppend() throws {
        let (library, note, page, url) = try notePage()
        let before = try DurableFile.read(url)
        let chunks = try PageCodec.encode([.stroke(stroke(3, x: 30))])
        // The write loop writes half the chunk, then the disk is full: what a 2 MB tmpfs does.
        func halfThenFull(_ fd: Int32, _ bytes: [UInt8]) throws(DurableFile.WriteFailure) {
            _ = write(fd, bytes, bytes.count / 2)
            throw DurableFile.WriteFailure(step: .write, reason: String(cString: strerror(ENOSPC)), code: ENOSPC)
        }
        #expect {
            try DurableFile.append(url, chunks, whole: PageCodec.wholeLength, writer: halfThenFull)
        } throws: { "\($0)".contains("disk full") }
        #expect(try DurableFile.read(url) == before)
        try library.save([PageDelta(pageID: page, isNew: false, addedStrokes: [stroke(3, x: 30)])], to: note)
        let after = try decoded(url, page)
        #expect(after.problems.isEmpty, "\(after.problems)")
        #expect(after.page.strokes.map(\.id) == [1, 2, 3].map { StrokeID($0) })
    }

    @Test("a torn chunk at the end of a page (a crash inside an append) is cut off before the next append")
    func tornTail() throws {
        let (library, note, page, url) = try notePage()
        let whole = try DurableFile.read(url)
        let torn = try PageCodec.encode([.stroke(stroke(3, x: 30))])
        for cut in [5, torn.count / 2, torn.count - 1] {
            try DurableFile.replace(url, with: whole + torn.prefix(cut))
            #expect(try decoded(url, page).isDamaged)
            try library.save([PageDelta(pageID: page, isNew: false, addedStrokes: [stroke(4, x: 40)])], to: note)
            let after = try decoded(url, page)
            #expect(after.problems.isEmpty, "cut at \(cut): \(after.problems)")
            #expect(after.page.strokes.map(\.id) == [1, 2, 4].map { StrokeID($0) })
        }
    }

    @Test("a last chunk whose bytes never reached the disk (zeros) is cut off; damage that whole chunks follow is left for salvage")
    func zeroedTailAndMiddleDamage() throws {
        let (library, note, page, url) = try notePage()
        let whole = try DurableFile.read(url)
        var zeroed = try PageCodec.encode([.stroke(stroke(3, x: 30))])
        for index in 8..<zeroed.count { zeroed[index] = 0 }
        try DurableFile.replace(url, with: whole + zeroed)
        try library.save([PageDelta(pageID: page, isNew: false, addedStrokes: [stroke(4, x: 40)])], to: note)
        #expect(try decoded(url, page).problems.isEmpty)

        // Damage in the middle: the chunks after it are intact, so nothing is cut.
        var damaged = try DurableFile.read(url)
        damaged[PageCodec.fileStart.count + 20] ^= 0xFF
        try DurableFile.replace(url, with: damaged)
        try library.save([PageDelta(pageID: page, isNew: false, addedStrokes: [stroke(5, x: 50)])], to: note)
        let after = try decoded(url, page)
        #expect(after.isDamaged)
        #expect(after.page.strokes.map(\.id).contains(StrokeID(5)))
        #expect(Array(try DurableFile.read(url).prefix(damaged.count)) == damaged)
    }
}
