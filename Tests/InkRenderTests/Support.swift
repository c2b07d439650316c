import Foundation
import InkCore
@testable import InkRender

/// A stroke through `positions` with one pressure (or a pressure per point).
func stroke(_ positions: [(Double, Double)], pressure: [Float]? = nil, width: Float = 4, tool: Tool = .pen,
            color: RGBA = .black, id: UInt64 = 1, spacingMS: Float = 8) -> Stroke {
    Stroke(id: StrokeID(id), tool: tool, color: color, width: width, points: positions.enumerated().map { i, p in
        InkPoint(x: Float(p.0), y: Float(p.1), pressure: pressure.map { $0[min(i, $0.count - 1)] } ?? 0.5, time: Float(i) * spacingMS)
    })
}

/// Points along a line from a to b.
func line(from a: (Double, Double), to b: (Double, Double), count: Int) -> [(Double, Double)] {
    (0..<count).map { i in
        let t = count > 1 ? Double(i) / Double(count - 1) : 0
        return (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t)
    }
}

/// Winding number of `p` around all polygons (nonzero rule: inside when not 0).
func winding(_ p: Vector, _ polygons: [[Vector]]) -> Int {
    var total = 0
    for polygon in polygons where polygon.count >= 3 {
        for i in 0..<polygon.count {
            let a = polygon[i], b = polygon[(i + 1) % polygon.count]
            let side = (b.x - a.x) * (p.y - a.y) - (p.x - a.x) * (b.y - a.y)
            if a.y <= p.y {
                if b.y > p.y, side > 0 { total += 1 }
            } else if b.y <= p.y, side < 0 {
                total -= 1
            }
        }
    }
    return total
}

/// Signed area (shoelace) of a closed polygon.
func signedArea(_ polygon: [Vector]) -> Double {
    var sum = 0.0
    for i in 0..<polygon.count {
        let a = polygon[i], b = polygon[(i + 1) % polygon.count]
        sum += a.x * b.y - b.x * a.y
    }
    return sum / 2
}

func distance(_ a: Vector, _ b: Vector) -> Double { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }

/// Half the ink's extent across the vertical line at `x` (for horizontal strokes).
func halfWidth(at x: Double, _ polygons: [[Vector]]) -> Double {
    var ys: [Double] = []
    for polygon in polygons {
        for i in 0..<polygon.count {
            let a = polygon[i], b = polygon[(i + 1) % polygon.count]
            if (a.x - x) * (b.x - x) <= 0, a.x != b.x {
                let t = (x - a.x) / (b.x - a.x)
                ys.append(a.y + (b.y - a.y) * t)
            }
        }
    }
    guard let lo = ys.min(), let hi = ys.max() else { return 0 }
    return (hi - lo) / 2
}

/// A deterministic generator for test data.
struct TestRandom {
    var state: UInt64
    mutating func next() -> Double {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Double(state >> 11) / Double(1 << 53)
    }
}

/// A small page with one of everything: pressure pen, fineliner, pencil, highlighter under later
/// ink, a dot, a hairpin, a stroke cut in two by an eraser, on a lined template.
func samplePage() -> Page {
    var strokes: [Stroke] = []
    var id: UInt64 = 0
    func add(_ s: Stroke) {
        var s = s
        id += 1
        s.id = StrokeID(id)
        strokes.append(s)
    }
    add(stroke(line(from: (15, 70), to: (145, 70), count: 30), width: 14, tool: .highlighter,
               color: RGBA(red: 255, green: 235, blue: 59)))
    var wave: [(Double, Double)] = []
    var rising: [Float] = []
    for i in 0..<60 {
        let t = Double(i)
        wave.append((12 + t * 2.2, 30 + 10 * sin(t / 6)))
        rising.append(Float(0.2 + 0.8 * t / 59))
    }
    add(stroke(wave, pressure: rising, width: 5))
    add(stroke(line(from: (20, 62), to: (140, 78), count: 25), width: 3, tool: .fineliner, color: RGBA(red: 30, green: 60, blue: 200)))
    var graphite: [(Double, Double)] = []
    var pressing: [Float] = []
    for i in 0..<40 {
        let t = Double(i)
        graphite.append((20 + t * 3, 88 + 4 * cos(t / 3)))
        pressing.append(Float(0.2 + 0.8 * Double(i % 20) / 19))
    }
    add(stroke(graphite, pressure: pressing, width: 4, tool: .pencil))
    add(stroke([(150, 20)], width: 6))
    add(stroke([(120, 45), (140, 46), (160, 47), (140, 48.5), (120, 50)], width: 3))
    add(stroke(line(from: (166, 55), to: (166, 95), count: 10), width: 3, color: RGBA(red: 200, green: 0, blue: 0)))
    add(stroke(line(from: (156, 75), to: (176, 76), count: 4), width: 6, tool: .eraser))
    return Page(id: PageID(rawValue: "testpage0001"), size: PageSize(width: 180, height: 100),
                template: PageTemplate(kind: .lined, spacing: 20), strokes: strokes)
}

/// Runs a command line tool, returning its standard output, or nil when it is not installed.
func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String)? {
    guard let path = ["/usr/bin/\(tool)", "/usr/local/bin/\(tool)", "/opt/homebrew/bin/\(tool)"]
        .first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

let popplerInstalled = FileManager.default.isExecutableFile(atPath: "/usr/bin/pdfinfo")

/// A fresh empty folder under the system temporary folder, removed with this value.
final class ScratchFolder: Sendable {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("inkrender-\(UUID().uuidString)")

    init() { try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(at: url) }
}
