import CZlib
import Foundation
import InkCore
@testable import InkInterchange

/// The shared corpus of real files (`../shared/corpus` beside the repository, or `$INKWELL_CORPUS`).
enum Corpus {
    static let root: URL? = {
        if let path = ProcessInfo.processInfo.environment["INKWELL_CORPUS"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let repository = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let corpus = repository.appendingPathComponent("../shared/corpus").standardizedFileURL
        return FileManager.default.fileExists(atPath: corpus.path) ? corpus : nil
    }()

    static var available: Bool { root != nil }
    static let missing = "the shared corpus (../shared/corpus or $INKWELL_CORPUS) is not here"

    /// Every file under `folder` of the corpus, sorted.
    static func files(_ folder: String) -> [URL] {
        guard let root else { return [] }
        let base = root.appendingPathComponent(folder)
        var found: [URL] = []
        let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = walker?.nextObject() as? URL {
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true { found.append(url) }
        }
        return found.sorted { $0.path < $1.path }
    }

    /// The path of `url` relative to the corpus root.
    static func relative(_ url: URL) -> String {
        guard let root else { return url.path }
        let base = root.standardizedFileURL.path + "/"
        let path = url.standardizedFileURL.path
        return path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path
    }
}

/// Test fixtures kept beside the tests (derived facts and regression inputs, no corpus copies).
enum Fixtures {
    static let folder = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("Fixtures")
    static func url(_ name: String) -> URL { folder.appendingPathComponent(name) }
}

/// What a recording holds, stroke by stroke.
struct DecodedStroke: Equatable {
    var pen: RecordedPen
    var points: [RecordedPoint]
    var times: [Double]
}

extension Recording {
    /// Strokes of every note, in order, with the page they are on.
    var strokes: [DecodedStroke] { pagesOfStrokes.flatMap { $0 } }

    /// Strokes grouped by page (a page per `newPage`).
    var pagesOfStrokes: [[DecodedStroke]] {
        var pages: [[DecodedStroke]] = []
        var current: DecodedStroke?
        for note in notes {
            for event in note.events {
                switch event {
                case .newPage: pages.append([])
                case let .penDown(point, pen, at):
                    if pages.isEmpty { pages.append([]) }
                    current = DecodedStroke(pen: pen, points: [point], times: [at])
                case let .penMove(point, at):
                    current?.points.append(point)
                    current?.times.append(at)
                case let .penUp(point, at):
                    if let point {
                        current?.points.append(point)
                        current?.times.append(at)
                    }
                    if let stroke = current { pages[pages.count - 1].append(stroke) }
                    current = nil
                default: break
                }
            }
        }
        return pages
    }

    /// Each page's template (paper, ruling, printed text), from its `newPage` event.
    var pageTemplates: [PageTemplate] {
        notes.flatMap { $0.events.compactMap { if case let .newPage(_, template, _) = $0 { template } else { nil } } }
    }

    var pageSizes: [PageSize] {
        notes.flatMap { $0.events.compactMap { if case let .newPage(size, _, _) = $0 { size } else { nil } } }
    }

    /// The pages this recording becomes when replayed (what the editor session would store): stroke start
    /// times in ms since the page began, point times in ms since the stroke began.
    var pages: [Page] {
        var pages: [Page] = []
        var origin = 0.0
        var current: Stroke?
        var start = 0.0
        for note in notes {
            for event in note.events {
                switch event {
                case let .newPage(size, template, at):
                    pages.append(Page(id: PageID.random(), size: size, template: template))
                    origin = at
                case let .penDown(point, pen, at):
                    start = at
                    current = Stroke(id: StrokeID(UInt64(pages[pages.count - 1].strokes.count + 1)), tool: pen.tool, color: pen.color,
                                     width: pen.width, startTime: (at - origin) * 1000,
                                     points: [InkPoint(x: point.x, y: point.y, pressure: point.pressure, time: 0, tilt: point.tilt)],
                                     layer: pen.layer, fill: pen.fill, dash: pen.dash)
                case let .penMove(point, at):
                    current?.points.append(InkPoint(x: point.x, y: point.y, pressure: point.pressure,
                                                    time: Float((at - start) * 1000), tilt: point.tilt))
                case .penUp:
                    if let stroke = current { pages[pages.count - 1].strokes.append(stroke) }
                    current = nil
                default: break
                }
            }
        }
        return pages
    }
}

/// Small binary writers for building test inputs.
struct Bytes {
    var data: [UInt8] = []

