import Foundation
import InkCore
import Testing
@testable import InkInterchange

@Suite("Xournal++ .xopp / .xoj decoding")
struct XournalDecoderTests {
    func decode(_ text: String, gzip: Bool = false) throws -> Recording {
        let data = gzip ? Data(Deflate.compress(Array(text.utf8))) : Data(text.utf8)
        return try XournalDecoder.decode(data, file: "test.xopp")
    }

    /// Counts strokes and coordinate pairs in the XML itself, independently of the decoder.
    static func countInXML(_ xml: String) -> (pages: Int, strokes: Int, points: Int) {
        var strokes = 0, points = 0
        var rest = Substring(xml)
        while let open = rest.range(of: "<stroke") {
            guard let tagEnd = rest[open.upperBound...].firstIndex(of: ">"),
                  let close = rest[tagEnd...].range(of: "</stroke>") else { break }
            let numbers = rest[rest.index(after: tagEnd)..<close.lowerBound].split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" })
            if numbers.count >= 2 { strokes += 1 }
            points += numbers.count / 2
            rest = rest[close.upperBound...]
        }
        return (xml.components(separatedBy: "<page ").count - 1, strokes, points)
    }

    @Test("every stroke-bearing corpus file imports with the strokes and points its XML holds",
          .enabled(if: Corpus.available, Comment(rawValue: Corpus.missing)))
    func corpus() throws {
        let files = Corpus.files("xopp").filter { ["xopp", "xoj"].contains($0.pathExtension) }
        #expect(files.count >= 30)
        var strokeBearing = 0
        for file in files {
            let name = Corpus.relative(file)
            let data = try Data(contentsOf: file)
            let xml: Data
            do {
                xml = try XournalDecoder.unpack(data, file: name)
            } catch {
                Issue.record("\(name): \(error)")
                continue
            }
            guard String(decoding: xml.prefix(4096), as: UTF8.self).contains("<xournal") else {
                // preview-test-invalid.xoj is an HTML fragment, not a Xournal file: it must be refused cleanly.
                #expect(throws: ImportError.self) { try XournalDecoder.decode(data, file: name) }
                continue
            }
            let expected = Self.countInXML(String(decoding: xml, as: UTF8.self))
            let recording = try XournalDecoder.decode(data, file: name)
            #expect(recording.pageSizes.count == expected.pages, "\(name)")
            #expect(recording.strokes.count == expected.strokes, "\(name)")
            #expect(recording.pointCount == expected.points, "\(name)")
            if expected.strokes > 0 { strokeBearing += 1 }
        }
        #expect(strokeBearing >= 10)
    }

