import Foundation
import InkCore
import InkSamples
import PropertyBased
import Testing
@testable import InkStore

@Suite("Page file codec")
struct PageCodecTests {
    @Test("every page value survives a round trip within the storage grid")
    func roundTrip() async {
        await propertyCheck(count: 300, input: Gen<UInt64>.value(in: 0...UInt64.max)) { seed in
            var generator = ModelGenerator(seed: seed)
            let page = generator.page()
            let bytes = try! PageCodec.encodeFile(page)
            let decoded = decode(bytes, id: page.id)
            #expect(decoded.problems.isEmpty)
            #expect(decoded.page.id == page.id)
            #expect(decoded.page.size == page.size)
            #expect(decoded.page.template == page.template)
            #expect(decoded.page.strokes.count == page.strokes.count)
            for (got, want) in zip(decoded.page.strokes, page.strokes) {
                #expect(got.id == want.id && got.tool == want.tool && got.color == want.color)
                #expect(got.width == want.width && got.startTime == want.startTime)
                #expect(got.points.count == want.points.count)
                for (p, q) in zip(got.points, want.points) {
                    #expect(abs(p.x - q.x) <= 0.005 + abs(q.x) * 1e-6)
                    #expect(abs(p.y - q.y) <= 0.005 + abs(q.y) * 1e-6)
                    #expect(abs(p.pressure - q.pressure) <= 0.5 / 1024 + 1e-6)
                    #expect(p.time == q.time)
                    #expect((p.tilt == nil) == (q.tilt == nil) || got.points.contains { $0.tilt != nil })
                    if let a = p.tilt, let b = q.tilt {
                        #expect(abs(a.altitude - b.altitude) <= 0.0006 && abs(a.azimuth - b.azimuth) <= 0.0006)
                    }
                }
            }
            // Values already on the grid come back exactly: encoding the decoded page gives the same bytes
            // (Float holds every 0.01 step up to ±83,886 px; beyond that the grid is coarser).
            let onFloatGrid = page.strokes.allSatisfy { $0.points.allSatisfy { abs($0.x) < 80_000 && abs($0.y) < 80_000 } }
            if onFloatGrid {
                #expect(try! PageCodec.encodeFile(decoded.page) == bytes)
            }
        }
    }

    @Test("strokes appended in several saves, with removals and replacements, read back as one page")
    func appendThenReopen() async {
        await propertyCheck(count: 100, input: Gen<UInt64>.value(in: 0...UInt64.max), Gen<Int>.value(in: 1...5)) { seed, saves in
            var generator = ModelGenerator(seed: seed)
            let strokes = (1...UInt64(generator.int(1...20))).map { generator.stroke(id: $0) }
            var file = try! PageCodec.encodeFile(Page(id: PageID(rawValue: "testpage0001")))
            var expected: [Stroke] = []
            for (index, batch) in strokes.chunked(into: max(1, strokes.count / saves)).enumerated() {
                file += try! PageCodec.encode(batch.map(PageRecord.stroke))
                expected += batch
                if index % 2 == 1, let victim = expected.first {
                    file += try! PageCodec.encode([.removal([victim.id])])
                    expected.removeFirst()
                }
            }
            let decoded = decode(file)
            #expect(decoded.problems.isEmpty)
            #expect(decoded.page.strokes.map(\.id) == expected.map(\.id))
        }
    }

    @Test("a torn final chunk, cut at any byte, loses only that chunk")
    func tornFinalChunk() throws {
        let page = handwritingPage(strokes: 5, points: 30)
        let bytes = try savedOneByOne(page)
        let last = try #require(chunkRanges(bytes).last)
        for cut in last.lowerBound..<last.upperBound {
            let decoded = decode(Array(bytes[..<cut]))
            #expect(decoded.page.strokes.map(\.id) == page.strokes.dropLast().map(\.id), "cut at \(cut)")
            if cut > last.lowerBound {
                #expect(decoded.problems.map(\.kind) == [.truncatedChunk], "cut at \(cut)")
            }
        }
    }

