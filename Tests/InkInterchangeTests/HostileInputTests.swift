import Foundation
import InkSamples
import Testing
@testable import InkInterchange

/// Every decoder survives any bytes: a clear ImportError naming the file, never a trap.
@Suite("hostile input")
struct HostileInputTests {
    typealias Decoder = (Data, String) throws(ImportError) -> Recording
    static var decoders: [(String, Decoder)] { [
        ("inkml", InkMLDecoder.decode), ("rm", RemarkableDecoder.decode), ("xopp", { (data, file) throws(ImportError) in try XournalDecoder.decode(data, file: file) }), ("rnote", RnoteDecoder.decode),
    ] }

    static let billionLaughs = """
        <?xml version="1.0"?>
        <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
        <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
        <ink><annotation type="title">&lol3;</annotation><trace>1 2</trace></ink>
        """
    static let externalEntity = """
        <?xml version="1.0"?><!DOCTYPE xournal [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
        <xournal><page width="10" height="10"><layer><stroke tool="pen" color="#000000ff" width="1">&xxe;</stroke></layer></page></xournal>
        """

    @Test("document type declarations are refused outright: no entities, no billion laughs, no network", arguments: [
        (billionLaughs, "inkml"), (externalEntity, "xopp"),
        ("<!doctype ink><ink><trace>1 2</trace></ink>", "inkml"),
        ("<?xml version=\"1.0\"?>\n<!-- c -->\n<!DOCTYPE ink SYSTEM \"http://example.com/ink.dtd\"><ink/>", "inkml"),
    ])
    func dtd(text: String, format: String) throws {
        let decode = Self.decoders.first { $0.0 == format }!.1
        for data in [Data(text.utf8), Data(Deflate.compress(Array(text.utf8)))] {
            let error = #expect(throws: ImportError.self) { try decode(data, "evil.\(format)") }
            #expect(error?.file == "evil.\(format)")
            #expect(error?.description.contains("document type declaration") == true, "\(String(describing: error))")
        }
    }

    @Test("a processing instruction without data is refused (Foundation's parser would crash on it)")
    func emptyProcessingInstruction() throws {
        let error = #expect(throws: ImportError.self) { try InkMLDecoder.decode(Data("<ink><?x?><trace>1 2</trace></ink>".utf8), file: "pi.inkml") }
        #expect(error?.description.contains("processing instruction without data") == true)
        // With data it is harmless and ignored.
        #expect(try InkMLDecoder.decode(Data("<?xml version=\"1.0\"?><ink><?x y?><trace>1 2</trace></ink>".utf8), file: "pi.inkml").pointCount == 1)
    }

    @Test("encodings that could hide markup are refused")
    func encodings() throws {
        let error = #expect(throws: ImportError.self) {
            try InkMLDecoder.decode(Data(##"<?xml version="1.0" encoding="UTF-7"?><ink><trace>1 2</trace></ink>"##.utf8), file: "u7.inkml")
        }
        #expect(error?.description.contains("encoding \"utf-7\" is not supported") == true)
        #expect(throws: ImportError.self) { try InkMLDecoder.decode(Data([0, 0, 0xFE, 0xFF, 0, 0, 0, 0x3C]), file: "u32.inkml") }
    }

    @Test("deep nesting is refused")
    func deepNesting() throws {
        let depth = 100_000
        let text = "<ink>" + String(repeating: "<traceGroup>", count: depth) + String(repeating: "</traceGroup>", count: depth) + "</ink>"
        let error = #expect(throws: ImportError.self) { try InkMLDecoder.decode(Data(text.utf8), file: "deep.inkml") }
        #expect(error?.position?.hasPrefix("line 1") == true)
        let xopp = "<xournal>" + String(repeating: "<page>", count: depth) + "</xournal>"
        #expect(throws: ImportError.self) { try XournalDecoder.decode(Data(xopp.utf8), file: "deep.xopp") }
    }

    @Test("broken XML is refused at its first error, which the message places, not at the end of the file")
    func firstXMLError() throws {
        let tail = String(repeating: "<trace>1 2</trace>\n", count: 500) + "<trace>3 4</ink>\n"
        let text = "<ink>\n<trace>1 2</trace>\n<trace a='1' a='2'>5 6</trace>\n" + tail + "</ink>"
        let error = #expect(throws: ImportError.self) { try InkMLDecoder.decode(Data(text.utf8), file: "broken.inkml") }
        #expect(error?.position?.hasPrefix("line 3,") == true, "\(String(describing: error))")
        #expect(error?.description.contains("not well-formed XML: an attribute given twice") == true, "\(String(describing: error))")
    }

    @Test("namespace errors and warnings leave a document readable, up to a limit")
    func namespaceProblems() throws {
        let few = "<ink>" + String(repeating: "<x:trace>1 2</x:trace>", count: 3) + "<trace>1 2</trace></ink>"
        #expect(try InkMLDecoder.decode(Data(few.utf8), file: "ns.inkml").pointCount == 4)
        // libxml2 warns of a processing instruction named xml… with an error code: still readable.
        let instruction = "<ink><?xml-foo a?><trace>1 2</trace><?xmlspy b?></ink>"
        #expect(try InkMLDecoder.decode(Data(instruction.utf8), file: "pi.inkml").pointCount == 1)
        let many = "<ink>" + String(repeating: "<x:trace>1 2</x:trace>", count: XMLLimits.reportedProblems + 1) + "</ink>"
        let error = #expect(throws: ImportError.self) { try InkMLDecoder.decode(Data(many.utf8), file: "ns.inkml") }
        #expect(error?.description.contains("more than \(XMLLimits.reportedProblems) XML namespace errors or warnings") == true,
                "\(String(describing: error))")
    }

