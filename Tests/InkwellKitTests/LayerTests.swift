import Foundation
@testable import InkwellKit
import Testing
import InkCore
import InkGeometry
import InkInterchange
import InkRender
import InkStore

/// Page layers from import to page file to rendering: kept with their names and visibility, hidden
/// ones never drawn, and invisible to a reader that does not know them without losing a stroke.
@Suite struct LayerTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-layers-\(UUID().uuidString)")

    func layeredPage() -> Page {
        var page = Page(id: PageID(rawValue: "8d2h5k0w3q1r"), template: PageTemplate(kind: .lined, layers: [
            PageLayer(name: "Sketch"), PageLayer(name: "Notes ✎"), PageLayer(name: "Answers", isVisible: false),
        ]))
        for (index, layer) in [0, 1, 2, 1].enumerated() {
            let y = Float(100 + 200 * index)
            page.strokes.append(Stroke(id: StrokeID(UInt64(index + 1)), width: 6, points: [InkPoint(x: 100, y: y), InkPoint(x: 900, y: y + 10)],
                                       layer: UInt16(layer)))
        }
        return page
    }

    @Test func thePageFileKeepsLayersAndAppendsKeepThem() throws {
        let page = layeredPage()
        let decoded = try PageCodec.decodeStrict(PageCodec.encodeFile(page), fallbackID: page.id)
        #expect(decoded == page)
        // A save appending strokes on layer 2 after the page was written.
        var appended = PageCodec.fileStart + (try PageCodec.encode([.header(id: page.id, size: page.size, template: page.template)]))
        appended += try PageCodec.encode(page.strokes.map(PageRecord.stroke))
        #expect(try PageCodec.decodeStrict(appended, fallbackID: page.id).strokes.map(\.layer) == [0, 1, 2, 1])
    }

    @Test func aReaderThatSkipsTheChunkSeesEveryStrokeOnOneShownLayer() throws {
        let page = layeredPage()
        var bytes = try PageCodec.encodeFile(page)
        // Rename every LAYR chunk to a type no reader knows (fixing its CRC), as an older reader sees it.
        #expect(Self.renameChunks("LAYR", to: "LAYZ", in: &bytes) > 0)
        let decoded = bytes.withUnsafeBytes { PageCodec.decode($0, fallbackID: page.id) }
        #expect(decoded.page.strokes.count == 4)
        #expect(decoded.page.strokes.allSatisfy { $0.layer == 0 })
        #expect(decoded.page.template.layers.isEmpty)
        #expect(decoded.problems.allSatisfy { !$0.isDamage })
    }

    /// Renames every chunk of `type` in a page file to `newType` (a type no reader knows), fixing each
    /// CRC, as an older reader sees the file; returns how many were renamed.
    static func renameChunks(_ type: String, to newType: String, in bytes: inout [UInt8]) -> Int {
        var offset = PageCodec.fileStart.count, renamed = 0
        while offset + 8 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            if Array(bytes[offset + 4..<offset + 8]) == Array(type.utf8) {
                bytes.replaceSubrange(offset + 4..<offset + 8, with: Array(newType.utf8))
                let crc = crc32(bytes[offset + 4..<offset + 8 + length])
                bytes.replaceSubrange(offset + 8 + length..<offset + 12 + length, with: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
                renamed += 1
            }
            offset += 12 + length
        }
        return renamed
    }

    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    @Test func hiddenLayersAreNotDrawn() throws {
        let page = layeredPage()
        var withoutHidden = page
        withoutHidden.strokes.removeAll { $0.layer == 2 }
        withoutHidden.template.layers[2].isVisible = true
        let renderer = Renderer()
        #expect(try renderer.png(page) == renderer.png(withoutHidden))
        var shown = page
        shown.template.layers[2].isVisible = true
        #expect(try renderer.png(shown) != renderer.png(page))
    }

    @Test func anImportedXournalPageKeepsItsLayers() throws {
        let library = try Library.create(at: root)
        let file = root.appendingPathComponent("two-layers.xopp")
        try Data("""
            <?xml version="1.0" standalone="no"?>
            <xournal creator="test" fileversion="4"><page width="612" height="792"><background type="solid" color="#ffffffff" style="plain"/>
            <layer name="Drawing"><stroke tool="pen" color="#000000ff" width="2">10 10 100 100</stroke></layer>
            <layer><stroke tool="pen" color="#ff0000ff" width="2">10 200 100 300</stroke><stroke tool="pen" color="#ff0000ff" width="2">10 300 100 400</stroke></layer>
            </page></xournal>
            """.utf8).write(to: file)
        let report = Workspace(library: library).importer(recognize: false, jobs: 1).run([file], replayer: NoteReplayer(), keepGoing: false)
        #expect(report.failures.isEmpty)
        let stored = try #require(library.notes().first)
        let page = try #require(library.pages(of: stored).first)
        #expect(page.template.layers.map(\.name) == ["Drawing", "Layer 2"])
        #expect(page.strokes.map(\.layer) == [0, 1, 1])
        #expect(page.strokes.map(\.color) == [.black, RGBA(red: 255, green: 0, blue: 0), RGBA(red: 255, green: 0, blue: 0)])
    }
}

