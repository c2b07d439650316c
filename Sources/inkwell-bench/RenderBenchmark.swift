// The rendering benchmark (`scripts/render-bench.sh`): Inkwell against Xournal++ 1.1.3 and raw Cairo
// on the dense page set, which `DensePages` generates (and `scripts/make-dense-pages.sh` writes out).
//
//   inkwell-bench render [--inkwell PATH] [--runs N] [--keep DIR]   the comparison, a Markdown table
//   inkwell-bench make-dense-pages DIR                              dense.xopp + library/ with the note
import CCairo
import CPNGWriter
import Foundation
import InkCore
import InkGeometry
import InkSamples
import InkRender
import InkStore

/// Handles `render` and `make-dense-pages`; returns false for anything else (main.swift goes on).
func renderBenchmarkMain(_ arguments: [String]) throws -> Bool {
    let args = Array(arguments.dropFirst())
    guard let command = args.first, command == "render" || command == "make-dense-pages" else { return false }
    if command == "make-dense-pages" {
        guard args.count == 2 else {
            FileHandle.standardError.write(Data("usage: inkwell-bench make-dense-pages DIR\n".utf8))
            exit(64)
        }
        try DensePages.write(to: URL(fileURLWithPath: args[1], isDirectory: true), pages: DensePages.make())
        print("wrote \(args[1])/dense.xopp and \(args[1])/library (note \"Dense pages\": 10 pages × 1,500 strokes × 40 points)")
        return true
    }
    func value(_ flag: String) -> String? { args.firstIndex(of: flag).flatMap { $0 + 1 < args.count ? args[$0 + 1] : nil } }
    var benchmark = RenderBenchmark(runs: Int(value("--runs") ?? "3") ?? 3)
    benchmark.inkwell = value("--inkwell") ?? RenderBenchmark.siblingExecutable("inkwell")
    benchmark.keep = value("--keep").map { URL(fileURLWithPath: $0, isDirectory: true) }
    try benchmark.run()
    return true
}

// MARK: The dense page set

/// Handwriting-like pages: lines of cursive-like strokes (trochoids with loops, cusps and slant),
/// 40 points each, 8 ms apart, with pressure that rises, wanders and falls. Deterministic.
enum DensePages {
    static let pageSize = PageSize.a4Points  // page units are PDF points, as in Xournal++
    static let penWidth: Float = 1.41        // Xournal++'s medium pen

    static func make(pages: Int = 10, strokes: Int = 1_500, points: Int = 40, seed: UInt64 = 2024) -> [Page] {
        (0..<pages).map { page(index: $0, strokes: strokes, points: points, seed: seed &+ UInt64($0) &* 7919) }
    }

    static func page(index: Int, strokes: Int, points: Int, seed: UInt64) -> Page {
        var random = SeededGenerator(seed: seed)
        let width = Double(pageSize.width), height = Double(pageSize.height)
        let left = 36.0, right = width - 36, top = 48.0, bottom = height - 36
        // Choose the line pitch so the strokes fill the page.
        let meanAdvance = 11.0 + 3.0
        let perLine = (right - left) / meanAdvance
        let lines = (Double(strokes) / perLine).rounded(.up)
        let pitch = (bottom - top) / max(1, lines)
        var x = left, baseline = top + pitch * 0.7
        var result: [Stroke] = []
        var clock = 0.0
        for s in 0..<strokes {
            let advance = random.uniform(8...14)
            if x + advance > right {
                x = left + random.uniform(0...6)
                baseline += pitch
                if baseline > bottom { baseline = top + pitch * 0.7 }
            }
            let loops = [1.0, 1.5, 2.0, 2.5][Int(random.next() % 4)]
            let radius = random.uniform(2.2...4.2)
            let slant = random.uniform(0.15...0.35)
            let phase = random.uniform(-0.4...0.4)
            let base = random.uniform(0.45...0.7)
            let wobble = random.uniform(0.05...0.2)
            var samples: [InkPoint] = []
            for k in 0..<points {
                let u = Double(k) / Double(points - 1)
                let theta = 2 * Double.pi * loops * u + phase
                var px = x + advance * u - radius * sin(theta)
                let py = baseline - radius * (1 - cos(theta)) - 1.5 * sin(Double.pi * u)
                px += slant * (baseline - py)
                let ramp = min(1, min(u, 1 - u) / 0.15)
                let pressure = (0.25 + (base - 0.25) * ramp) + wobble * sin(7 * u + phase) * ramp
                samples.append(InkPoint(x: Float(px + random.uniform(-0.08...0.08)), y: Float(py + random.uniform(-0.08...0.08)),
                                        pressure: Float(min(1, max(0.05, pressure))), time: Float(k * 8)))
            }
            result.append(Stroke(id: StrokeID(UInt64(s + 1)), tool: .pen, color: .black, width: penWidth,
                                 startTime: clock, points: samples))
            clock += Double(points * 8) + 150
            x += advance + random.uniform(2...4)
        }
        return Page(id: PageID(rawValue: String(format: "densepage%03d", index)), size: pageSize,
                    template: PageTemplate(kind: .blank), strokes: result)
    }