    @Test("a flipped byte anywhere is caught by the CRC and every other chunk survives")
    func flippedByte() throws {
        let page = handwritingPage(strokes: 4, points: 12)
        let bytes = try savedOneByOne(page)
        let ranges = chunkRanges(bytes)
        for position in PageCodec.fileStart.count..<bytes.count {
            var damaged = bytes
            damaged[position] ^= 0x5A
            let decoded = decode(damaged)
            let hit = try #require(ranges.firstIndex { $0.contains(position) })
            #expect(decoded.isDamaged, "flip at \(position)")
            // Chunk 0 is the header; chunk k > 0 holds stroke k-1.
            let survivors = page.strokes.enumerated().filter { $0.offset + 1 != hit }.map(\.element.id)
            #expect(decoded.page.strokes.map(\.id) == survivors, "flip at \(position)")
        }
    }

    @Test("strokes saved together share a chunk; a save of many strokes splits into several")
    func strokeChunks() throws {
        let small = try PageCodec.encodeFile(handwritingPage(strokes: 10, points: 20))
        #expect(chunkRanges(small).count == 2)
        let large = handwritingPage(strokes: 400, points: 50)
        let bytes = try PageCodec.encodeFile(large)
        #expect(chunkRanges(bytes).count > 3)
        #expect(decode(bytes).page.strokes.count == 400)
    }

    @Test("text printed on the paper survives a round trip in its own chunk, which a reader without it skips")
    func printedText() throws {
        var page = handwritingPage(strokes: 2, points: 5)
        page.template.printed = [
            PrintedLine(text: "Agenda — Überblick", x: 234, baseline: 216, size: 27, bold: true),
            PrintedLine(text: "- bring the slides", x: 234, baseline: 286, size: 27, color: RGBA(red: 0, green: 128, blue: 0)),
        ]
        let bytes = try PageCodec.encodeFile(page)
        let decoded = decode(bytes, id: page.id)
        #expect(decoded.problems.isEmpty)
        #expect(decoded.page.template == page.template)
        // Without the PTXT chunk (a file from before it, or a reader that drops it) the ink is the same.
        let ranges = chunkRanges(bytes)
        let kept = ranges.filter { Array(bytes[$0].dropFirst(4).prefix(4)) != Array("PTXT".utf8) }
        #expect(kept.count == ranges.count - 1)
        let plain = decode(PageCodec.fileStart + kept.flatMap { Array(bytes[$0]) }, id: page.id)
        #expect(plain.page.strokes == decoded.page.strokes && plain.page.template.printed.isEmpty && plain.problems.isEmpty)
        // Off-page or NaN positions are refused when writing, never stored.
        page.template.printed[0].baseline = .nan
        #expect(throws: PageEncodingError.self) { try PageCodec.encodeFile(page) }
    }

    @Test("the page's stated resolution survives a round trip in its own UNIT chunk, which a reader without it skips")
    func statedResolution() throws {
        var page = handwritingPage(strokes: 2, points: 5)
        page.template.unitsPerInch = 226
        let bytes = try PageCodec.encodeFile(page)
        let decoded = decode(bytes, id: page.id)
        #expect(decoded.problems.isEmpty)
        #expect(decoded.page.template.unitsPerInch == 226)
        // Without the chunk (a page from before it) the resolution is not stated, and the ink is the same.
        let ranges = chunkRanges(bytes)
        let kept = ranges.filter { Array(bytes[$0].dropFirst(4).prefix(4)) != Array("UNIT".utf8) }
        #expect(kept.count == ranges.count - 1)
        let plain = decode(PageCodec.fileStart + kept.flatMap { Array(bytes[$0]) }, id: page.id)
        #expect(plain.page.strokes == decoded.page.strokes && plain.page.template.unitsPerInch == nil && plain.problems.isEmpty)
        // A resolution that is not one is refused when writing, never stored.
        for bad: Float in [0, -226, .nan, .infinity, 1_000_000] {
            page.template.unitsPerInch = bad
            #expect(throws: PageEncodingError.self) { try PageCodec.encodeFile(page) }
        }
    }

