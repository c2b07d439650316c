import Foundation
import InkCore
import InkIndex
import InkInterchange
import InkRecognize
import InkStore
import InkwellKit

/// One transcribed page: what a person reads on it, the page file, and the region read in the file's
/// own units (reMarkable: x centred on 0; Rnote: document units).
private struct Transcribed {
    var name: String
    var lines: [String]
    var pageFile: URL
    var region: Rect
}

/// Rows of the transcriptions README table: `| x-p1.txt | rm/… (remark) | −702, 0 – 702, 1872 (remark) | n |`.
private func transcribed(in corpus: URL) throws -> [Transcribed] {
    let folder = corpus.appendingPathComponent("transcriptions")
    let readme = try String(contentsOf: folder.appendingPathComponent("README.md"), encoding: .utf8)
    var rows: [Transcribed] = []
    for line in readme.split(separator: "\n") where line.hasPrefix("|") && line.contains(".txt") {
        let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        guard cells.count >= 3, let file = cells[1].split(separator: " ").first else { continue }
        let numbers = cells[2].prefix { $0 != "(" }.replacingOccurrences(of: "\u{2212}", with: "-")
            .split(whereSeparator: { $0 == "," || $0 == "\u{2013}" || $0 == " " })
            .compactMap { Double($0) }
        guard numbers.count == 4 else { continue }
        let text = try String(contentsOf: folder.appendingPathComponent(cells[0]), encoding: .utf8)
        rows.append(Transcribed(name: URL(fileURLWithPath: cells[0]).deletingPathExtension().lastPathComponent,
                                lines: text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty },
                                pageFile: corpus.appendingPathComponent(String(file)),
                                region: Rect(minX: numbers[0], minY: numbers[1], maxX: numbers[2], maxY: numbers[3])))
    }
    return rows
}

/// Imports `file` into `library` as `inkwell import` does, in a note titled `title`; returns the note,
/// its first page and the file's format.
private func importFirstPage(_ file: URL, title: String, into library: Library) throws -> (note: StoredNote, page: Page, format: String) {
    var importer = Importer(library: library)
    importer.title = title
    let report = importer.run([file], replayer: NoteReplayer(), keepGoing: false)
    guard let imported = report.imported.first, let id = imported.notes.first?.id else {
        throw StoreError.invalid("\(file.path) did not import: \(report.failures.joined(separator: "; "))")
    }
    let stored = try library.note(matching: id.rawValue)
    guard let page = try library.pages(of: stored).first else { throw StoreError.invalid("\(file.path) imported without a page") }
    return (stored, page, imported.format)
}

/// A region given in a file's own units, in the page coordinates its importer gives: reMarkable x
/// moves by half the page width (``RemarkableDecoder/xOffset``); Rnote keeps its document units (its
/// importer moves the page's corner only for ink above or left of the origin, which the check shows).
private func importedRegion(_ region: Rect, format: String) -> Rect {
    let dx = format == RecordingFormat.remarkable.rawValue ? Double(RemarkableDecoder.xOffset) : 0
    return Rect(minX: region.minX + dx, minY: region.minY, maxX: region.maxX + dx, maxY: region.maxY)
}

/// How a page's ink sits against the region read: the ink's bounds, the share of its points inside,
/// the share in strokes lying wholly far outside, and how many of those were left out.
private struct Placement {
    var ink: Rect
    var region: Rect
    var inside: Double
    var farOutside: Double
    var dropped: Int

    /// The import and the transcription disagree on where the ink is.
    var misplaced: Bool { inside < 0.5 || farOutside > Placement.strays }
    /// The largest share of the ink that may lie far outside and be left out as ink nobody read.
    static let strays = 0.1
}

/// `page` without its strokes lying wholly more than a tenth of the region's size outside `region`
/// (ink the transcription did not read), and how the ink sits against the region. When more than
/// ``Placement/strays`` of the ink is that far out, the import and the region disagree: the page is
/// kept whole, as `inkwell index` would read it.
private func clipped(_ page: Page, to region: Rect) -> (page: Page, placement: Placement) {
    let margin = 0.1 * min(region.width, region.height)
    let grown = Rect(minX: region.minX - margin, minY: region.minY - margin, maxX: region.maxX + margin, maxY: region.maxY + margin)
    let points = page.strokes.flatMap(\.points)
    let share = { (count: Int) in points.isEmpty ? 0 : Double(count) / Double(points.count) }
    let inside = points.filter {
        Double($0.x) >= region.minX && Double($0.x) <= region.maxX && Double($0.y) >= region.minY && Double($0.y) <= region.maxY
    }.count
    let far = page.strokes.filter { !$0.bounds.intersects(grown) }
    var placement = Placement(ink: page.strokes.reduce(Rect.null) { $0.union($1.bounds) }, region: region,
                              inside: points.isEmpty ? 1 : share(inside), farOutside: share(far.reduce(0) { $0 + $1.points.count }),
                              dropped: 0)
    guard !far.isEmpty, placement.farOutside <= Placement.strays else { return (page, placement) }
    var kept = page
    kept.strokes.removeAll { !$0.bounds.intersects(grown) }
    placement.dropped = far.count
    return (kept, placement)
}