    /// The same pages as a Xournal++ document (plain XML, which Xournal++ reads as well as gzip):
    /// pen strokes with one width per segment, nominal width × pressure, as Xournal++ itself stores them.
    static func xopp(_ pages: [Page]) -> String {
        var out = "<?xml version=\"1.0\" standalone=\"no\"?>\n<xournal creator=\"inkwell-bench\" fileversion=\"4\">\n<title>Dense pages</title>\n"
        for page in pages {
            out += "<page width=\"\(page.size.width)\" height=\"\(page.size.height)\">\n"
            out += "<background type=\"solid\" color=\"#ffffffff\" style=\"plain\"/>\n<layer>\n"
            for stroke in page.strokes {
                let widths = stroke.points.dropLast().map { String(format: "%.4f", stroke.width * $0.pressure) }
                out += "<stroke tool=\"pen\" ts=\"0\" fn=\"\" color=\"#000000ff\" width=\"\(stroke.width) \(widths.joined(separator: " "))\" capStyle=\"round\">"
                out += stroke.points.map { String(format: "%.4f %.4f", $0.x, $0.y) }.joined(separator: " ")
                out += "</stroke>\n"
            }
            out += "</layer>\n</page>\n"
        }
        out += "</xournal>\n"
        return out
    }

    /// Writes `dense.xopp` and a library `library/` holding the note "Dense pages" into `folder`.
    static func write(to folder: URL, pages: [Page]) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(xopp(pages).utf8).write(to: folder.appendingPathComponent("dense.xopp"))
        let libraryURL = folder.appendingPathComponent("library", isDirectory: true)
        try? FileManager.default.removeItem(at: libraryURL)
        let library = try Library.create(at: libraryURL)
        var staged = try library.stage(title: "Dense pages", in: .inbox, created: Date(timeIntervalSince1970: 1_700_000_000), source: "bench")
        for page in pages {
            try staged.apply(PageDelta(pageID: page.id, size: page.size, template: page.template, isNew: true, addedStrokes: page.strokes))
        }
        _ = try library.commit([staged])
    }
}


// MARK: The floor: raw Cairo filling the same outlines

/// Fills precomputed outlines with Cairo, one fill per stroke, on a white image: the least any
/// renderer drawing these outlines with Cairo can spend. Returns the surface (caller destroys it).
func rawCairoFill(_ outlines: [StrokeOutline], width: Double, height: Double, scale: Double,
                  antialias: cairo_antialias_t = CAIRO_ANTIALIAS_DEFAULT) -> OpaquePointer {
    let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32((width * scale).rounded()), Int32((height * scale).rounded()))!
    let cr = cairo_create(surface)!
    cairo_set_antialias(cr, antialias)
    cairo_set_source_rgb(cr, 1, 1, 1)
    cairo_paint(cr)
    cairo_set_source_rgb(cr, 0, 0, 0)
    for outline in outlines {
        for polygon in outline.polygons {
            guard let first = polygon.first else { continue }
            cairo_move_to(cr, first.x * scale, first.y * scale)
            for p in polygon.dropFirst() { cairo_line_to(cr, p.x * scale, p.y * scale) }
            cairo_close_path(cr)
        }
        cairo_fill(cr)
    }
    cairo_destroy(cr)
    cairo_surface_flush(surface)
    return surface
}

