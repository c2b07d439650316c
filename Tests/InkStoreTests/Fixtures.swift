import Foundation
import InkCore
import InkSamples
import PropertyBased
@testable import InkStore

/// A fresh empty folder under the system temporary folder, removed when the test process exits.
func temporaryFolder() -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-test-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    TemporaryFolders.shared.withLock { $0.append(url) }
    return url
}

/// The folders ``temporaryFolder()`` made; an `atexit` handler removes them.
enum TemporaryFolders {
    static let shared: Locked<[URL]> = {
        atexit { for url in TemporaryFolders.shared.withLock({ $0 }) { try? FileManager.default.removeItem(at: url) } }
        return Locked([])
    }()
}

/// Arbitrary model values drawn from a seed: property tests draw seeds with PropertyBased and
/// build values here, covering edge cases (no points, tilt, extreme coordinates) on purpose.
struct ModelGenerator {
    var rng: SeededGenerator

    init(seed: UInt64) { rng = SeededGenerator(seed: seed) }

    mutating func float(_ range: ClosedRange<Float>) -> Float {
        range.lowerBound + Float(rng.next() >> 40) / Float(1 << 24) * (range.upperBound - range.lowerBound)
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }

    mutating func point() -> InkPoint {
        let extreme = int(0...20) == 0
        let limit: Float = extreme ? 1_000_000 : 5_000
        let x = float(-limit...limit), y = float(-limit...limit)
        let tilt = int(0...4) == 0 ? Tilt(altitude: float(0...1.6), azimuth: float(-3.2...3.2)) : nil
        return InkPoint(x: x, y: y, pressure: float(0...1), time: float(0...3_600_000).rounded(), tilt: tilt)
    }

    mutating func stroke(id: UInt64) -> Stroke {
        let count = int(0...4) == 0 ? int(0...2) : int(0...60)
        return Stroke(id: StrokeID(id), tool: Tool.allCases[int(0...Tool.allCases.count - 1)],
                      color: RGBA(red: UInt8(int(0...255)), green: UInt8(int(0...255)), blue: UInt8(int(0...255)), alpha: UInt8(int(0...255))),
                      width: float(0.01...500), startTime: Double(int(0...1_000_000_000)),
                      points: (0..<count).map { _ in point() })
    }

    mutating func page() -> Page {
        var ids = Set<UInt64>()
        while ids.count < int(0...12) { ids.insert(UInt64(int(1...1 << 40))) }
        return Page(id: PageID.random(using: &rng), size: PageSize(width: float(1...10_000), height: float(1...10_000)),
                    template: PageTemplate(kind: TemplateKind.allCases[int(0...4)], spacing: float(5...200), paper: .white),
                    strokes: ids.sorted().map { stroke(id: $0) })
    }
}

/// A page like handwriting: `strokes` strokes of `points` points each, deterministic.
func handwritingPage(strokes: Int, points: Int, seed: UInt64 = 1) -> Page {
    var state = seed
    func next() -> Float {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Float(state >> 40) / Float(1 << 24)
    }
    let page = Page(id: PageID(rawValue: "testpage0001"), strokes: (0..<strokes).map { index in
        var x = 100 + next() * 1200, y = 100 + next() * 1600, pressure = 0.3 + next() * 0.4
        return Stroke(id: StrokeID(UInt64(index + 1)), width: 2.5, startTime: Double(index) * 700,
                      points: (0..<points).map { step in
                          x += (next() - 0.5) * 6
                          y += (next() - 0.5) * 6
                          pressure = min(1, max(0, pressure + (next() - 0.5) * 0.04))
                          return InkPoint(x: x, y: y, pressure: pressure, time: Float(step * 8))
                      })
    })
    return page
}

/// Decodes a whole file's bytes.
func decode(_ bytes: [UInt8], id: PageID = PageID(rawValue: "testpage0001")) -> DecodedPage {
    bytes.withUnsafeBytes { PageCodec.decode($0, fallbackID: id) }
}

/// Byte ranges of each chunk in a file (after the 10-byte start), by walking lengths.
func chunkRanges(_ bytes: [UInt8]) -> [Range<Int>] {
    var ranges: [Range<Int>] = []
    var offset = PageCodec.fileStart.count
    while offset + 12 <= bytes.count {
        let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
        ranges.append(offset..<offset + 12 + length)
        offset += 12 + length
    }
    return ranges
}
