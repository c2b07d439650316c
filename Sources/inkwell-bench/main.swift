// Release-build benchmarks for the store, the session, the indexing job and search: `make bench` (or
// `swift run -c release inkwell-bench [codec|append|session|geometry|index|search]…`). Prints a Markdown table;
// docs/benchmarks.md and docs/recognition.md record the figures and the machine.
// INKWELL_BENCH_INDEX_PAGES (default 40), INKWELL_BENCH_SEARCH_PAGES (default 100000) and
// INKWELL_BENCH_QUERIES (per kind, default 200) set the sizes.
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import InkCore
import InkGeometry
import InkInterchange
import InkRender
import InkSession
import InkStore
import InkwellKit

if try renderBenchmarkMain(CommandLine.arguments) { exit(0) }
if try exportLibraryMain(CommandLine.arguments) { exit(0) }

/// Seconds taken by `body`, best of `runs` (the least disturbed run).
func best(of runs: Int = 5, _ body: () throws -> Void) rethrows -> Double {
    var fastest = Double.infinity
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        fastest = min(fastest, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    return fastest
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

/// Handwriting-like strokes: smooth random walks with slowly varying pressure, 8 ms apart.
func syntheticPage(strokes: Int, points: Int, seed: UInt64) -> Page {
    var state = seed
    func next() -> Float {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Float(state >> 40) / Float(1 << 24)
    }
    return Page(id: PageID(rawValue: "benchpage001"), strokes: (0..<strokes).map { index in
        var x = 80 + next() * 1240, y = 80 + next() * 1700, pressure = 0.3 + next() * 0.4
        var dx = (next() - 0.5) * 4, dy = (next() - 0.5) * 4
        return Stroke(id: StrokeID(UInt64(index + 1)), width: 2.5, startTime: Double(index) * 620,
                      points: (0..<points).map { step in
                          dx = dx * 0.8 + (next() - 0.5) * 1.6
                          dy = dy * 0.8 + (next() - 0.5) * 1.6
                          x += dx
                          y += dy
                          pressure = min(1, max(0, pressure + (next() - 0.5) * 0.04))
                          return InkPoint(x: x, y: y, pressure: pressure, time: Float(step * 8))
                      })
    })
}

/// Sections to run: all by default, or those named on the command line (codec, append, session, geometry, index, search).
let sections = Set(CommandLine.arguments.dropFirst())
func wanted(_ section: String) -> Bool { sections.isEmpty || sections.contains(section) }

var rows: [(String, String)] = []
@MainActor func report(_ name: String, _ value: String) {
    rows.append((name, value))
    FileHandle.standardError.write(Data("\(name): \(value)\n".utf8))
}

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-bench-\(getpid())")
try? FileManager.default.removeItem(at: folder)
let library = try Library.create(at: folder)
defer { try? FileManager.default.removeItem(at: folder) }

// MARK: Page codec

if wanted("codec") {
let pages = (0..<10).map { syntheticPage(strokes: 1_500, points: 40, seed: UInt64($0 + 1)) }
let points = pages.reduce(0) { $0 + $1.pointCount }
var files: [[UInt8]] = []
let encodeTime = try best {
    files = try pages.map { try PageCodec.encodeFile($0) }
}
let bytes = files.reduce(0) { $0 + $1.count }
report("page codec: bytes per point (10 pages × 1,500 strokes × 40 points)", String(format: "%.2f", Double(bytes) / Double(points)))
report("page codec: encode", String(format: "%.1f M points/s", Double(points) / encodeTime / 1e6))
var decodedPoints = 0
let decodeTime = best {
    decodedPoints = 0
    for (file, page) in zip(files, pages) {
        decodedPoints += file.withUnsafeBytes { PageCodec.decode($0, fallbackID: page.id) }.page.pointCount
    }
}
precondition(decodedPoints == points)
report("page codec: decode", String(format: "%.1f M points/s", Double(points) / decodeTime / 1e6))
}

// MARK: Append versus rewrite

if wanted("append") {
let note = try library.createNote(title: "Bench")
let big = syntheticPage(strokes: 10_000, points: 40, seed: 99)
try library.save([PageDelta(pageID: big.id, size: big.size, template: big.template, isNew: true, addedStrokes: big.strokes)],
                 to: note.note.id)
let extra = syntheticPage(strokes: 1, points: 40, seed: 7).strokes[0]
var appendTimes: [Double] = [], rewriteTimes: [Double] = []
let pageFile = folder.appendingPathComponent("notebooks/Inbox/\(note.note.id).note/\(big.id).inkpage")
for round in 0..<20 {
    var stroke = extra
    stroke.id = StrokeID(UInt64(20_000 + round))
    appendTimes.append(try best(of: 1) {
        try library.save([PageDelta(pageID: big.id, isNew: false, addedStrokes: [stroke])], to: note.note.id)
    })
    rewriteTimes.append(try best(of: 1) {
        var page = big
        page.strokes.append(stroke)
        try DurableFile.replace(pageFile, with: try PageCodec.encodeFile(page))
    })
}
report("append 1 stroke to a 10,000-stroke page (lock, append, fsync, note.json)", String(format: "%.2f ms", median(appendTimes) * 1000))
report("rewrite the same page (encode, temp file, fsync, rename)", String(format: "%.2f ms", median(rewriteTimes) * 1000))
let small = syntheticPage(strokes: 10, points: 40, seed: 5)
let smallNote = try library.createNote(title: "Small")
try library.save([PageDelta(pageID: small.id, size: small.size, isNew: true, addedStrokes: small.strokes)], to: smallNote.note.id)
var smallAppend: [Double] = []
for round in 0..<20 {
    var stroke = extra
    stroke.id = StrokeID(UInt64(30_000 + round))
    smallAppend.append(try best(of: 1) {
        try library.save([PageDelta(pageID: small.id, isNew: false, addedStrokes: [stroke])], to: smallNote.note.id)
    })
}
report("append 1 stroke to a 10-stroke page (same path)", String(format: "%.2f ms", median(smallAppend) * 1000))
}

// MARK: Session

/// A one-hour recording: 40-point strokes sampled every 8 ms, 300 ms between strokes, a new page every 400 strokes.
func hourLongRecording() -> RecordedNote {
    var events: [RecordedEvent] = []
    var t = 0.0
    var stroke = 0
    while t < 3_600 {
        if stroke % 400 == 0 { events.append(.newPage(size: .remarkable, template: PageTemplate(), at: t)) }
        let x = Float(100 + (stroke % 20) * 60), y = Float(100 + (stroke / 20 % 28) * 60)
        events.append(.penDown(RecordedPoint(x: x, y: y, pressure: 0.3), pen: RecordedPen(), at: t))
        for step in 1..<39 {
            t += 0.008
            events.append(.penMove(RecordedPoint(x: x + Float(step), y: y + Float(step % 7), pressure: 0.6), at: t))
        }
        t += 0.008
        events.append(.penUp(RecordedPoint(x: x + 39, y: y, pressure: 0.2), at: t))
        t += stroke % 25 == 24 ? 3 : 0.3
        stroke += 1
    }
    return RecordedNote(title: "Hour", events: events)
}

if wanted("session") {
let hour = hourLongRecording()
var sessionEvents: [SessionEvent] = [.enterNote(NoteID(rawValue: "benchnote001"), at: 0)]
var benchPage = PageID.random()
for event in hour.events {
    switch event {
    case let .newPage(size, template, at):
        benchPage = PageID.random()
        sessionEvents.append(.addPage(benchPage, size: size, template: template, at: at))
    case let .penDown(p, pen, at):
        sessionEvents.append(.strokeDown(key: "pen", page: benchPage, InkPoint(x: p.x, y: p.y, pressure: p.pressure),
                                         tool: pen.tool, color: pen.color, width: pen.width, at: at))
    case let .penMove(p, at): sessionEvents.append(.strokeMove(key: "pen", [InkPoint(x: p.x, y: p.y, pressure: p.pressure)], at: at))
    case let .penUp(p, at):
        if let p { sessionEvents.append(.strokeMove(key: "pen", [InkPoint(x: p.x, y: p.y, pressure: p.pressure)], at: at)) }
        sessionEvents.append(.strokeUp(key: "pen", at: at))
    default: break
    }
}
var effectCount = 0
let sessionTime = best {
    var session = Session()
    effectCount = 0
    for event in sessionEvents {
        for effect in session.send(event) {
            effectCount += 1
            if case .save(let request) = effect { _ = session.send(.saveFinished(request.id, at: event.at)) }
        }
    }
}
report("session: events through the state machine", String(format: "%.1f M events/s (%d events)", Double(sessionEvents.count) / sessionTime / 1e6, sessionEvents.count))

var importedStrokes = 0
let importTime = try best(of: 3) {
    var staged = try library.stage(title: "Hour", in: .inbox, created: Date(), source: "bench")
    try NoteReplayer().replay(hour, into: &staged)
    importedStrokes = staged.note.pages.count
    library.discard([staged])
}
report("replay a one-hour recording into the store (\(hour.pointCount) points, \(importedStrokes) pages)",
       String(format: "%.3f s", importTime))
}

// MARK: Stroke geometry

// The outlines the renderer fills, on the rendering benchmark's dense pages, one core: the share of a
// raster render that is geometry rather than Cairo.
if wanted("geometry") {
    let pages = DensePages.make()
    let style = InkStyle.standard.pen.stroke
    let strokes = pages.flatMap(\.strokes)
    let points = strokes.reduce(0) { $0 + $1.points.count }
    for scale in [1.0, 2.0, 3.0] {
        let resolution = OutlineResolution.raster(scale: scale)
        var outlinePoints = 0
        let seconds = best {
            outlinePoints = 0
            for stroke in strokes { outlinePoints += StrokeGeometry.outline(of: stroke, style: style, resolution: resolution).pointCount }
        }
        report("stroke outlines at \(Int(scale))x (dense pages, one core)",
               String(format: "%.1f ms a page, %.1f M input points/s, %.1f outline points a stroke",
                      seconds * 1000 / Double(pages.count), Double(points) / seconds / 1e6, Double(outlinePoints) / Double(strokes.count)))
    }
}

// MARK: Indexing job and search

let environment = ProcessInfo.processInfo.environment
if wanted("index") {
    try indexBenchmark(pages: environment["INKWELL_BENCH_INDEX_PAGES"].flatMap { Int($0) } ?? 40)
}
if wanted("search") {
    try searchBenchmark(pages: environment["INKWELL_BENCH_SEARCH_PAGES"].flatMap { Int($0) } ?? 100_000,
                        queries: environment["INKWELL_BENCH_QUERIES"].flatMap { Int($0) } ?? 200)
}

// On PostgreSQL, when INKWELL_BENCH_POSTGRES_URL names an empty database (scripts/pg-bench.sh starts one).
if let url = environment["INKWELL_BENCH_POSTGRES_URL"] {
    if wanted("pg-queue") { try queueBenchmark(pages: environment["INKWELL_BENCH_QUEUE_PAGES"].flatMap { Int($0) } ?? 1_000, postgresURL: url) }
    if wanted("pg-search") {
        try searchBenchmark(pages: environment["INKWELL_BENCH_SEARCH_PAGES"].flatMap { Int($0) } ?? 100_000,
                            queries: environment["INKWELL_BENCH_QUERIES"].flatMap { Int($0) } ?? 200, postgresURL: url)
    }
}

print("| measure | result |")
print("|---|---|")
for (name, value) in rows { print("| \(name) | \(value) |") }