    mutating func u8(_ v: UInt8) { data.append(v) }
    mutating func u16(_ v: UInt16) { data += [UInt8(v & 0xFF), UInt8(v >> 8)] }
    mutating func u32(_ v: UInt32) { for shift in stride(from: 0, to: 32, by: 8) { data.append(UInt8(v >> UInt32(shift) & 0xFF)) } }
    mutating func f32(_ v: Float) { u32(v.bitPattern) }
    mutating func f64(_ v: Double) { let bits = v.bitPattern; u32(UInt32(bits & 0xFFFF_FFFF)); u32(UInt32(bits >> 32)) }
    mutating func varuint(_ v: UInt64) {
        var v = v
        repeat {
            var byte = UInt8(v & 0x7F)
            v >>= 7
            if v != 0 { byte |= 0x80 }
            data.append(byte)
        } while v != 0
    }
    mutating func tag(_ index: UInt64, _ type: UInt8) { varuint(index << 4 | UInt64(type)) }
    mutating func id(_ index: UInt64, _ author: UInt8, _ counter: UInt64) {
        tag(index, 0xF)
        u8(author)
        varuint(counter)
    }
    /// A length-prefixed sub-block `index` holding what `body` writes.
    mutating func sub(_ index: UInt64, _ body: (inout Bytes) -> Void) {
        var content = Bytes()
        body(&content)
        tag(index, 0xC)
        u32(UInt32(content.data.count))
        data += content.data
    }
}

/// Builds reMarkable v6 files block by block.
struct RemarkableFile {
    var bytes = Bytes()

    init() {
        bytes.data = Array("reMarkable .lines file, version=6          ".utf8)
    }

    mutating func block(type: UInt8, version: UInt8 = 1, minVersion: UInt8 = 1, _ body: (inout Bytes) -> Void) {
        var content = Bytes()
        body(&content)
        bytes.u32(UInt32(content.data.count))
        bytes.u8(0)
        bytes.u8(minVersion)
        bytes.u8(version)
        bytes.u8(type)
        bytes.data += content.data
    }

    /// A layer: a scene tree node under the root and the root's group item pointing at it.
    mutating func layer(_ node: UInt64, item: UInt64, left: (UInt8, UInt64) = (0, 0), right: (UInt8, UInt64) = (0, 0)) {
        block(type: 0x01) { b in
            b.id(1, 0, node)
            b.id(2, 0, 0)
            b.tag(3, 0x1); b.u8(1)
            b.tag(4, 0xC); b.u32(3); b.id(1, 0, 1)
        }
        block(type: 0x04) { b in
            b.id(1, 0, 1)
            b.id(2, 0, item)
            b.id(3, left.0, left.1)
            b.id(4, right.0, right.1)
            b.tag(5, 0x4); b.u32(0)
            b.tag(6, 0xC); b.u32(4); b.u8(2); b.id(2, 0, node)
        }
    }

    /// A stroke in `layer`, with CRDT links; `points` as (x, y) in tablet coordinates (x centred on 0).
    mutating func line(layer: UInt64, item: (UInt8, UInt64), left: (UInt8, UInt64) = (0, 0), right: (UInt8, UInt64) = (0, 0),
                       deleted: Bool = false, tool: UInt32 = 2, color: UInt32 = 0, version: UInt8 = 2,
                       points: [(Float, Float)], rgba: UInt32? = nil) {
        block(type: 0x05, version: version, minVersion: version) { b in
            b.id(1, 0, layer)
            b.id(2, item.0, item.1)
            b.id(3, left.0, left.1)
            b.id(4, right.0, right.1)
            b.tag(5, 0x4); b.u32(deleted ? 1 : 0)
            guard !deleted else { return }
            var value = Bytes()
            value.u8(3)
            value.tag(1, 0x4); value.u32(tool)
            value.tag(2, 0x4); value.u32(color)
            value.tag(3, 0x8); value.f64(1)
            value.tag(4, 0x4); value.f32(0)
            var pointBytes = Bytes()
            for (x, y) in points {
                pointBytes.f32(x)
                pointBytes.f32(y)
                if version == 1 {
                    pointBytes.f32(1); pointBytes.f32(0); pointBytes.f32(2); pointBytes.f32(0.5)
                } else {
                    pointBytes.u16(1); pointBytes.u16(8); pointBytes.u8(0); pointBytes.u8(128)
                }
            }
            value.tag(5, 0xC); value.u32(UInt32(pointBytes.data.count)); value.data += pointBytes.data
            value.id(6, 0, 1)
            if let rgba { value.tag(8, 0x4); value.u32(rgba) }
            b.tag(6, 0xC); b.u32(UInt32(value.data.count)); b.data += value.data
        }
    }