    @Test("a gzip bomb is refused by its ratio; the inflated size is capped; truncated gzip is refused")
    func gzipBombs() throws {
        let zeros = [UInt8](repeating: 0x20, count: 20 << 20)
        let bomb = Data(Deflate.compress(Array("<xournal>".utf8) + zeros))
        let error = #expect(throws: ImportError.self) { try XournalDecoder.decode(bomb, file: "bomb.xopp") }
        #expect(error?.description.contains("a gzip bomb?") == true, "\(String(describing: error))")

        var random = SystemRandomNumberGenerator()
        let noise = (0..<(2 << 20)).map { _ in UInt8.random(in: 0...255, using: &random) }
        let big = Data(Deflate.compress(noise))
        let capped = #expect(throws: ImportError.self) { try Containers.gunzip(big, file: "big.gz", limit: 1 << 20) }
        #expect(capped?.description.contains("more than 1 MiB") == true)
        #expect(try Containers.gunzip(big, file: "big.gz").count == noise.count)

        let gz = Deflate.compress(Array("<xournal></xournal>".utf8))
        for length in 3..<gz.count - 1 {
            #expect(throws: ImportError.self) { try XournalDecoder.decode(Data(gz.prefix(length)), file: "cut.xopp") }
        }
    }

    @Test("zip archives with .. or absolute paths, lying sizes or bombs are refused", arguments: [
        ("../evil.xml", "\"..\" in a zip entry path"), ("/etc/passwd", "absolute path"), ("C:\\x.xml", "absolute (drive) path"),
        ("a/../../b", "\"..\" in a zip entry path"),
    ])
    func zipPaths(name: String, message: String) throws {
        let zip = ZipBuilder.zip([.init(name: name, data: Array("x".utf8)), .init(name: "content.xml", data: Array("<xournal/>".utf8))])
        let error = #expect(throws: ImportError.self) { try XournalDecoder.decode(zip, file: "evil.xopp") }
        #expect(error?.file == "evil.xopp")
        #expect(error?.description.contains(message) == true, "\(String(describing: error))")
    }

    @Test("zip bombs: a declared size over the cap, and a high ratio")
    func zipBombs() throws {
        let huge = ZipBuilder.zip([.init(name: "content.xml", data: Deflate.compress([0x20], windowBits: -15), method: 8,
                                         uncompressedSize: 0xFFFF_FFF0, crc: 0)])
        let declared = #expect(throws: ImportError.self) { try XournalDecoder.decode(huge, file: "z.xopp") }
        #expect(declared?.description.contains("MiB") == true, "\(String(describing: declared))")
        let spaces = [UInt8](repeating: 0x20, count: 20 << 20)
        let ratio = ZipBuilder.zip([.init(name: "content.xml", data: Deflate.compress(spaces, windowBits: -15), method: 8,
                                          uncompressedSize: UInt32(spaces.count), crc: ZipBuilder.crc32(spaces))])
        let bomb = #expect(throws: ImportError.self) { try XournalDecoder.decode(ratio, file: "z.xopp") }
        #expect(bomb?.description.contains("zip bomb") == true, "\(String(describing: bomb))")
        #expect(throws: ImportError.self) { try XournalDecoder.decode(Data([0x50, 0x4B, 0x03, 0x04, 1, 2, 3]), file: "cut.xopp") }
    }