/// Cairo's PDF surface filling the same outlines, one fill per stroke: the floor for a Cairo PDF.
func rawCairoPDF(_ pages: [[StrokeOutline]], width: Double, height: Double) -> Int {
    final class Counter { var bytes = 0 }
    let counter = Counter()
    let surface = cairo_pdf_surface_create_for_stream({ closure, _, length in
        Unmanaged<Counter>.fromOpaque(closure!).takeUnretainedValue().bytes += Int(length)
        return CAIRO_STATUS_SUCCESS
    }, Unmanaged.passUnretained(counter).toOpaque(), width, height)!
    let cr = cairo_create(surface)!
    for outlines in pages {
        cairo_set_source_rgb(cr, 0, 0, 0)
        for outline in outlines {
            for polygon in outline.polygons {
                guard let first = polygon.first else { continue }
                cairo_move_to(cr, first.x, first.y)
                for p in polygon.dropFirst() { cairo_line_to(cr, p.x, p.y) }
                cairo_close_path(cr)
            }
            cairo_fill(cr)
        }
        cairo_show_page(cr)
    }
    cairo_destroy(cr)
    cairo_surface_finish(surface)
    cairo_surface_destroy(surface)
    return counter.bytes
}

/// The comparison: Inkwell (in process and through `inkwell render`), Xournal++ and raw Cairo on
/// the same ten dense pages, for PDF and PNG at 1x, 2x and 3x.
struct RenderBenchmark {
    var runs: Int
    var inkwell: String?
    var keep: URL?

    struct Row {
        var output: String
        var seconds: Double
        var bytes: Int
    }

    static func siblingExecutable(_ name: String) -> String? {
        let here = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        let candidate = here.appendingPathComponent(name).path
        return FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
    }