    /// A text highlight (glyph range) in `layer`: its text, palette colour and rectangles (x, y, width,
    /// height in tablet coordinates, x centred on 0), as firmware 3.x writes it.
    mutating func highlight(layer: UInt64, item: (UInt8, UInt64), left: (UInt8, UInt64) = (0, 0), text: String, color: UInt32 = 3,
                            rects: [(Double, Double, Double, Double)]) {
        block(type: 0x03) { b in
            b.id(1, 0, layer)
            b.id(2, item.0, item.1)
            b.id(3, left.0, left.1)
            b.id(4, 0, 0)
            b.tag(5, 0x4); b.u32(0)
            var value = Bytes()
            value.u8(1)
            value.tag(2, 0x4); value.u32(10)
            value.tag(3, 0x4); value.u32(UInt32(text.utf8.count))
            value.tag(4, 0x4); value.u32(color)
            var string = Bytes()
            string.varuint(UInt64(text.utf8.count)); string.u8(1); string.data += Array(text.utf8)
            value.tag(5, 0xC); value.u32(UInt32(string.data.count)); value.data += string.data
            var boxes = Bytes()
            boxes.varuint(UInt64(rects.count))
            for (x, y, w, h) in rects { boxes.f64(x); boxes.f64(y); boxes.f64(w); boxes.f64(h) }
            value.tag(6, 0xC); value.u32(UInt32(boxes.data.count)); value.data += boxes.data
            b.tag(6, 0xC); b.u32(UInt32(value.data.count)); b.data += value.data
        }
    }

    /// A group of strokes under `layer` written beside typed text: anchored to character `anchor`, its
    /// points counting x from `originX` (tablet coordinates).
    mutating func anchoredGroup(_ node: UInt64, layer: UInt64, item: UInt64, anchor: (UInt8, UInt64), originX: Float) {
        block(type: 0x01) { b in
            b.id(1, 0, node)
            b.id(2, 0, 0)
            b.tag(3, 0x1); b.u8(1)
            b.sub(4) { $0.id(1, 0, layer) }
        }
        block(type: 0x02) { b in
            b.id(1, 0, node)
            b.sub(7) { b in b.id(1, 0, 1); b.id(2, anchor.0, anchor.1) }
            b.sub(10) { b in b.id(1, 0, 1); b.tag(2, 0x4); b.f32(originX) }
        }
        block(type: 0x04) { b in
            b.id(1, 0, layer)
            b.id(2, 0, item)
            b.id(3, 0, 0)
            b.id(4, 0, 0)
            b.tag(5, 0x4); b.u32(0)
            b.sub(6) { b in b.u8(2); b.id(2, 0, node) }
        }
    }

    /// The page's typed text (root text block, type 7): `paragraphs` joined by newlines, written as one
    /// text item by author 1 from counter 16 (character *i* of the joined text is counter 16 + *i*), each
    /// paragraph's style code on its opening newline (the first paragraph's on (0, 0)); the column at
    /// (`x`, `y`) in tablet coordinates, `width` wide (nil: the width left out).
    mutating func rootText(_ paragraphs: [(text: String, style: UInt8)], x: Double = -468, y: Double = 234, width: Float? = 936) {
        let joined = paragraphs.map(\.text).joined(separator: "\n")
        var styles: [(author: UInt8, counter: UInt64, code: UInt8)] = []
        var counter: UInt64 = 16
        for (index, paragraph) in paragraphs.enumerated() {
            if index == 0 {
                styles.append((0, 0, paragraph.style))
            } else {
                styles.append((1, counter, paragraph.style))
                counter += 1
            }
            counter += UInt64(paragraph.text.count)
        }
        block(type: 0x07) { b in
            b.id(1, 0, 0)
            b.sub(2) { b in
                b.sub(1) { b in
                    b.sub(1) { b in
                        b.varuint(1)
                        b.sub(0) { b in
                            b.id(2, 1, 16)
                            b.id(3, 0, 0)
                            b.id(4, 0, 0)
                            b.tag(5, 0x4); b.u32(0)
                            b.sub(6) { b in
                                b.varuint(UInt64(joined.utf8.count)); b.u8(1); b.data += Array(joined.utf8)
                            }
                        }
                    }
                }
                b.sub(2) { b in
                    b.sub(1) { b in
                        b.varuint(UInt64(styles.count))
                        for (index, style) in styles.enumerated() {
                            b.u8(style.author); b.varuint(style.counter)
                            b.id(1, 1, UInt64(1000 + index))
                            b.sub(2) { b in b.u8(17); b.u8(style.code) }
                        }
                    }
                }
            }
            b.sub(3) { b in b.f64(x); b.f64(y) }
            if let width { b.tag(4, 0x4); b.f32(width) }
        }
    }

