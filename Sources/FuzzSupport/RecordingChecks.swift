// Shared by the fuzz targets of the InkInterchange decoders (scripts/fuzz.sh compiles it into each):
// what every decoder promises, whatever the bytes (docs/import-formats.md, "Hostile input").
import Foundation
import InkCore
import InkInterchange

/// Decodes `bytes` with `decode` and traps (a libFuzzer crash) when the result breaks a promise: a
/// refusal must name the file; a recording holds only finite values within ``ImportLimits``.
func fuzzDecode(_ bytes: UnsafePointer<UInt8>, _ count: Int, _ decode: (Data, String) throws(ImportError) -> Recording) {
    let data = Data(bytes: bytes, count: count)
    do {
        check(try decode(data, "fuzz"))
    } catch {
        if error.file != "fuzz" { fatalError("ImportError without the file name: \(error)") }
    }
}

func check(_ recording: Recording) {
    var total = 0
    for note in recording.notes {
        var strokePoints = 0
        for event in note.events {
            guard event.time.isFinite else { fatalError("event time \(event.time)") }
            switch event {
            case let .newPage(size, template, _):
                guard size.width.isFinite, size.height.isFinite, size.width > 0, size.height > 0, template.spacing.isFinite else {
                    fatalError("page size \(size), spacing \(template.spacing)")
                }
            case let .penDown(point, pen, _):
                guard pen.width.isFinite, pen.width >= 0, pen.width <= ImportLimits.maxWidth else { fatalError("pen width \(pen.width)") }
                check(point)
                strokePoints = 1
                total += 1
            case let .penMove(point, _):
                check(point)
                strokePoints += 1
                total += 1
            case let .penUp(point, _):
                if let point {
                    check(point)
                    strokePoints += 1
                    total += 1
                }
            case let .tap(x, y, _, _):
                guard x.isFinite, y.isFinite else { fatalError("tap at \(x), \(y)") }
            case .undo, .redo: break
            }
            if strokePoints > ImportLimits.pointsPerStroke + 1 { fatalError("\(strokePoints) points in a stroke") }
        }
    }
    if total > ImportLimits.pointsPerFile + recording.notes.count { fatalError("\(total) points in a file") }
}

func check(_ point: RecordedPoint) {
    let limit = ImportLimits.coordinate
    guard point.x.isFinite, point.y.isFinite, abs(point.x) <= limit, abs(point.y) <= limit else {
        fatalError("point at \(point.x), \(point.y)")
    }
    guard point.pressure.isFinite, point.pressure >= 0, point.pressure <= 1 else { fatalError("pressure \(point.pressure)") }
    if let tilt = point.tilt, !(tilt.altitude.isFinite && tilt.azimuth.isFinite) { fatalError("tilt \(tilt)") }
}