    @Test("unknown chunk types are skipped by length and are not damage")
    func unknownChunks() throws {
        let page = handwritingPage(strokes: 3, points: 10)
        var bytes = PageCodec.fileStart
        let full = try savedOneByOne(page)
        let ranges = chunkRanges(full)
        let payload: [UInt8] = Array("future data".utf8)
        var unknown: [UInt8] = [0, 0, 0, UInt8(payload.count)] + Array("zNEW".utf8) + payload
        let crc = (Array("zNEW".utf8) + payload).withUnsafeBytes { crc32($0) }
        unknown += [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        for range in ranges { bytes += full[range] + unknown }
        let decoded = decode(bytes)
        #expect(decoded.page.strokes == decode(full).page.strokes)
        #expect(decoded.page.strokes.count == page.strokes.count)
        #expect(decoded.problems.count == ranges.count)
        #expect(decoded.problems.allSatisfy { $0.kind == .unknownChunk })
        #expect(!decoded.isDamaged)
    }

    @Test("a file that is not a page file is reported, not read")
    func badSignature() {
        let decoded = decode(Array("%PDF-1.7 not a page".utf8))
        #expect(decoded.problems.map(\.kind) == [.badSignature])
        #expect(decoded.page.strokes.isEmpty)
    }

    @Test("any bytes decode without trapping")
    func garbageNeverTraps() throws {
        var generator = SeededGenerator(seed: 7)
        let valid = try PageCodec.encodeFile(handwritingPage(strokes: 6, points: 20))
        for round in 0..<3_000 {
            var bytes: [UInt8]
            if round % 2 == 0 {
                bytes = PageCodec.fileStart + (0..<Int(generator.next() % 600)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            } else {
                bytes = valid
                for _ in 0..<(1 + generator.next() % 8) {
                    bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next())
                }
                bytes = Array(bytes.prefix(Int(generator.next() % UInt64(bytes.count + 1))))
            }
            _ = decode(bytes)
        }
    }

    @Test("values the format cannot hold are refused when writing")
    func encodingRefusesBadValues() {
        let bad: [InkPoint] = [
            InkPoint(x: .nan, y: 0), InkPoint(x: 0, y: .infinity), InkPoint(x: 2e6, y: 0),
            InkPoint(x: 0, y: 0, pressure: -0.1), InkPoint(x: 0, y: 0, pressure: 1.5),
        ]
        for point in bad {
            #expect(throws: PageEncodingError.self) {
                try PageCodec.encode([.stroke(Stroke(id: StrokeID(1), points: [point]))])
            }
        }
    }

    @Test("points take about 5–6 bytes each on handwriting-like strokes")
    func compactness() throws {
        let page = handwritingPage(strokes: 200, points: 50)
        let bytes = try PageCodec.encodeFile(page)
        let perPoint = Double(bytes.count) / Double(page.pointCount)
        #expect(perPoint < 6, "\(perPoint) bytes per point")
    }
}

/// A page file as the session writes it when every stroke is saved on its own: one chunk per stroke.
func savedOneByOne(_ page: Page) throws -> [UInt8] {
    var bytes = PageCodec.fileStart + (try PageCodec.encode([.header(id: page.id, size: page.size, template: page.template)]))
    for stroke in page.strokes { bytes += try PageCodec.encode([.stroke(stroke)]) }
    return bytes
}


extension Array {
    func chunked(into size: Int) -> [[Element]] {
        stride(from: 0, to: count, by: size).map { Array(self[$0..<Swift.min($0 + size, count)]) }
    }
}

@Suite("Page file stroke order")
struct StrokeOrderTests {
    @Test("a stroke re-added after its removal (an undone erase) reads back in its drawing place")
    func undoneEraseKeepsPlace() throws {
        let page = handwritingPage(strokes: 3, points: 4)
        var bytes = try PageCodec.encodeFile(page)
        bytes += try PageCodec.encode([.removal([page.strokes[0].id])])
        bytes += try PageCodec.encode([.stroke(page.strokes[0])])
        #expect(decode(bytes).page.strokes.map(\.id) == page.strokes.map(\.id))
    }
}
