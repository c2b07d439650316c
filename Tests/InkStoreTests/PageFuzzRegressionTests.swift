import Foundation
import InkCore
import Testing
@testable import InkStore

/// Page files that once broke a promise of the reader (found by Sources/FuzzPage; scripts/fuzz.sh copies
/// new ones into Fixtures/fuzz): reading never traps, and whatever reads can be written again and reads
/// back undamaged.
struct PageFuzzRegressionTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/fuzz")

    @Test("page files that once crashed the reader or could not be written back")
    func fuzzRegressions() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path).filter { $0.hasPrefix("page-") }
        #expect(!names.isEmpty)
        for name in names.sorted() {
            let bytes = [UInt8](try Data(contentsOf: Self.fixtures.appendingPathComponent(name)))
            let decoded = bytes.withUnsafeBytes { PageCodec.decode($0, fallbackID: PageID(rawValue: "fzzpage00000")) }
            let encoded: [UInt8]
            do {
                encoded = try PageCodec.encodeFile(decoded.page)
            } catch {
                Issue.record("\(name): a page that reads cannot be written again: \(error)")
                continue
            }
            let again = encoded.withUnsafeBytes { PageCodec.decode($0, fallbackID: PageID(rawValue: "fzzpage00000")) }
            #expect(!again.isDamaged, "\(name): \(again.problems)")
            #expect(again.page.strokes.map(\.id) == decoded.page.strokes.map(\.id), "\(name)")
        }
    }

    @Test("a start time the writer refuses is a bad payload, even at Int64.min")
    func startTimeLimits() throws {
        for start in [999_999_999_999_999.0, -999_999_999_999_999.0] {
            let stroke = Stroke(id: StrokeID(1), tool: .pen, color: .black, width: 2, startTime: start, points: [InkPoint(x: 1, y: 2)])
            let bytes = try PageCodec.encodeFile(Page(id: PageID(rawValue: "fzzpage00000"), strokes: [stroke]))
            #expect(try PageCodec.decodeStrict(bytes, fallbackID: PageID(rawValue: "fzzpage00000")).strokes.first?.startTime == start)
        }
        #expect(throws: PageEncodingError.self) {
            try PageCodec.encodeFile(Page(id: PageID(rawValue: "fzzpage00000"), strokes: [
                Stroke(id: StrokeID(1), tool: .pen, color: .black, width: 2, startTime: 1e15, points: [InkPoint(x: 1, y: 2)]),
            ]))
        }
    }

    @Test("tilt and point times up to the format's ranges are written, not only read")
    func tiltAndTimeRanges() throws {
        let point = InkPoint(x: 1, y: 2, pressure: 0.5, time: Float(1 << 40), tilt: Tilt(altitude: -1048.576, azimuth: 1048.576))
        let stroke = Stroke(id: StrokeID(1), tool: .pen, color: .black, width: 2, startTime: 0, points: [point])
        let bytes = try PageCodec.encodeFile(Page(id: PageID(rawValue: "fzzpage00000"), strokes: [stroke]))
        let read = try PageCodec.decodeStrict(bytes, fallbackID: PageID(rawValue: "fzzpage00000"))
        #expect(read.strokes.first?.points.first?.time == Float(1 << 40))
        let beyond = InkPoint(x: 1, y: 2, tilt: Tilt(altitude: 1048.6, azimuth: 0))
        #expect(throws: PageEncodingError.self) {
            try PageCodec.encodeFile(Page(id: PageID(rawValue: "fzzpage00000"), strokes: [
                Stroke(id: StrokeID(1), tool: .pen, color: .black, width: 2, startTime: 0, points: [beyond]),
            ]))
        }
    }
}
