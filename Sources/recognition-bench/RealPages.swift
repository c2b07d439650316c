import Foundation
import InkCore
import InkRecognize

/// Strokes of a reMarkable v6 page, read with `rmscene` (and `rmc`'s placement of groups anchored
/// to typed text), as JSON: `[{"tool": n, "color": n, "width": w, "points": [[x, y, p], …]}, …]`
/// with x still centred on 0. Only used here, to measure; the importer in InkInterchange is separate.
private let rmToJSON = #"""
import json, sys
from rmscene import read_tree, scene_items as si
try:
    from rmc.exporters.svg import build_anchor_pos, get_anchor
except Exception:
    build_anchor_pos = None

def walk(group, dx, dy, anchors, out):
    ax, ay = get_anchor(group, anchors) if build_anchor_pos else (0.0, 0.0)
    dx, dy = dx + ax, dy + ay
    for child in group.children.values():
        if isinstance(child, si.Group):
            walk(child, dx, dy, anchors, out)
        elif isinstance(child, si.Line):
            pts = [[p.x + dx, p.y + dy, p.pressure / 255.0 if p.pressure > 1 else p.pressure] for p in child.points]
            widths = sorted(p.width for p in child.points) or [2]
            out.append({"tool": int(child.tool), "color": int(child.color),
                        "width": float(widths[len(widths) // 2]) * float(child.thickness_scale or 1) / 2.0, "points": pts})

with open(sys.argv[1], "rb") as f:
    tree = read_tree(f)
anchors = build_anchor_pos(tree.root_text) if build_anchor_pos else {}
out = []
walk(tree.root, 0.0, 0.0, anchors, out)
json.dump(out, sys.stdout)
"""#

private struct RMStroke: Decodable {
    var tool: Int
    var color: Int
    var width: Double
    var points: [[Double]]
}

/// reMarkable tool numbers to ours.
private func tool(_ number: Int) -> Tool {
    switch number {
    case 1, 14, 7, 13: .pencil
    case 3, 16: .marker
    case 4, 17: .fineliner
    case 5, 18, 23: .highlighter
    case 6, 8: .eraser
    default: .pen
    }
}

/// One transcribed page: the transcription, the page file and the region read.
private struct Transcribed {
    var transcription: URL
    var pageFile: URL
    var minX: Double, minY: Double, maxX: Double, maxY: Double
}

/// Rows of the transcriptions README table: `| x-p1.txt | rm/… | −702, 0 – 702, 1872 | n |`.
private func transcribed(in corpus: URL) throws -> [Transcribed] {
    let folder = corpus.appendingPathComponent("transcriptions")
    let readme = try String(contentsOf: folder.appendingPathComponent("README.md"), encoding: .utf8)
    var rows: [Transcribed] = []
    for line in readme.split(separator: "\n") where line.hasPrefix("|") && line.contains(".txt") {
        let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        guard cells.count >= 3 else { continue }
        let numbers = cells[2].replacingOccurrences(of: "\u{2212}", with: "-")
            .split(whereSeparator: { $0 == "," || $0 == "\u{2013}" || $0 == " " })
            .compactMap { Double($0) }
        guard numbers.count == 4 else { continue }
        rows.append(Transcribed(transcription: folder.appendingPathComponent(cells[0]),
                                pageFile: corpus.appendingPathComponent(cells[1]),
                                minX: numbers[0], minY: numbers[1], maxX: numbers[2], maxY: numbers[3]))
    }
    return rows
}

private func readStrokes(_ file: URL) throws -> [RMStroke] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", rmToJSON, file.path]
    let output = Pipe(), errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let message = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw RecognitionError.recognitionFailed("python3/rmscene could not read \(file.path): \(String(decoding: message, as: UTF8.self))")
    }
    return try JSONDecoder().decode([RMStroke].self, from: data)
}

/// Reads the transcribed reMarkable pages of the corpus (`--corpus`, `INKWELL_CORPUS`, or
/// `../shared/corpus` beside the repository) with the recogniser and with the CLI.
func runReal(corpus explicit: String?, scratch: URL, verbose: Bool) throws {
    let candidates = [explicit, ProcessInfo.processInfo.environment["INKWELL_CORPUS"],
                      sourceRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus").path].compactMap { $0 }
    guard let corpusPath = candidates.first(where: {
        FileManager.default.fileExists(atPath: $0 + "/transcriptions/README.md")
    }) else {
        say("skipped: no corpus with transcriptions/README.md (looked in \(candidates.joined(separator: ", ")))")
        return
    }
    let corpus = URL(fileURLWithPath: corpusPath)
    let rows = try transcribed(in: corpus)
    guard let cliPath = TesseractCLI.find() else { fatalError("the tesseract command is not installed") }
    let cli = TesseractCLI(executable: cliPath, arguments: [])
    // Knobs for measuring choices on these pages: REAL_TEXT_HEIGHT=px, REAL_STROKE_HEIGHT=1 (measure
    // lines by stroke height), REAL_FIXED_SCALE=x, REAL_PEN=px; INKWELL_REAL_DUMP=folder keeps the line images.
    var realOptions = RecognitionOptions()
    if let value = ProcessInfo.processInfo.environment["REAL_TEXT_HEIGHT"], let height = Double(value) { realOptions.textHeight = height }
    if ProcessInfo.processInfo.environment["REAL_STROKE_HEIGHT"] != nil { realOptions.sizeMeasure = .strokeHeight }
    if let value = ProcessInfo.processInfo.environment["REAL_FIXED_SCALE"], let scale = Double(value) {
        realOptions.textHeight = nil
        realOptions.scale = scale
    }
    if let value = ProcessInfo.processInfo.environment["REAL_PEN"], let width = Double(value) { realOptions.pen = .centreline(width: width) }
    let dumpRoot = ProcessInfo.processInfo.environment["INKWELL_REAL_DUMP"]
    var pageOptions = RecognitionOptions()
    pageOptions.textHeight = nil
    let imager = try TesseractRecognizer(options: pageOptions)
    // The CLI also on the page drawn at our scale (ink spread 12 px), which suits it better on these
    // large hands than 1x.
    let scaledImager = try TesseractRecognizer()
    let folder = scratch.appendingPathComponent("real")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)

    say("Real reMarkable pages of \(corpusPath)/transcriptions (strokes read with rmscene; no known tags).\n")
    row(["page", "words", "bag of words: ours", "bag of words: CLI 1x", "bag of words: CLI scaled", "words in order: ours",
         "words in order: CLI 1x", "CER: ours", "CER: CLI 1x", "CER: CLI scaled"])
    row(Array(repeating: "---", count: 10))
    var total = (Score(), Score(), Score())
    for item in rows {
        let truth = try String(contentsOf: item.transcription, encoding: .utf8)
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let strokes = try readStrokes(item.pageFile)
        var page = Page(id: PageID(rawValue: "realpage0001"), size: PageSize(width: Float(item.maxX - item.minX), height: Float(item.maxY - item.minY)))
        for (index, s) in strokes.enumerated() {
            let points = s.points.compactMap { p -> InkPoint? in
                guard p.count >= 2 else { return nil }
                let x = p[0] - item.minX, y = p[1] - item.minY
                guard x >= -50, y >= -50, x <= item.maxX - item.minX + 50, y <= item.maxY - item.minY + 50 else { return nil }
                return InkPoint(x: Float(x), y: Float(y), pressure: Float(p.count > 2 ? min(1, max(0, p[2])) : 0.5))
            }
            guard !points.isEmpty else { continue }
            page.strokes.append(Stroke(id: StrokeID(UInt64(index + 1)), tool: tool(s.tool), width: Float(max(1, s.width)),
                                       startTime: Double(index) * 500, points: points))
        }
        if let dumpRoot {
            realOptions.debugImageFolder = dumpRoot + "/" + item.transcription.deletingPathExtension().lastPathComponent
            try FileManager.default.createDirectory(atPath: realOptions.debugImageFolder!, withIntermediateDirectories: true)
        }
        let result = try TesseractRecognizer(options: realOptions).recognize(page)
        var a = Score(), c = Score(), d = Score()
        a.add(truthLines: truth, truthTags: [], text: result.text, tags: [])
        let name = item.transcription.deletingPathExtension().lastPathComponent
        for (imageMaker, suffix) in [(imager, ""), (scaledImager, "-scaled")] {
            let image = folder.appendingPathComponent(name + suffix + ".png").path
            var text = ""
            if !page.strokes.isEmpty {
                try imageMaker.writeImage(of: page, to: image)
                text = try cli.read(image).text
            }
            if suffix.isEmpty { c.add(truthLines: truth, truthTags: [], text: text, tags: []) } else {
                d.add(truthLines: truth, truthTags: [], text: text, tags: [])
            }
        }
        total = (total.0 + a, total.1 + c, total.2 + d)
        row([item.transcription.lastPathComponent, "\(a.truthWords)", percent(a.bagRecall), percent(c.bagRecall), percent(d.bagRecall),
             percent(a.wordAccuracy), percent(c.wordAccuracy), percent(a.characterErrorRate), percent(c.characterErrorRate),
             percent(d.characterErrorRate)])
        if verbose {
            say("    ours: " + result.words.map { "\($0.text)(\(Int($0.confidence * 100)))" }.joined(separator: " "))
        }
    }
    row(["**all**", "\(total.0.truthWords)", percent(total.0.bagRecall), percent(total.1.bagRecall), percent(total.2.bagRecall),
         percent(total.0.wordAccuracy), percent(total.1.wordAccuracy), percent(total.0.characterErrorRate),
         percent(total.1.characterErrorRate), percent(total.2.characterErrorRate)])
}