/// One imported, transcribed page as the readers get it.
private struct RealPage {
    var truth: Transcribed
    var note: StoredNote
    var page: Page
    var placement: Placement
}

/// What one reader made of one page (or of all, summed).
private struct Outcome {
    var score = Score()
    /// Distinct transcribed words of 3+ letters searched for, and those whose search returned the page.
    var searched = 0
    var found = 0
    /// Pages those searches returned, and those whose transcription holds the word searched (``holds(_:truth:)``).
    var returned = 0
    var relevant = 0
    var cpu = 0.0

    var searchRecall: Double { searched == 0 ? 0 : Double(found) / Double(searched) }
    var searchPrecision: Double { returned == 0 ? 1 : Double(relevant) / Double(returned) }

    static func + (a: Outcome, b: Outcome) -> Outcome {
        Outcome(score: a.score + b.score, searched: a.searched + b.searched, found: a.found + b.found,
                returned: a.returned + b.returned, relevant: a.relevant + b.relevant, cpu: a.cpu + b.cpu)
    }
}

/// Distinct words of 3+ letters in `lines`, as someone would search for them: case folded, punctuation stripped.
private func searchWords(_ lines: [String]) -> [String] {
    var words: [String] = []
    for word in lines.flatMap(Score.words) {
        let bare = word.hasPrefix("#") ? String(word.dropFirst()) : word
        if bare.filter(\.isLetter).count >= 3, !words.contains(bare) { words.append(bare) }
    }
    return words
}

/// The `tesseract` CLI's text as a page's recognition: one word per space-separated piece, its line kept.
private func recognition(ofCLIText text: String) -> PageRecognition {
    let lines = text.split(separator: "\n").filter { !$0.allSatisfy(\.isWhitespace) }
    let words = lines.enumerated().flatMap { number, line in
        line.split(whereSeparator: \.isWhitespace).map {
            RecognizedWord(text: String($0), box: Rect(minX: 0, minY: 0, maxX: 0, maxY: 0), confidence: 1, line: number)
        }
    }
    return PageRecognition(words: words, hashtags: hashtagsInText(text).compactMap { Tag($0) })
}

