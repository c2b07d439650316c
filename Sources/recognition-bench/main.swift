// Release-build benchmark of handwriting recognition (scripts/recognition-bench.sh).
//
//   recognition-bench accuracy [--pages N]   generated pages per style × jitter: ours vs the tesseract CLI
//   recognition-bench sweep [--pages N]      every measured choice (scale, pen, psm, layout…) on a few cells
//   recognition-bench speed [--pages N]      pages/s per core, ours vs the CLI, and with 2 threads
//   recognition-bench real [--quality Q] [--reader R]   the transcribed pages of ../shared/corpus, imported, read and
//                                            searched (ours at --quality best|fast, both when absent, with --reader
//                                            tesseract|neural|both, all three when absent; and the CLI)
//   recognition-bench show STYLE JITTER [N]  recognised text next to the truth, page by page (--dump DIR, --only NAME)
//   recognition-bench tags STYLE JITTER      every hashtag missed or invented, with its line
//   recognition-bench calibrate              how every hashtag word was decided, and whether rightly
//
// Options: --pages N (per cell), --seed S, --out DIR (keep images), --corpus DIR, --quality best|fast and
// --reader tesseract|neural|both, --neural-votes V (real: what the neural reading of a word counts as) and
// --neural-stretches 1,1.6 (real: how many times each neural image of a line is widened, one reading each).
// --neural-spelling 0.5 (real: how much less likely a letter, natural log, a lexicon word spelled from a neural reading may be).
// --rare-spelling 1.0 (real: the same for a common word spelled from a neural reading of a rare one).
// --page-spelling 1.0 (real: how much less a letter a word read surely on the page's other lines costs when a neural reading is spelled).
import Foundation
import InkCore
import InkRecognize
import InkSamples

var arguments = Array(CommandLine.arguments.dropFirst())
@MainActor func option(_ name: String) -> String? {
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
    let value = arguments[i + 1]
    arguments.removeSubrange(i...i + 1)
    return value
}

let pageCount = Int(option("--pages") ?? "") ?? 20
let outDirectory = option("--out")
let corpusOption = option("--corpus")
let seedOption = UInt64(option("--seed") ?? "")
let dumpOption = option("--dump")
let onlyOption = option("--only")
let qualityOption = option("--quality")
let readerOption = option("--reader")
let neuralVotesOption = Double(option("--neural-votes") ?? "")
let neuralStretchesOption = option("--neural-stretches").map { $0.split(separator: ",").compactMap { Double($0) } }
let neuralSpellingOption = Double(option("--neural-spelling") ?? "")
let rareSpellingOption = Double(option("--rare-spelling") ?? "")
let pageSpellingOption = Double(option("--page-spelling") ?? "")
let section = arguments.first ?? "accuracy"

let sourceRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let evalSet = EvalSet()
let known = EvalSet.knownTags