/// The page file's `PBKG` chunk: the PDF page under the ink.
@Suite struct PageBackgroundFileTests {
    let page = Page(id: PageID(rawValue: "8d2h5k0w3q1r"), size: PageSize(width: 792, height: 612),
                    template: PageTemplate(kind: .lined, background: PageBackground(document: String(repeating: "0f", count: 32), page: 1)))

    @Test func thePageFileKeepsThePDFPageAndAnOlderReaderDrawsPlainPaper() throws {
        var bytes = try PageCodec.encodeFile(page)
        #expect(try PageCodec.decodeStrict(bytes, fallbackID: page.id) == page)
        // Renamed to a type no reader knows (CRC fixed), as an older reader sees it.
        let offset = PageCodec.fileStart.count
        let headerLength = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
        let chunk = offset + 12 + headerLength
        #expect(Array(bytes[chunk + 4..<chunk + 8]) == Array("PBKG".utf8))
        #expect(LayerTests.renameChunks("PBKG", to: "PBKZ", in: &bytes) == 1)
        let older = bytes.withUnsafeBytes { PageCodec.decode($0, fallbackID: page.id) }
        #expect(older.page.template.background == nil)
        #expect(older.page.template.kind == .lined)
        #expect(older.problems.allSatisfy { !$0.isDamage })
    }

    @Test func aDocumentNameThatIsNotAContentIDIsNeverWritten() {
        for name in ["../../etc/passwd", "", String(repeating: "A", count: 64), String(repeating: "0", count: 63)] {
            #expect(throws: PageEncodingError.self) {
                try PageCodec.encodeFile(Page(id: page.id, template: PageTemplate(background: PageBackground(document: name, page: 0))))
            }
        }
    }
}

/// Filled shapes (Xournal++ `fill="A"`): kept through import, the page file (`FILL`), InkML and rendering.
@Suite struct StrokeFillTests {
    @Test func aFilledShapeIsImportedStoredExportedAndPaintedUnderItsLine() throws {
        let xml = Data("""
            <xournal><page width="200" height="200"><layer>
            <stroke tool="pen" color="#0000ffff" width="2" fill="128">20 20 180 20 180 180 20 180 20 20</stroke>
            <stroke tool="pen" color="#000000ff" width="2">20 190 180 190</stroke>
            </layer></page></xournal>
            """.utf8)
        var note = ScratchNote(title: "Shapes", created: Date())
        try NoteReplayer().replay(try XournalDecoder.decode(xml, file: "shapes.xopp").notes[0], into: &note)
        let page = try #require(try note.pages().first)
        #expect(page.strokes.map(\.fill) == [128, nil])

        // The page file keeps it; a reader that skips the chunk draws the outline alone.
        var bytes = try PageCodec.encodeFile(page)
        #expect(try PageCodec.decodeStrict(bytes, fallbackID: page.id) == page)
        #expect(LayerTests.renameChunks("FILL", to: "FILZ", in: &bytes) == 1)
        let older = bytes.withUnsafeBytes { PageCodec.decode($0, fallbackID: page.id) }
        #expect(older.page.strokes.map(\.fill) == [nil, nil] && older.page.strokes.count == 2)

        // InkML round trip.
        let inkml = InkMLWriter.write([page], title: "Shapes")
        let back = try InkMLDecoder.decode(inkml, file: "shapes.inkml")
        var fills: [UInt8?] = []
        for case .penDown(_, let pen, _) in back.notes[0].events { fills.append(pen.fill) }
        #expect(fills == [128, nil])

        // Painted: the inside half-blue over white, the outline blue, outside white.
        let svg = Renderer().svg(page)
        #expect(svg.contains("fill-opacity=\"0.502\"") || svg.contains("fill-opacity=\"0.5\""), "\(svg.prefix(1500))")
    }
}

