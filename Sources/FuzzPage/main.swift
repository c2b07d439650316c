// libFuzzer entry point for PageCodec, the page file reader (built by scripts/fuzz.sh, not by swift build:
// it has no main of its own).
//
// What a user relies on: reading a page file never traps, whatever the bytes (damage is reported, not
// fatal); what it returns holds only values the writer could have written; and a page that reads back
// can be written again (compaction and every save re-encode it), reading back as the same page.
import CZlib
import Foundation
import InkCore
import InkStore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPage(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: bytes, count: count))
    // As it is (damage, resynchronising), then with every chunk's CRC made right: a mutated payload
    // almost never keeps its CRC, and the payload decoders would otherwise see only intact chunks.
    check(input)
    let fixed = fixingCRCs(input)
    if fixed != input { check(fixed) }
    return 0
}

/// `bytes` with the CRC of each chunk that fits (walked by its length field) set to the right value.
func fixingCRCs(_ bytes: [UInt8]) -> [UInt8] {
    var out = bytes
    var offset = PageCodec.fileStart.count
    while offset + 12 <= out.count {
        let length = Int(out[offset]) << 24 | Int(out[offset + 1]) << 16 | Int(out[offset + 2]) << 8 | Int(out[offset + 3])
        guard length <= out.count - offset - 12 else { break }
        let end = offset + 8 + length
        let crc = out.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress! + offset + 4, UInt32(4 + length))) }
        out[end] = UInt8(crc >> 24)
        out[end + 1] = UInt8(crc >> 16 & 0xFF)
        out[end + 2] = UInt8(crc >> 8 & 0xFF)
        out[end + 3] = UInt8(crc & 0xFF)
        offset = end + 4
    }
    return out
}

func check(_ input: [UInt8]) {
    let count = input.count
    let fallback = PageID(rawValue: "fzzpage00000")
    let decoded = input.withUnsafeBytes { PageCodec.decode($0, fallbackID: fallback) }
    for problem in decoded.problems where !(0...count).contains(problem.offset) {
        fatalError("problem at offset \(problem.offset) of a \(count)-byte file: \(problem)")
    }
    let page = decoded.page
    check(page)
    let encoded: [UInt8]
    do {
        encoded = try PageCodec.encodeFile(page)
    } catch {
        fatalError("a page that was read cannot be written again: \(error)")
    }
    let again = encoded.withUnsafeBytes { PageCodec.decode($0, fallbackID: fallback) }
    if again.isDamaged { fatalError("a re-encoded page reads as damaged: \(again.problems)") }
    guard again.page.id == page.id, again.page.size == page.size, again.page.template == page.template,
          again.page.strokes.map(\.id) == page.strokes.map(\.id),
          again.page.strokes.map(\.points.count) == page.strokes.map(\.points.count)
    else { fatalError("a re-encoded page reads back differently") }
    for (a, b) in zip(again.page.strokes, page.strokes) {
        guard a.tool == b.tool, a.color == b.color, a.width == b.width, a.startTime == b.startTime, a.layer == b.layer, a.fill == b.fill, a.dash == b.dash else {
            fatalError("stroke \(a.id) reads back with another style or start time")
        }
        // 0.01 px, or a float step where floats are coarser (beyond ±83,886 px: docs/page-format.md).
        for (p, q) in zip(a.points, b.points)
        where abs(p.x - q.x) > max(0.01, 2 * q.x.ulp) || abs(p.y - q.y) > max(0.01, 2 * q.y.ulp) || abs(p.time - q.time) > max(1, 2 * q.time.ulp) {
            fatalError("stroke \(a.id): point \(q) reads back as \(p)")
        }
    }
}

func check(_ page: Page) {
    guard PageID.isWellFormed(page.id.rawValue) else { fatalError("page id \(page.id)") }
    let limit = PageCodec.coordinateLimit
    for value in [page.size.width, page.size.height, page.template.spacing] where !(value.isFinite && value > 0 && value <= limit) {
        fatalError("page dimension \(value)")
    }
    for stroke in page.strokes {
        guard stroke.width.isFinite, stroke.width > 0, stroke.startTime.isFinite else { fatalError("stroke \(stroke.id) style") }
        for point in stroke.points {
            guard point.x.isFinite, point.y.isFinite, abs(point.x) <= limit, abs(point.y) <= limit,
                  point.pressure.isFinite, point.pressure >= 0, point.pressure <= 1, point.time.isFinite
            else { fatalError("stroke \(stroke.id): point \(point)") }
        }
    }
}