    @Test("pages in points, layers flattened in order, pressure from per-segment widths, colours")
    func basics() throws {
        let xml = """
            <?xml version="1.0" standalone="no"?>
            <xournal creator="xournalpp 1.2.2" fileversion="4">
            <title>Xournal++ document</title>
            <page width="595.28" height="841.89">
            <background type="solid" color="#ffffffff" style="graph"/>
            <layer><stroke tool="pen" ts="0ll" fn="" color="#ff0000ff" width="2.00 1.00 2.00">10 20 30 40 50 60</stroke></layer>
            <layer name="top"><stroke tool="highlighter" color="#ffff007f" width="8.5">1 2 3 4</stroke>
            <text font="Sans" size="12" x="1" y="2" color="#000000ff">hello</text></layer>
            </page>
            <page width="612" height="792"><background type="pdf" domain="absolute" filename="a.pdf" pageno="1"/>
            <layer><stroke tool="eraser" color="#ffffffff" width="5">7 8</stroke></layer></page>
            </xournal>
            """
        for gzip in [false, true] {
            let r = try decode(xml, gzip: gzip)
            #expect(r.format == "xopp")
            #expect(r.pageSizes == [PageSize(width: 595.28, height: 841.89), PageSize(width: 612, height: 792)])
            let pages = r.pagesOfStrokes
            #expect(pages.map(\.count) == [2, 1])
            let pen = pages[0][0]
            #expect(pen.points.map { [$0.x, $0.y] } == [[10, 20], [30, 40], [50, 60]])
            #expect(pen.points.map(\.pressure) == [0.5, 1, 1]) // widths 1 and 2 of the widest 2
            #expect(pen.pen == RecordedPen(tool: .pen, color: RGBA(red: 255, green: 0, blue: 0), width: 2))
            #expect(pages[0][1].pen.tool == .highlighter && pages[0][1].pen.color.alpha == 0x7F)
            #expect(pages[1][0].pen.tool == .eraser)
            #expect(r.notes[0].typedText == "hello")
            #expect(!r.warnings.contains { $0.contains("text box") })
            #expect(r.warnings.contains { $0.contains("PDF background") })
            if case let .newPage(_, template, _) = r.notes[0].events[0] { #expect(template.kind == .grid) }
        }
    }

    @Test("old Xournal: named colours, %.2f numbers, line breaks inside strokes, decimal commas")
    func oldFormats() throws {
        let xml = """
            <xournal version="0.4.5"><page width="595.27" height="841.89"><background type="solid" color="blue" style="lined"/>
            <layer><stroke tool="pen" color="blue" width="1.41">
            80.53 240.42
            80.42 240.32 </stroke><stroke tool="highlighter" color="yellow" width="8.50">1.5e1 2E0 3 4</stroke>
            <stroke tool="pen" color="#00ff00" width="1,41">1,5 2,5 3,5 4,5</stroke></layer></page></xournal>
            """
        let r = try decode(xml)
        let strokes = r.strokes
        #expect(strokes[0].pen.color == RGBA(red: 0x33, green: 0x33, blue: 0xCC))
        #expect(strokes[0].points.count == 2)
        #expect(strokes[1].pen.color == RGBA(red: 255, green: 255, blue: 0, alpha: 0x7F))
        #expect(strokes[1].points.map { [$0.x, $0.y] } == [[15, 2], [3, 4]])
        #expect(strokes[2].points.map { [$0.x, $0.y] } == [[1.5, 2.5], [3.5, 4.5]])
        #expect(abs(strokes[2].pen.width - 1.41) < 1e-6)
        if case let .newPage(_, template, _) = r.notes[0].events[0] {
            #expect(template.kind == .lined)
            #expect(template.paper == RGBA(red: 0xA0, green: 0xE8, blue: 0xFF))
        }
    }

    @Test("a zip-packaged .xopp is read from content.xml")
    func packaged() throws {
        let xml = ##"<xournal><page width="100" height="100"><layer><stroke tool="pen" color="#000000ff" width="1">1 1 2 2</stroke></layer></page></xournal>"##
        let zip = ZipBuilder.zip([.init(name: "mimetype", data: Array("application/x-xopp".utf8)),
                                  .init(name: "content.xml", data: Deflate.compress(Array(xml.utf8), windowBits: -15), method: 8,
                                        uncompressedSize: UInt32(xml.utf8.count), crc: ZipBuilder.crc32(Array(xml.utf8)))])
        let r = try XournalDecoder.decode(zip, file: "p.xopp")
        #expect(r.pointCount == 2)
    }

    @Test("text boxes become the note's typed text, in reading order: page by page, top to bottom, left to right")
    func textBoxes() throws {
        let xml = ##"""
            <xournal><page width="100" height="100"><layer>
            <text font="Sans" size="12" x="50" y="40" color="#000000ff">right</text>
            <text font="Sans" size="12" x="5" y="40" color="#000000ff">left</text>
            <text font="Sans" size="12" x="5" y="10" color="#000000ff">Title #work</text>
            <text font="Sans" size="12" x="5" y="60" color="#000000ff">   </text>
            </layer></page>
            <page width="100" height="100"><layer><text font="Sans" size="12" x="1" y="1" color="#000000ff">- [ ] next page
            second line</text></layer></page></xournal>
            """##
        let r = try decode(xml)
        #expect(r.notes[0].typedText == "Title #work\n\nleft\n\nright\n\n- [ ] next page\nsecond line")
        // And each box is printed on its page where Xournal++ draws it: first baseline 0.93 em below the
        // box's top, lines 1.17 em apart, in its colour.
        let printed = r.pageTemplates.map(\.printed)
        #expect(printed[0].map(\.text) == ["right", "left", "Title #work"])
        #expect(printed[0][1] == PrintedLine(text: "left", x: 5, baseline: 40 + 0.93 * 12, size: 12))
        #expect(printed[1].map(\.text) == ["- [ ] next page", "second line"])
        #expect(abs(printed[1][1].baseline - printed[1][0].baseline - 1.17 * 12) < 0.001)
    }

    @Test("a text box in a colour that is not a colour is printed black, and said so; one in a colour is not reported")
    func textColourDrawnBlack() throws {
        let r = try decode(##"""
            <xournal><page width="100" height="100"><layer>
            <text font="Sans" size="12" x="5" y="10" color="chartreuse-ish">odd</text>
            <text font="Sans" size="12" x="5" y="40" color="blue">named</text>
            </layer></page></xournal>
            """##)
        #expect(r.pageTemplates[0].printed.map(\.color) == [.black, RGBA(red: 0x33, green: 0x33, blue: 0xcc)])
        #expect(r.warnings == ["test.xopp: 1 text box in a colour that is not a colour printed black"], "\(r.warnings)")
    }

    @Test("negative per-point widths, as older Xournal++ wrote, are mended from the width before them, not refused")
    func negativeWidths() throws {
        let xml = ##"<xournal><page width="10" height="10"><layer><stroke tool="pen" color="#000000ff" width="2 1 -0.5 2 -1">1 2 3 4 5 6 7 8</stroke></layer></page></xournal>"##
        let r = try decode(xml)
        let stroke = try #require(r.pagesOfStrokes.first?.first)
        #expect(stroke.points.map(\.pressure) == [0.5, 0.5, 1, 1])   // 1, -0.5→1, 2, -1→2 of the widest 2
        #expect(r.warnings.contains { $0.contains("2 per-point widths were negative or not a number") }, "\(r.warnings)")
    }

    @Test("one bad value costs its stroke at most: colours and widths are mended, bad points skip their stroke alone, all said in warnings")
    func recovery() throws {
        let xml = ##"""
            <xournal><page width="100" height="100"><layer>
            <stroke tool="pen" color="teal" width="1">1 2 3 4</stroke>
            <stroke tool="pen" color="#000000ff" width="-1">5 6 7 8</stroke>
            <stroke tool="pen" color="#000000ff" width="2 nan 1 -3">1 1 2 2 3 3 4 4</stroke>
            <stroke tool="pen" color="#000000ff" width="1">1 2 x 4</stroke>
            <stroke tool="pen" color="#000000ff" width="1">1e99 2 3 4</stroke>
            <stroke tool="pen" color="#000000ff" width="1">9 9 9 9</stroke>
            <stroke tool="pen" color="#ff0000ff" width="1" fill="128">10 10 20 10 20 20</stroke>
            <stroke tool="pen" color="#ff0000ff" width="1" style="dash">10 10 20 10</stroke>
            </layer></page></xournal>
            """##
        let r = try decode(xml)
        let strokes = r.strokes
        #expect(strokes.count == 6)
        #expect(strokes[0].pen.color == RGBA(red: 0, green: 0, blue: 0))       // "teal": black, as a pen's default
        #expect(strokes[1].pen.width == Float(XournalDecoder.defaultWidth))     // width -1: the medium pen
        #expect(strokes[2].points.map(\.pressure) == [1, 0.5, 0.5, 0.5])        // nan takes 2 (the nominal), -3 takes 1
        #expect(strokes[3].points[0].x == 9)                                     // the two bad strokes left out
        let warnings = r.warnings.joined(separator: "\n")
        #expect(warnings.contains("test.xopp: 1 stroke drawn black at line 2"), "\(warnings)")
        #expect(warnings.contains("stroke colour \"teal\" is not a colour"))
        #expect(warnings.contains("test.xopp: 1 stroke width mended at line 3"))
        #expect(warnings.contains("test.xopp: 2 strokes skipped, the first at line 5"), "\(warnings)")
        #expect(warnings.contains("stroke coordinates are not numbers"))
        #expect(warnings.contains("2 per-point widths were negative or not a number"))
        #expect(!warnings.contains("filled"), "fills are kept now: \(warnings)")
        #expect(strokes[4].pen.fill == 128 && strokes[3].pen.fill == nil)
        #expect(!warnings.contains("dash"), "dashes are kept now: \(warnings)")
        #expect(strokes[5].pen.dash == [6, 3])
        #expect(XournalDecoder.dashPattern("dashdot") == [6, 3, 0.5, 3] && XournalDecoder.dashPattern("dot") == [0.5, 3])
        #expect(XournalDecoder.dashPattern("cust: 2 1.5") == [2, 1.5] && XournalDecoder.dashPattern("cust: 2 x") == nil && XournalDecoder.dashPattern("wavy") == nil)
        #expect(XournalDecoder.dashPattern("cust: 0 0") == nil && XournalDecoder.dashPattern("cust: nan 1") == nil)
    }

    @Test("errors name the file, the line and the reason", arguments: [
        (##"<xournal><page width="10"><layer/></page></xournal>"##, "line 1, column "),
        (##"<xournal><page width="10" height="10"><layer><stroke tool="pen" color="#000000ff" width="1">1 2 x 4</stroke></layer></page></xournal>"##,
         "stroke coordinates are not numbers"),
        (##"<xournal><page width="10" height="10"><layer><stroke tool="pen" color="#000000ff" width="1">1e99 2</stroke></layer></page></xournal>"##,
         "is beyond"),
        (##"<xournal><page width="nan" height="10"/></xournal>"##, "a page without width and height"),
        (##"<xournal></xournal>"##, "has no pages"),
        (##"<svg/>"##, "not a Xournal file"),
    ])
    func errors(xml: String, message: String) throws {
        let error = #expect(throws: ImportError.self) { try decode(xml) }
        #expect(error?.file == "test.xopp")
        #expect(error?.description.contains(message) == true, "\(String(describing: error))")
    }
}

/// The PDF a Xournal++ document is written on, found where Xournal++ looks, and only when reading
/// beside the file is allowed (never for the drop folder).
@Suite("Xournal++ PDF backgrounds")
struct XournalBackgroundTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-xopp-pdf-\(UUID().uuidString)")

    func document(naming pdf: String, domain: String = "absolute") -> Data {
        Data("""
            <xournal creator="xournalpp 1.2.3"><page width="612" height="792"><background type="pdf" domain="\(domain)" filename="\(pdf)" pageno="2ll"/>
            <layer><stroke tool="pen" color="#000000ff" width="2">10 10 20 20</stroke></layer></page></xournal>
            """.utf8)
    }

    @Test func aPDFBesideTheFileIsFoundByNameWhereverItWasWritten() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let pdf = Data("%PDF-1.4\n% not parsed here\n".utf8)
        try pdf.write(to: folder.appendingPathComponent("paper.pdf"))
        // A symbolic link to it, as `attach`ed beside a gzip file: FILE.xopp.NAME.
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("notes.xopp.bg.pdf"),
                                                   withDestinationURL: folder.appendingPathComponent("paper.pdf"))
        let file = folder.appendingPathComponent("notes.xopp").path
        for (name, domain) in [("/elsewhere/paper.pdf", "absolute"), ("paper.pdf", "absolute"), ("bg.pdf", "attach")] {
            let recording = try XournalDecoder.decode(document(naming: name, domain: domain), file: file)
            #expect(recording.notes[0].background == pdf, "\(name)")
            #expect(recording.warnings.isEmpty, "\(recording.warnings)")
            guard case .newPage(_, let template, _) = recording.notes[0].events.first else { Issue.record("no page"); continue }
            #expect(template.background == PageBackground(document: RecordedNote.backgroundDocument, page: 1))
        }
        // Not reading beside the file: the page is plain, and the warning says so.
        let alone = try XournalDecoder.decode(document(naming: "paper.pdf"), file: file, readingBeside: false)
        #expect(alone.notes[0].background == nil)
        guard case .newPage(_, let template, _) = alone.notes[0].events.first else { Issue.record("no page"); return }
        #expect(template.background == nil)
        #expect(alone.warnings.count == 1 && alone.warnings[0].contains("PDF background whose PDF was not found"), "\(alone.warnings)")
    }

    @Test func aFileThatIsNotAPDFOrNotARegularFileIsNotTaken() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("#!/bin/sh\necho not a pdf\n".utf8).write(to: folder.appendingPathComponent("script.pdf"))
        let file = folder.appendingPathComponent("notes.xopp").path
        for name in ["script.pdf", "/dev/zero", folder.path] {
            let recording = try XournalDecoder.decode(document(naming: name), file: file)
            #expect(recording.notes[0].background == nil, "\(name)")
            #expect(recording.notes[0].pointCount == 2)
        }
    }
}