/// Dashed strokes (Xournal++ dash styles): kept through the page file (`DASH`) and InkML, drawn as
/// their dashes.
@Suite struct StrokeDashTests {
    let dashed = Stroke(id: StrokeID(1), width: 2, points: (0...10).map { InkPoint(x: Float($0) * 10, y: 50, pressure: 0.5) }, dash: [6, 3])

    @Test func aDashedStrokeIsDrawnAsItsDashesAlongItsLength() throws {
        let pieces = Dashing.pieces(of: dashed)
        // 100 px at 9 px a period: 11 dashes and a part of a twelfth.
        #expect(pieces.count == 12)
        #expect(pieces.allSatisfy { $0.id == dashed.id && $0.dash == nil && $0.width == 2 })
        #expect(pieces[0].points.first?.x == 0 && abs((pieces[0].points.last?.x ?? 0) - 6) < 0.001)
        #expect(abs((pieces[1].points.first?.x ?? 0) - 9) < 0.001 && abs((pieces[1].points.last?.x ?? 0) - 15) < 0.001)
        #expect(abs((pieces[11].points.first?.x ?? 0) - 99) < 0.001 && pieces[11].points.last?.x == 100)
        #expect(Dashing.pieces(of: Stroke(id: StrokeID(2), points: dashed.points)).count == 1)
        // Zero on lengths are dots; a repeated last point adds no dot in the last gap.
        var dots = dashed
        dots.dash = [0, 10]
        let dotted = Dashing.pieces(of: dots)
        #expect(dotted.count == 10 && dotted.allSatisfy { $0.points.count == 2 && $0.points[0].x == $0.points[1].x })
        var repeated = dashed
        repeated.points.append(repeated.points[repeated.points.count - 1])
        repeated.dash = [6, 4]
        #expect(Dashing.pieces(of: repeated).count == 10)
    }

    @Test func thePageFileAndInkMLKeepTheDashAndAnOlderReaderDrawsItSolid() throws {
        let page = Page(id: PageID(rawValue: "8d2h5k0w3q1r"), strokes: [dashed, Stroke(id: StrokeID(2), points: dashed.points)])
        var bytes = try PageCodec.encodeFile(page)
        #expect(try PageCodec.decodeStrict(bytes, fallbackID: page.id) == page)
        #expect(LayerTests.renameChunks("DASH", to: "DASZ", in: &bytes) == 1)
        let older = bytes.withUnsafeBytes { PageCodec.decode($0, fallbackID: page.id) }
        #expect(older.page.strokes.map(\.dash) == [nil, nil] && older.page.strokes.count == 2)

        let back = try InkMLDecoder.decode(InkMLWriter.write([page]), file: "dashes.inkml")
        var dashes: [[Float]?] = []
        for case .penDown(_, let pen, _) in back.notes[0].events { dashes.append(pen.dash) }
        #expect(dashes == [[6, 3], nil])
        #expect(throws: PageEncodingError.self) {
            try PageCodec.encodeFile(Page(id: page.id, strokes: [Stroke(id: StrokeID(1), points: dashed.points, dash: [.nan, 1])]))
        }
    }
}