/// Seeds: `INKWELL_FUZZ_PAGE_SEEDS=DIR` writes a few page files made by the real encoder into DIR
/// (scripts/fuzz.sh does this before fuzzing; the repository holds no page files).
@_cdecl("LLVMFuzzerInitialize")
public func initializePageFuzzer(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>) -> CInt {
    guard let folder = ProcessInfo.processInfo.environment["INKWELL_FUZZ_PAGE_SEEDS"] else { return 0 }
    func stroke(_ id: UInt64, tool: Tool, points: Int, tilt: Bool) -> Stroke {
        Stroke(id: StrokeID(id), tool: tool, color: RGBA(red: UInt8(id * 40 % 256), green: 20, blue: 200, alpha: 255),
               width: Float(id % 4) + 1.5, startTime: Double(id) * 900,
               points: (0..<points).map { i in
                   let t = Float(i)
                   return InkPoint(x: 100 + t * 3.25, y: 200 + t * t * 0.01, pressure: Float(i % 9) / 8, time: t * 8,
                                   tilt: tilt ? Tilt(altitude: 1.2, azimuth: Float(i % 7) * 0.3) : nil)
               })
    }
    let layers = [PageLayer(name: "Layer 1"), PageLayer(name: "Answers ✎", isVisible: false)]
    var layeredRecords = [PageRecord.header(id: PageID(rawValue: "abcdefgh0123"), size: .remarkable, template: PageTemplate(layers: layers))]
    for id: UInt64 in 1...3 {
        var layered = stroke(id, tool: .pen, points: 5, tilt: false)
        layered.layer = UInt16(id % 2)
        layered.fill = id == 2 ? 128 : nil
        layered.dash = id == 3 ? [6, 3, 0.5, 3] : nil
        layeredRecords.append(.stroke(layered))
    }
    let pages: [(String, [PageRecord])] = [
        ("empty", [.header(id: PageID(rawValue: "abcdefgh0123"), size: .remarkable, template: PageTemplate())]),
        ("strokes", [.header(id: PageID(rawValue: "abcdefgh0123"), size: .a4Points, template: PageTemplate(kind: .lined, spacing: 32, paper: .white))]
            + (1...4).map { PageRecord.stroke(stroke($0, tool: $0 == 3 ? .highlighter : .pen, points: 20 + Int($0) * 7, tilt: $0 == 2)) }),
        ("edits", [.header(id: PageID(rawValue: "abcdefgh0123"), size: .remarkable, template: PageTemplate(kind: .grid, spacing: 40, paper: .white)),
                   .stroke(stroke(1, tool: .pen, points: 5, tilt: false)), .stroke(stroke(2, tool: .pen, points: 3, tilt: true)),
                   .removal([StrokeID(1)]), .stroke(stroke(2, tool: .highlighter, points: 4, tilt: false)), .removal([StrokeID(7), StrokeID(2)])]),
        ("printed", [.header(id: PageID(rawValue: "abcdefgh0123"), size: .remarkable,
                             template: PageTemplate(printed: [PrintedLine(text: "Agenda", x: 234, baseline: 216, size: 54, bold: true),
                                                              PrintedLine(text: "- café ✓", x: 234, baseline: 251, size: 27)])),
                     .stroke(stroke(1, tool: .pen, points: 6, tilt: false))]),
        ("layers", layeredRecords),
        ("background", [.header(id: PageID(rawValue: "abcdefgh0123"), size: PageSize(width: 612, height: 792),
                                template: PageTemplate(kind: .lined, background: PageBackground(document: String(repeating: "a5", count: 32), page: 3))),
                        .stroke(stroke(1, tool: .pen, points: 4, tilt: false))]),
    ]
    for (name, records) in pages {
        let bytes = PageCodec.fileStart + ((try? PageCodec.encode(records)) ?? [])
        _ = FileManager.default.createFile(atPath: folder + "/" + name + ".inkpage", contents: Data(bytes))
    }
    return 0
}