    var data: Data { Data(bytes.data) }
}

/// A zip archive written by hand (stored entries, or raw deflate data given by the caller).
enum ZipBuilder {
    struct Entry {
        var name: String
        var data: [UInt8]
        /// Stored (0) or deflated (8) — for 8, `data` is the raw deflate stream.
        var method: UInt16 = 0
        var uncompressedSize: UInt32?
        var crc: UInt32?
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func zip(_ entries: [Entry]) -> Data {
        var out = Bytes()
        var central = Bytes()
        for entry in entries {
            let offset = UInt32(out.data.count)
            let name = Array(entry.name.utf8)
            let crc = entry.crc ?? crc32(entry.data)
            let size = entry.uncompressedSize ?? UInt32(entry.data.count)
            out.u32(0x0403_4B50); out.u16(20); out.u16(0); out.u16(entry.method); out.u16(0); out.u16(0)
            out.u32(crc); out.u32(UInt32(entry.data.count)); out.u32(size)
            out.u16(UInt16(name.count)); out.u16(0)
            out.data += name + entry.data
            central.u32(0x0201_4B50); central.u16(20); central.u16(20); central.u16(0); central.u16(entry.method)
            central.u16(0); central.u16(0); central.u32(crc); central.u32(UInt32(entry.data.count)); central.u32(size)
            central.u16(UInt16(name.count)); central.u16(0); central.u16(0); central.u16(0); central.u16(0)
            central.u32(0); central.u32(offset)
            central.data += name
        }
        let centralOffset = UInt32(out.data.count)
        out.data += central.data
        out.u32(0x0605_4B50); out.u16(0); out.u16(0); out.u16(UInt16(entries.count)); out.u16(UInt16(entries.count))
        out.u32(UInt32(central.data.count)); out.u32(centralOffset); out.u16(0)
        return Data(out.data)
    }
}

/// zlib's deflate, for building gzip files and zip entries in tests.
enum Deflate {
    /// `windowBits` 31: gzip; -15: raw deflate (zip entries).
    static func compress(_ input: [UInt8], windowBits: Int32 = 31) -> [UInt8] {
        var stream = z_stream()
        guard deflateInit2_(&stream, 9, Z_DEFLATED, windowBits, 9, Z_DEFAULT_STRATEGY, zlibVersion(),
                            Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return [] }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(input.count))) + 64)
        var input = input
        let produced: Int = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = UInt32(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = UInt32(outBuffer.count)
                _ = deflate(&stream, Z_FINISH)
                return outBuffer.count - Int(stream.avail_out)
            }
        }
        return Array(output.prefix(produced))
    }
}

/// Builds reMarkable `.lines` version 5 and 3 pages (the format before software 3.0): layers of lines of
/// six-float points, x from the screen's left edge.
struct RemarkableLinesFile {
    struct Line {
        var tool: UInt32 = 2
        var color: UInt32 = 0
        var baseSize: Float = 2
        /// (x, y, width, pressure) per point; speed and direction are written as 0.
        var points: [(Float, Float, Float, Float)]
    }

    var version = 5
    var layers: [[Line]] = [[]]

    var data: Data {
        var b = Bytes()
        b.data = Array("reMarkable .lines file, version=\(version)          ".utf8)
        b.u32(UInt32(layers.count))
        for layer in layers {
            b.u32(UInt32(layer.count))
            for line in layer {
                b.u32(line.tool); b.u32(line.color); b.u32(0); b.f32(line.baseSize)
                if version == 5 { b.u32(0) }
                b.u32(UInt32(line.points.count))
                for (x, y, width, pressure) in line.points {
                    b.f32(x); b.f32(y); b.f32(0); b.f32(0); b.f32(width); b.f32(pressure)
                }
            }
        }
        return Data(b.data)
    }

    /// A version 5 page written back as version 3: the same bytes without the one field version 3 lacks (the
    /// `u32` after each line's base brush size) and with `version=3` in the header. The corpus has no v3
    /// page, so the tests make theirs this way from the real v5 pages. Nil when `v5` is not a whole v5 page.
    static func v3(fromV5 v5: Data) -> Data? {
        let bytes = [UInt8](v5)
        func u32(_ at: Int) -> Int? {
            guard at >= 0, at + 4 <= bytes.count else { return nil }
            return Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
        }
        let header = Array("reMarkable .lines file, version=5".utf8)
        guard bytes.starts(with: header), bytes.count >= 43 else { return nil }
        var out = Array("reMarkable .lines file, version=3".utf8) + bytes[header.count..<43]
        var offset = 43
        guard let layers = u32(offset) else { return nil }
        out += bytes[offset..<offset + 4]; offset += 4
        for _ in 0..<layers {
            guard let lines = u32(offset) else { return nil }
            out += bytes[offset..<offset + 4]; offset += 4
            for _ in 0..<lines {
                // brush, colour, padding, base size: kept; the unknown u32: dropped; the point count and points: kept.
                guard let points = u32(offset + 20), offset + 24 + points * 24 <= bytes.count else { return nil }
                out += bytes[offset..<offset + 16]
                out += bytes[offset + 20..<offset + 24 + points * 24]
                offset += 24 + points * 24
            }
        }
        guard offset == bytes.count else { return nil }
        return Data(out)
    }
}