func cpuSeconds(children: Bool = false) -> Double {
    var usage = rusage()
    getrusage(children ? RUSAGE_CHILDREN.rawValue : RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}

func wallSeconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

/// Scores `recognizer` on `pages`; returns the score and CPU seconds spent.
func evaluate(_ recognizer: TesseractRecognizer, _ pages: [EvalPage]) throws -> (Score, Double) {
    var score = Score()
    let start = cpuSeconds()
    for page in pages {
        let result = try recognizer.recognize(page.page)
        score.add(truthLines: page.lines, truthTags: page.hashtags, text: result.text, tags: result.hashtags.map(\.name))
    }
    return (score, cpuSeconds() - start)
}

/// Scores the `tesseract` CLI on the pages drawn as PNGs by `imager`; returns the score, wall seconds.
func evaluateCLI(_ pages: [EvalPage], imager: TesseractRecognizer, cli: TesseractCLI, folder: URL) throws -> (Score, Double) {
    var score = Score()
    var seconds = 0.0
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for page in pages {
        let path = folder.appendingPathComponent(page.name + ".png").path
        if !FileManager.default.fileExists(atPath: path) { try imager.writeImage(of: page.page, to: path) }
        let (text, time) = try cli.read(path)
        seconds += time
        score.add(truthLines: page.lines, truthTags: page.hashtags, text: text, tags: hashtagsInText(text))
    }
    return (score, seconds)
}

func say(_ text: String) { FileHandle.standardOutput.write(Data((text + "\n").utf8)) }
func row(_ cells: [String]) { say("| " + cells.joined(separator: " | ") + " |") }

let scratch = URL(fileURLWithPath: outDirectory ?? NSTemporaryDirectory() + "recognition-bench-\(getpid())")
defer { if outDirectory == nil { try? FileManager.default.removeItem(at: scratch) } }

switch section {
case "show":
    let style = HandwritingStyle(rawValue: arguments.count > 1 ? arguments[1] : "print") ?? .print
    let jitter = JitterLevel(rawValue: arguments.count > 2 ? arguments[2] : "mild") ?? .mild
    let count = arguments.count > 3 ? Int(arguments[3]) ?? 3 : 3
    var showOptions = RecognitionOptions()
    showOptions.debugImageFolder = dumpOption
    let recognizer = try TesseractRecognizer(knownTags: known, options: showOptions)
    for page in try evalSet.pages(style: style, jitter: jitter, count: count, seed: seedOption ?? 1000)
    where onlyOption.map({ page.name.contains($0) }) ?? true {
        let analysis = try recognizer.read(page.page)
        say("== \(page.name): \(analysis.lines.count) lines (truth \(page.lines.count)), \(analysis.hashMarks.count) # marks, \(analysis.nonText.count) non-text strokes")
        say("truth tags: \(page.hashtags)  found: \(analysis.recognition.hashtags.map(\.name))")
        if arguments.contains("--lines") {
            for line in analysis.lines {
                let b = line.bounds
                say(String(format: "  line strokes %d…%d (%d) y %.0f–%.0f x %.0f–%.0f", line.strokes.first!, line.strokes.last!, line.strokes.count, b.minY, b.maxY, b.minX, b.maxX))
            }
        }
        if let range = ProcessInfo.processInfo.environment["BENCH_STROKES"]?.split(separator: "-").compactMap({ Int($0) }), range.count == 2 {
            for i in range[0]...range[1] {
                let b = page.page.strokes[i].bounds
                say(String(format: "  stroke %d: x %.1f–%.1f y %.1f–%.1f, %d points", i, b.minX, b.maxX, b.minY, b.maxY, page.page.strokes[i].points.count))
            }
        }
        let found = analysis.recognition.text.split(separator: "\n", omittingEmptySubsequences: false)
        for i in 0..<max(page.lines.count, found.count) {
            say("  T: \(i < page.lines.count ? page.lines[i] : "")")
            say("  R: \(i < found.count ? String(found[i]) : "")")
        }
        if let outDirectory {
            try FileManager.default.createDirectory(atPath: outDirectory, withIntermediateDirectories: true)
            try recognizer.writeImage(of: page.page, to: outDirectory + "/" + page.name + ".png")
        }
    }

case "tags":
    // Every hashtag missed or invented, with the words recognised around it.
    let style = HandwritingStyle(rawValue: arguments.count > 1 ? arguments[1] : "script") ?? .script
    let jitter = JitterLevel(rawValue: arguments.count > 2 ? arguments[2] : "mild") ?? .mild
    let recognizer = try TesseractRecognizer(knownTags: known)
    for page in try evalSet.pages(style: style, jitter: jitter, count: pageCount, seed: seedOption ?? 5000) {
        let result = try recognizer.recognize(page.page)
        let found = result.hashtags.map(\.name)
        let missed = page.hashtags.filter { !found.contains($0) }, invented = found.filter { !page.hashtags.contains($0) }
        guard !missed.isEmpty || !invented.isEmpty else { continue }
        let tagWords = result.words.filter { $0.text.hasPrefix("#") }.map(\.text)
        say("\(page.name): missed \(missed) invented \(invented); # words: \(tagWords)")
        for line in page.lines where missed.contains(where: { line.contains("#" + $0) }) {
            let index = page.lines.firstIndex(of: line)!
            say("    T: \(line)")
            let lines = result.text.split(separator: "\n")
            if index < lines.count { say("    R: \(lines[index])") }
        }
    }

case "calibrate":
    // How every hashtag word was decided, and whether the tag is right: distance per letter to the
    // known tag taken (or "unknown"), Tesseract's confidence, reported or not.
    let recognizer = try TesseractRecognizer(knownTags: arguments.contains("--no-known-tags") ? [] : known)
    var counts: [String: (right: Int, wrong: Int)] = [:]
    for style in HandwritingStyle.allCases {
        for jitter in JitterLevel.allCases {
            for page in try evalSet.pages(style: style, jitter: jitter, count: pageCount, seed: seedOption ?? 3000) {
                for reading in try recognizer.read(page.page).hashtagReadings {
                    let right = page.hashtags.contains(reading.tag.name)
                    let distance = reading.distancePerLetter.map { String(format: "%.3f", $0) } ?? "unknown"
                    say("\(style) \(jitter) \(right ? "right" : "wrong") \(distance) \(String(format: "%.2f", reading.confidence)) \(reading.reported ? "reported" : "dropped") #\(reading.tag.name) (read \(reading.read))")
                    let bucket = reading.distancePerLetter == nil ? "unknown" : reading.distancePerLetter! <= 0.15 ? "close" : "loose"
                    let key = bucket + (reading.reported ? "" : ", dropped")
                    var count = counts[key] ?? (0, 0)
                    if right { count.right += 1 } else { count.wrong += 1 }
                    counts[key] = count
                }
            }
        }
    }
    for (key, count) in counts.sorted(by: { $0.key < $1.key }) { say("\(key): \(count.right) right, \(count.wrong) wrong") }

case "accuracy":
    guard let cliPath = TesseractCLI.find() else { fatalError("the tesseract command is not installed") }
    let cli = TesseractCLI(executable: cliPath, arguments: [])
    let ours = try TesseractRecognizer(knownTags: known)
    let oursUnknown = try TesseractRecognizer()
    var pageOptions = RecognitionOptions()
    pageOptions.textHeight = nil
    pageOptions.scale = 1
    let imager = try TesseractRecognizer(options: pageOptions)
    say("Generated pages: \(pageCount) per cell, 8 sentences and 3 hashtags each; known tags: the \(known.count) corpus tags.\n")
    row(["style", "jitter", "words: ours", "words: CLI", "CER: ours", "CER: CLI", "tags found: ours", "false tags: ours",
         "tags found: ours, no known tags", "false tags: ours, no known tags", "tags found: CLI", "false tags: CLI"])
    row(Array(repeating: "---", count: 12))
    func found(_ s: Score) -> String { "\(percent(s.tagRecall)) (\(s.foundTags)/\(s.truthTags))" }
    func invented(_ s: Score) -> String { "\(percent(s.falseTagRate)) (\(s.falseTags))" }
    for style in HandwritingStyle.allCases {
        for jitter in JitterLevel.allCases {
            let pages = try evalSet.pages(style: style, jitter: jitter, count: pageCount)
            let (a, _) = try evaluate(ours, pages)
            let (u, _) = try evaluate(oursUnknown, pages)
            let (c, _) = try evaluateCLI(pages, imager: imager, cli: cli, folder: scratch.appendingPathComponent("cli"))
            func words(_ s: Score) -> String { "\(percent(s.wordAccuracy)) (\(s.matchedWords)/\(s.truthWords))" }
            row(["\(style)", "\(jitter)", words(a), words(c), percent(a.characterErrorRate),
                 percent(c.characterErrorRate), found(a), invented(a), found(u), invented(u), found(c), invented(c)])
        }
    }

case "sweep":
    try runSweep(pageCount: pageCount)

case "speed":
    try runSpeed(pageCount: pageCount, scratch: scratch)

case "real":
    try runReal(corpus: corpusOption, qualities: chosen(RecognitionOptions.Quality.self, by: qualityOption, named: "--quality"),
                readers: chosen(RecognitionOptions.Reader.self, by: readerOption, named: "--reader"), neuralVotes: neuralVotesOption,
                neuralStretches: neuralStretchesOption, neuralSpelling: neuralSpellingOption, rareSpelling: rareSpellingOption, pageSpelling: pageSpellingOption, scratch: scratch, verbose: arguments.contains("--verbose"))

default:
    FileHandle.standardError.write(Data("unknown section \(section)\n".utf8))
    exit(2)
}

/// Every case of `T`, or the one `option` names; a name that is none of them ends the bench with exit 2.
func chosen<T: CaseIterable & RawRepresentable<String>>(_: T.Type, by option: String?, named name: String) -> [T] {
    guard let option else { return Array(T.allCases) }
    guard let value = T(rawValue: option) else {
        let names = T.allCases.map(\.rawValue).joined(separator: ", ")
        FileHandle.standardError.write(Data("\(name) is one of \(names), not \(option)\n".utf8))
        exit(2)
    }
    return [value]
}