    @Test("huge point counts are refused before memory runs out")
    func hugeCounts() throws {
        let points = String(repeating: "1 2, ", count: 100_001)
        let inkml = #expect(throws: ImportError.self) { try InkMLDecoder.decode(Data("<ink><trace>\(points)</trace></ink>".utf8), file: "big.inkml") }
        #expect(inkml?.description.contains("more than 100000 points") == true)
        let coordinates = String(repeating: "1 2 ", count: 100_001)
        let xopp = #expect(throws: ImportError.self) {
            try XournalDecoder.decode(Data(##"<xournal><page width="1" height="1"><layer><stroke tool="pen" color="#000000ff" width="1">\##(coordinates)</stroke></layer></page></xournal>"##.utf8), file: "big.xopp")
        }
        #expect(xopp?.description.contains("more than 100000 points") == true)
    }

    @Test("NaN and infinity never become points", arguments: [
        ("inkml", "<ink><trace>NaN 1</trace></ink>"), ("inkml", "<ink><trace>1 inf</trace></ink>"),
        ("xopp", ##"<xournal><page width="1" height="1"><layer><stroke tool="pen" color="#000000ff" width="1">nan 1</stroke></layer></page></xournal>"##),
        ("xopp", ##"<xournal><page width="1" height="1"><layer><stroke tool="pen" color="#000000ff" width="inf">1 1</stroke></layer></page></xournal>"##),
    ])
    func notNumbers(format: String, text: String) throws {
        let decode = Self.decoders.first { $0.0 == format }!.1
        // Refused when the bad value is all the file holds; mended (an infinite width) with a warning otherwise.
        do {
            let recording = try decode(Data(text.utf8), "nan.\(format)")
            #expect(!recording.warnings.isEmpty)
            for stroke in recording.strokes {
                #expect(stroke.pen.width.isFinite && stroke.pen.width <= ImportLimits.maxWidth)
                #expect(stroke.points.allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.pressure.isFinite })
            }
        } catch {
            #expect(error.file == "nan.\(format)")
        }
    }

    @Test("random bytes and truncations of real files: an ImportError or a recording, never a trap",
          .enabled(if: Corpus.available, Comment(rawValue: Corpus.missing)))
    func garbageAndTruncation() throws {
        var generator = SeededGenerator(seed: 42)
        for (format, decode) in Self.decoders {
            for length in [0, 1, 7, 43, 100, 4096] {
                let bytes = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
                #expect(throws: ImportError.self) { try decode(bytes, "garbage.\(format)") }
            }
        }
        let samples = ["inkml/InkMLjs/ink2.inkml", "rm/rmc/writing_tools.rm", "xopp/xournalpp/test/files/load/strokes.xopp",
                       "xopp/xournalpp/test/files/packaged_xopp/stroke/new.xopp"]
        for sample in samples {
            let data = try Data(contentsOf: Corpus.root!.appendingPathComponent(sample))
            let decode = Self.decoders.first { sample.hasPrefix($0.0 == "xopp" ? "xopp" : $0.0) }!.1
            let step = max(1, data.count / 300)
            for length in stride(from: 0, to: data.count, by: step) {
                do { _ = try decode(data.prefix(length), sample) } catch { #expect(error.file == sample) }
            }
            // Flipped bytes.
            for _ in 0..<200 {
                var copy = data
                let index = Int.random(in: 0..<copy.count, using: &generator)
                copy[index] ^= UInt8.random(in: 1...255, using: &generator)
                do { _ = try decode(copy, sample) } catch { #expect(error.file == sample) }
            }
        }
    }

    @Test("inputs that once crashed or hung a fuzzer decode or fail cleanly")
    func fuzzRegressions() throws {
        let folder = Fixtures.url("fuzz")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names.sorted() {
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            for (format, decode) in Self.decoders + [("replay", ReplayLogDecoder.decode)] where name.hasPrefix(format + "-") {
                do { _ = try decode(data, name) } catch { #expect(error.file == name) }
            }
        }
    }
}