    static func which(_ tool: String) -> String? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let path = "\(folder)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// Best wall time of `runs` runs.
    func time(_ runs: Int, _ body: () throws -> Void) rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<runs {
            let start = now()
            try body()
            best = min(best, now() - start)
        }
        return best
    }

    /// Runs a command; throws when it fails.
    func command(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw RenderError.io(path, "exit \(process.terminationStatus): \(String(decoding: message, as: UTF8.self))")
        }
    }

    func size(_ folder: URL, prefix: String) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(prefix) }
            .reduce(0) { $0 + ((try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent($1).path)[.size] as? Int) ?? 0) }
    }

    func run() throws {
        let folder = keep ?? FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-render-bench-\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { if keep == nil { try? FileManager.default.removeItem(at: folder) } }
        func log(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }

        let pages = DensePages.make()
        try DensePages.write(to: folder, pages: pages)
        let count = Double(pages.count)
        let library = folder.appendingPathComponent("library").path
        let xopp = folder.appendingPathComponent("dense.xopp").path
        let scales = [1, 2, 3]
        var inkwellRows: [String: Row] = [:], cliRows: [String: Row] = [:], xournalRows: [String: Row] = [:]
        var floorRows: [String: Row] = [:], drawOnly: [String: Double] = [:]
        var extra: [(String, String)] = []

        // Inkwell in process: every core, pages in parallel.
        let renderer = Renderer(options: RenderOptions(title: "Dense pages"))
        var pdf: [UInt8] = []
        inkwellRows["PDF"] = Row(output: "PDF", seconds: try time(runs) { pdf = try renderer.pdf(pages) }, bytes: pdf.count)
        try Data(pdf).write(to: folder.appendingPathComponent("inkwell.pdf"))
        log("inkwell PDF: \(inkwellRows["PDF"]!.seconds) s")
        for scale in scales {
            var images: [[UInt8]] = []
            let seconds = try time(runs) { images = try renderer.pngs(pages, scale: Double(scale)) }
            inkwellRows["PNG \(scale)x"] = Row(output: "PNG \(scale)x", seconds: seconds, bytes: images.reduce(0) { $0 + $1.count })
            try Data(images[0]).write(to: folder.appendingPathComponent("inkwell-\(scale)x-1.png"))
            log("inkwell PNG \(scale)x: \(seconds) s")
        }
        let rgb = Renderer(options: RenderOptions(grayPNG: false))
        var rgbImages: [[UInt8]] = []
        let rgbSeconds = try time(runs) { rgbImages = try rgb.pngs(pages, scale: 2) }
        extra.append(("Inkwell PNG 2x written as RGB instead of grey",
                      String(format: "%.1f pages/s, %d KB/page", count / rgbSeconds, rgbImages.reduce(0) { $0 + $1.count } / pages.count / 1024)))
        let single = Renderer(options: RenderOptions(parallelism: 1))
        let singlePDF = try time(runs) { pdf = try single.pdf(pages) }
        let singlePNG = try time(runs) { _ = try single.pngs(pages, scale: 2) }
        extra.append(("Inkwell on one core", String(format: "PDF %.1f pages/s, PNG 2x %.1f pages/s", count / singlePDF, count / singlePNG)))

        // Inkwell through the command line, start-up and library reading included.
        if let inkwell {
            let out = folder.appendingPathComponent("cli", isDirectory: true)
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            let seconds = try time(runs) { try command(inkwell, ["render", "--library", library, "Dense pages", "-o", out.appendingPathComponent("dense.pdf").path]) }
            cliRows["PDF"] = Row(output: "PDF", seconds: seconds, bytes: try size(out, prefix: "dense.pdf"))
            for scale in scales {
                let seconds = try time(runs) {
                    try command(inkwell, ["render", "--library", library, "Dense pages", "--scale", "\(scale)", "-o", out.appendingPathComponent("s\(scale).png").path])
                }
                cliRows["PNG \(scale)x"] = Row(output: "PNG \(scale)x", seconds: seconds, bytes: try size(out, prefix: "s\(scale)-"))
            }
            log("inkwell CLI done")
        }

        // Xournal++ on the same strokes (per-segment widths = width × pressure).
        if let xournalpp = RenderBenchmark.which("xournalpp") {
            let out = folder.appendingPathComponent("xournalpp", isDirectory: true)
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            let runs = min(self.runs, 2)
            let seconds = try time(runs) { try command(xournalpp, ["--create-pdf=\(out.appendingPathComponent("dense.pdf").path)", xopp]) }
            xournalRows["PDF"] = Row(output: "PDF", seconds: seconds, bytes: try size(out, prefix: "dense.pdf"))
            log("xournalpp PDF: \(seconds) s")
            for scale in scales {
                let seconds = try time(runs) {
                    try command(xournalpp, ["--create-img=\(out.appendingPathComponent("s\(scale).png").path)", "--export-png-dpi=\(72 * scale)", xopp])
                }
                xournalRows["PNG \(scale)x"] = Row(output: "PNG \(scale)x", seconds: seconds, bytes: try size(out, prefix: "s\(scale)-"))
                log("xournalpp PNG \(scale)x: \(seconds) s")
            }
        } else {
            log("xournalpp is not installed (apt-get install xournalpp): its columns are empty")
        }

        // The floor: raw Cairo filling the same outlines (computed beforehand, not timed), one fill per
        // stroke, pages in parallel like Inkwell's; drawing only, and drawing plus the same PNG encoder.
        let style = InkStyle.standard.pen.stroke
        let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
        for scale in scales {
            let outlines = pages.map { page in page.strokes.map { StrokeGeometry.outline(of: $0, style: style, resolution: .raster(scale: Double(scale))) } }
            let w = Double(DensePages.pageSize.width), h = Double(DensePages.pageSize.height)
            let aa = scale >= 2 ? CAIRO_ANTIALIAS_FAST : CAIRO_ANTIALIAS_DEFAULT
            drawOnly["PNG \(scale)x"] = time(runs) {
                DispatchQueue.concurrentPerform(iterations: workers) { worker in
                    for i in stride(from: worker, to: pages.count, by: workers) {
                        cairo_surface_destroy(rawCairoFill(outlines[i], width: w, height: h, scale: Double(scale), antialias: aa))
                    }
                }
            }
            let bytes = Locked(0)
            let seconds = time(runs) {
                bytes.withLock { $0 = 0 }
                DispatchQueue.concurrentPerform(iterations: workers) { worker in
                    for i in stride(from: worker, to: pages.count, by: workers) {
                        let surface = rawCairoFill(outlines[i], width: w, height: h, scale: Double(scale), antialias: aa)
                        var out: UnsafeMutablePointer<UInt8>?
                        var length = 0
                        var message = [CChar](repeating: 0, count: 128)
                        _ = inkpng_encode(cairo_image_surface_get_data(surface), cairo_image_surface_get_width(surface),
                                          cairo_image_surface_get_height(surface), Int(cairo_image_surface_get_stride(surface)),
                                          Int32(INKPNG_RGB), 1, 0, 0, 0, &out, &length, &message, 128)
                        inkpng_free(out)
                        bytes.withLock { $0 += length }
                        cairo_surface_destroy(surface)
                    }
                }
            }
            floorRows["PNG \(scale)x"] = Row(output: "PNG \(scale)x", seconds: seconds, bytes: bytes.withLock { $0 })
        }
        let vectorOutlines = pages.map { page in page.strokes.map { StrokeGeometry.outline(of: $0, style: style, resolution: OutlineResolution(tolerance: 0.1)) } }
        var floorPDFBytes = 0
        let floorPDF = time(1) { floorPDFBytes = rawCairoPDF(vectorOutlines, width: Double(DensePages.pageSize.width), height: Double(DensePages.pageSize.height)) }
        floorRows["PDF"] = Row(output: "PDF", seconds: floorPDF, bytes: floorPDFBytes)

        // The table.
        func rate(_ row: Row?) -> String { row.map { String(format: "%.1f", count / $0.seconds) } ?? "–" }
        func kb(_ row: Row?) -> String { row.map { String(format: "%.0f", Double($0.bytes) / count / 1024) } ?? "–" }
        func ratio(_ a: Double?, _ b: Double?) -> String {
            guard let a, let b, b > 0 else { return "–" }
            return String(format: "%.2f×", a / b)
        }
        print("Dense pages: 10 A4 pages × 1,500 strokes × 40 points with pressure; \(workers) cores; best of \(runs) (Xournal++: best of \(min(runs, 2))).")
        print("")
        print("| output | Inkwell pages/s | KB/page | `inkwell render` pages/s | Xournal++ pages/s | KB/page | speed vs Xournal++ | size vs Xournal++ | raw Cairo pages/s | KB/page | Inkwell time / raw Cairo time |")
        print("|---|---|---|---|---|---|---|---|---|---|---|")
        for name in ["PDF"] + scales.map({ "PNG \($0)x" }) {
            let ink = inkwellRows[name], cli = cliRows[name], xo = xournalRows[name], floor = floorRows[name]
            print("| \(name) | \(rate(ink)) | \(kb(ink)) | \(rate(cli)) | \(rate(xo)) | \(kb(xo)) | \(ratio(xo?.seconds, ink?.seconds)) | \(ratio(ink.map { Double($0.bytes) }, xo.map { Double($0.bytes) })) | \(rate(floor)) | \(kb(floor)) | \(ratio(ink?.seconds, floor?.seconds)) |")
        }
        print("")
        for scale in scales {
            if let d = drawOnly["PNG \(scale)x"] { extra.append(("raw Cairo, drawing only, PNG \(scale)x", String(format: "%.1f pages/s", count / d))) }
        }
        for (name, value) in extra { print("- \(name): \(value)") }
        if let keep { print("\nFiles are in \(keep.path).") }
    }
}