/// Reads the transcribed pages of the corpus (`--corpus`, `INKWELL_CORPUS`, or `../shared/corpus` beside
/// the repository), imported with Inkwell's importers, with the recogniser at each of `qualities` with each
/// of `chosen` readers (Tesseract's renders, the neural line reader, both voting; the neural reading worth
/// `neuralVotes` renders, drawn at `neuralStretches` and spelled within `neuralSpelling` a letter, rare words within `rareSpelling`, to the page's words within `pageSpelling`, when given) and with the `tesseract` CLI; scores the text and searches each reader's own index for the written words.
/// INKWELL_REAL_DUMP=folder keeps our line images.
func runReal(corpus explicit: String?, qualities: [RecognitionOptions.Quality], readers chosen: [RecognitionOptions.Reader],
             neuralVotes: Double?, neuralStretches: [Double]?, neuralSpelling: Double?, rareSpelling: Double?, pageSpelling: Double?, scratch: URL, verbose: Bool) throws {
    let candidates = [explicit, ProcessInfo.processInfo.environment["INKWELL_CORPUS"],
                      sourceRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus").path].compactMap { $0 }
    guard let corpusPath = candidates.first(where: {
        FileManager.default.fileExists(atPath: $0 + "/transcriptions/README.md")
    }) else {
        say("skipped: no corpus with transcriptions/README.md (looked in \(candidates.joined(separator: ", ")))")
        return
    }
    guard let cliPath = TesseractCLI.find() else { fatalError("the tesseract command is not installed") }
    let cli = TesseractCLI(executable: cliPath, arguments: [])
    let dumpRoot = ProcessInfo.processInfo.environment["INKWELL_REAL_DUMP"]
    let folder = scratch.appendingPathComponent("real")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)

    // One note per transcribed page in a throwaway library, titled by number so that no searched word
    // is in a title.
    let library = try Library.create(at: folder.appendingPathComponent("library"))
    var pages: [RealPage] = []
    for (number, truth) in try transcribed(in: URL(fileURLWithPath: corpusPath)).enumerated() {
        let imported = try importFirstPage(truth.pageFile, title: String(format: "%02d", number + 1), into: library)
        let (page, placement) = clipped(imported.page, to: importedRegion(truth.region, format: imported.format))
        pages.append(RealPage(truth: truth, note: imported.note, page: page, placement: placement))
    }

    // Each reader records its text in its own index, then every written word is searched for.
    var readers: [(name: String, outcomes: [Outcome], texts: [String], missed: [[String]], strays: [[String]])] = []
    var engineStarts: [String] = []
    func read(_ name: String, _ recognize: (RealPage) throws -> (PageRecognition, text: String, cpu: Double)) throws {
        let index = try SearchIndex(url: folder.appendingPathComponent("index-\(readers.count).sqlite"))
        var outcomes: [Outcome] = [], texts: [String] = [], missed: [[String]] = [], strays: [[String]] = []
        for page in pages {
            let (recognition, text, cpu) = try recognize(page)
            try index.record([(note: page.note, pages: [(page: page.page, recognition: recognition)])], in: library)
            var outcome = Outcome(cpu: cpu)
            outcome.score.add(truthLines: page.truth.lines, truthTags: [], text: text, tags: [])
            outcomes.append(outcome)
            texts.append(text)
        }
        for (i, page) in pages.enumerated() {
            let words = searchWords(page.truth.lines)
            outcomes[i].searched = words.count
            var wrongPages: [String] = []
            // Found when a hit is the page's note with its page 1 among the matching pages; every page
            // returned counts for precision (each note holds one transcribed page).
            let found = try words.filter { word in
                let hits = try index.search(SearchQuery(text: word))
                let returned = pages.filter { other in hits.contains { $0.note == other.note.note.id && $0.pages.contains(1) } }
                outcomes[i].returned += returned.count
                let wrong = returned.filter { !holds(word, truth: $0.truth.lines) }
                outcomes[i].relevant += returned.count - wrong.count
                wrongPages += wrong.map { "\(word) → \($0.truth.name)" }
                return returned.contains { $0.note.note.id == page.note.note.id }
            }
            outcomes[i].found = found.count
            missed.append(words.filter { !found.contains($0) })
            strays.append(wrongPages)
        }
        readers.append((name, outcomes, texts, missed, strays))
    }
    // Each quality with each reader as shipped (Tesseract's rows keep their earlier names); Tesseract's
    // `best` also without spelling from letter choices, to show what that adds.
    var variants: [(name: String, folder: String, options: RecognitionOptions)] = []
    for quality in qualities {
        for reader in chosen {
            var options = RecognitionOptions(quality: quality)
            options.reader = reader
            if let neuralVotes { options.neuralVotes = neuralVotes }
            if let neuralStretches, !neuralStretches.isEmpty { options.neuralStretches = neuralStretches }
            if let neuralSpelling { options.neuralSpellingAllowance = neuralSpelling }
            if let rareSpelling { options.rareSpellingAllowance = rareSpelling }
            if let pageSpelling { options.pageSpellingBonus = pageSpelling }
            let suffix = reader == .tesseract ? "" : ", \(reader.rawValue)"
            variants.append(("ours, \(quality.rawValue)\(suffix)", quality.rawValue + suffix.replacingOccurrences(of: ", ", with: "-"), options))
            if quality == .best, reader == .tesseract {
                options.spellFromChoices = false
                variants.append(("ours, best, no spelling from letter choices", "best-unspelled", options))
            }
        }
    }
    for variant in variants {
        let begin = wallSeconds()
        let shared = try TesseractRecognizer(options: variant.options)
        if let problem = shared.neuralProblem { say("\(variant.name): the neural reader is unavailable, Tesseract reads alone: \(problem)") }
        engineStarts.append(variant.folder + String(format: " %.2f s", wallSeconds() - begin))
        try read(variant.name) { page in
            var recognizer = shared
            if let dumpRoot {
                var options = variant.options
                options.debugImageFolder = "\(dumpRoot)/\(variant.folder)/\(page.truth.name)"
                try FileManager.default.createDirectory(atPath: options.debugImageFolder!, withIntermediateDirectories: true)
                recognizer = try TesseractRecognizer(options: options)
            }
            let start = cpuSeconds()
            let recognition = try recognizer.recognize(page.page)
            return (recognition, recognition.text, cpuSeconds() - start)
        }
    }
    // A library reads its pages again with the words it has read surely on two pages or more in the
    // lexicon (names, jargon), as `inkwell index` does once those pages are indexed: `best` once more,
    // the lexicon taken from the index the first `best` pass wrote.
    if let first = readers.firstIndex(where: { $0.name == "ours, best" }) {
        let index = try SearchIndex(url: folder.appendingPathComponent("index-\(first).sqlite"))
        var tesseractBest = RecognitionOptions(quality: .best)
        tesseractBest.reader = .tesseract
        let again = try TesseractRecognizer(options: tesseractBest,
                                            lexicon: try Workspace.lexicon(of: library, index: index))
        say("read surely on two pages or more, added to the lexicon for the second pass: \(try index.recognizedVocabulary().sorted().joined(separator: ", "))")
        try read("ours, best, read again with the library's surely read words") { page in
            let start = cpuSeconds()
            let recognition = try again.recognize(page.page)
            return (recognition, recognition.text, cpuSeconds() - start)
        }
    }
    // The CLI on the page drawn at 1x (reMarkable and Rnote units as pixels), one process per page as a user runs it.
    var imageOptions = RecognitionOptions()
    imageOptions.textHeight = nil
    imageOptions.reader = .tesseract
    let imager = try TesseractRecognizer(options: imageOptions)
    try read("tesseract CLI") { page in
        guard !page.page.strokes.isEmpty else { return (recognition(ofCLIText: ""), "", 0) }
        let image = folder.appendingPathComponent(page.truth.name + ".png").path
        try imager.writeImage(of: page.page, to: image)
        let start = cpuSeconds(children: true)
        let text = try cli.read(image).text
        return (recognition(ofCLIText: text), text, cpuSeconds(children: true) - start)
    }

    say("Real pages of \(corpusPath)/transcriptions: each file imported by Inkwell (`inkwell import`), its first page read;")
    say("no known tags. Search recall: distinct written words of 3+ letters whose search (`inkwell search WORD`) returns the page,")
    say("each reader's text recorded in an index of its own over one library. Search precision: of the pages those searches")
    say("return, the share whose transcription holds the word (itself, a longer word it begins, or an inflection).\n")
    row(["page", "words", "search words", "reader", "words in order", "bag of words", "CER", "search recall", "search precision", "CPU s/page"])
    row(["---", "---:", "---:", "---", "---:", "---:", "---:", "---:", "---:", "---:"])
    func cells(_ o: Outcome, pages: Int) -> [String] {
        [percent(o.score.wordAccuracy), percent(o.score.bagRecall), percent(o.score.characterErrorRate),
         "\(percent(o.searchRecall)) (\(o.found)/\(o.searched))", "\(percent(o.searchPrecision)) (\(o.relevant)/\(o.returned))",
         String(format: "%.2f", o.cpu / Double(max(1, pages)))]
    }
    for (i, page) in pages.enumerated() {
        for (r, reader) in readers.enumerated() {
            let o = reader.outcomes[i]
            let lead = r == 0 ? [page.truth.name, "\(o.score.truthWords)", "\(o.searched)"] : ["", "", ""]
            row(lead + [reader.name] + cells(o, pages: 1))
        }
    }
    for (r, reader) in readers.enumerated() {
        let all = reader.outcomes.reduce(Outcome(), +)
        let lead = r == 0 ? ["**all**", "\(all.score.truthWords)", "\(all.searched)"] : ["", "", ""]
        row(lead + ["**\(reader.name)**"] + cells(all, pages: pages.count))
    }
    say("")
    say("CPU: ours, recognising the page with the engine loaded (engine start, not counted: \(engineStarts.joined(separator: ", ")));")
    say("the CLI, its process (model load included) reading the page drawn at 1x.")
    say("\nInk against the region read (README, moved into the importer's coordinates):")
    for page in pages {
        let p = page.placement
        say("- \(page.truth.name): " + String(format: "ink x %.0f…%.0f, y %.0f…%.0f; region x %.0f…%.0f, y %.0f…%.0f; points inside %.0f%%, far outside %.0f%%; strokes left out %d",
                                              p.ink.minX, p.ink.maxX, p.ink.minY, p.ink.maxY, p.region.minX, p.region.maxX, p.region.minY,
                                              p.region.maxY, p.inside * 100, p.farOutside * 100, p.dropped)
            + (p.misplaced ? " — MISPLACED: the import and the region disagree" : ""))
    }
    if verbose {
        for (i, page) in pages.enumerated() {
            say("\n== \(page.truth.name)\n  truth: \(page.truth.lines.joined(separator: " / "))")
            for reader in readers {
                say("  \(reader.name): \(Score.flat(reader.texts[i]))")
                if !reader.missed[i].isEmpty { say("    search missed: \(reader.missed[i].joined(separator: ", "))") }
                if !reader.strays[i].isEmpty { say("    search returned pages without the word: \(reader.strays[i].joined(separator: ", "))") }
            }
        }
    }
}
