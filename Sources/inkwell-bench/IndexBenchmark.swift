// The indexing job and search benchmarks (`inkwell-bench index`, `inkwell-bench search`);
// docs/recognition.md ("Indexing and search") records the figures.
import Foundation
import InkCore
import InkFont
import InkIndex
import InkIndexPostgres
import InkRecognize
import InkSamples
import InkStore
import InkwellKit

/// The system's load averages (1, 5, 15 minutes), to say how busy the machine was.
func loadAverages() -> String {
    var loads = [Double](repeating: 0, count: 3)
    return getloadavg(&loads, 3) == 3 ? String(format: "%.2f %.2f %.2f", loads[0], loads[1], loads[2]) : "unknown"
}

/// A scratch library in the temporary folder, removed by `body`'s end. With INKWELL_BENCH_KEEP=DIR
/// it is DIR/NAME and kept (to try queries on the index with `sqlite3`), and a library already
/// there is used again.
func withScratchLibrary<T>(_ name: String, _ body: (Library) throws -> T) throws -> T {
    let keep = ProcessInfo.processInfo.environment["INKWELL_BENCH_KEEP"].map { URL(fileURLWithPath: $0).appendingPathComponent(name) }
    if let keep, let library = try? Library(opening: keep) { return try body(library) }
    let folder = keep ?? FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(getpid())")
    try? FileManager.default.removeItem(at: folder)
    defer { if keep == nil { try? FileManager.default.removeItem(at: folder) } }
    return try body(try Library.create(at: folder))
}

/// `index`: the OCR indexing job on `count` generated pages (half print, half joined script, mild
/// jitter, 8 corpus sentences and 3 hashtags a page, one page per note), through the Indexer API with
/// Tesseract: a first run, a second on the unchanged library, and --jobs 1 against --jobs 2.
@MainActor func indexBenchmark(pages count: Int) throws {
    try withScratchLibrary("inkwell-index-bench") { library in
        for style in [HandwritingStyle.print, .script] {
            let synthesizer = HandwritingSynthesizer(font: style.font)
            var request = SampleRequest()
            request.style = style
            request.jitter = .mild
            request.notes = count / 2
            request.sentencesPerPage = 8
            request.hashtagsPerPage = 3
            request.seed = 9_000
            for (_, spec) in request.specs() {
                let written = synthesizer.write(spec)
                let note = try library.createNote(title: spec.title, in: spec.notebook)
                // Fresh page ids, as the editor gives: the generator's follow the seed, the same for both styles.
                try library.save(written.inkPages.map { PageDelta(pageID: PageID.random(), size: $0.size, template: $0.template, isNew: true, addedStrokes: $0.strokes) },
                                 to: note.note.id)
            }
        }
        let index = try SearchIndex(library: library)
        let known = Set(Corpus.topics.flatMap(\.hashtags).compactMap(InkCore.Tag.init))
        let indexer = Indexer(library: library, index: index) { try TesseractRecognizer(knownTags: known) }
        report("index: pages (print and script, mild jitter, 8 sentences and 3 hashtags a page)", "\(count)")
        report("index: load average before", loadAverages())

        let first = try indexer.run(jobs: 2)
        guard first.recognized == count && first.failed.isEmpty else {
            throw StoreError.invalid("the first run recognised \(first.recognized) of \(count) pages: \(first.failed)")
        }
        var seconds: [Double] = []
        for _ in 0..<5 {
            let again = try indexer.run(jobs: 2)
            guard again.recognized == 0 && again.unchanged == count else {
                throw StoreError.invalid("the second run recognised \(again.recognized) pages, \(again.unchanged) unchanged of \(count)")
            }
            seconds.append(again.seconds)
        }
        let second = median(seconds)
        report("index: first run, --jobs 2", String(format: "%.2f s (%.2f pages/s)", first.seconds, Double(count) / first.seconds))
        report("index: second run on the unchanged library (median of 5)",
               String(format: "%.1f ms = %.2f%% of the first (%.2f ms a page)", second * 1000, 100 * second / first.seconds,
                      second * 1000 / Double(count)))

        try index.clear()
        let one = try indexer.run(jobs: 1)
        try index.clear()
        let two = try indexer.run(jobs: 2)
        report("index: from scratch, --jobs 1", String(format: "%.2f s (%.2f pages/s)", one.seconds, Double(count) / one.seconds))
        report("index: from scratch, --jobs 2", String(format: "%.2f s (%.2f pages/s)", two.seconds, Double(count) / two.seconds))
        report("index: speed-up of --jobs 2 over --jobs 1", String(format: "%.2f×", one.seconds / two.seconds))
        report("index: load average after", loadAverages())
    }
}

/// Recognised text as the index would get it from handwriting: corpus sentences with some words
/// misread (a letter dropped, doubled or changed), and a few hashtags.
struct RecognizedTextMaker {
    var rng: SeededGenerator
    let sentences: [String] = Corpus.topics.flatMap(\.sentences)
    let letters = Array("abcdefghijklmnopqrstuvwxyz")

    /// A misreading of `word`: one letter dropped, doubled or replaced.
    mutating func misread(_ word: String) -> String {
        var characters = Array(word)
        guard characters.count > 2 else { return word }
        let at = 1 + rng.index(below: characters.count - 1)
        switch rng.index(below: 3) {
        case 0: characters.remove(at: at)
        case 1: characters.insert(characters[at], at: at)
        default: characters[at] = letters[rng.index(below: letters.count)]
        }
        return String(characters)
    }

    /// One page: `lines` sentences (words misread with probability `noise`) and `hashtags` hashtags.
    mutating func page(topic: Topic, lines: Int, hashtags: [String], noise: Double) -> [[String]] {
        var text: [[String]] = []
        for line in 0..<lines {
            let sentence = rng.unit() < 0.7 ? topic.sentences[rng.index(below: topic.sentences.count)]
                                             : sentences[rng.index(below: sentences.count)]
            var words = sentence.split(separator: " ").map(String.init).map { rng.unit() < noise ? misread($0) : $0 }
            if line < hashtags.count { words.insert("#" + hashtags[line], at: rng.index(below: words.count + 1)) }
            text.append(words)
        }
        return text
    }
}

/// `search` (and `pg-search`, with `postgresURL`: on that empty database): `count` pages of
/// recognised text written straight into an index through `IndexBackend.record` (no OCR), then the
/// latency of realistic queries. Both backends get the same pages and the same queries.
@MainActor func searchBenchmark(pages count: Int, queries: Int, postgresURL: String? = nil) throws {
    let backend = postgresURL == nil ? "search" : "pg-search"
    try withScratchLibrary("inkwell-\(backend)-bench") { library in
        func open() throws -> any IndexBackend {
            if let postgresURL { return try PostgresIndex(url: postgresURL) }
            return try SearchIndex(library: library)
        }
        var writer: (any IndexBackend)? = try open()
        // Notes are index entries only (their page files are not written): one real note lends its
        // folder, the rest are copies with their own ids, titles, notebooks, tags and pages.
        let template = try library.createNote(title: "Template")
        var maker = RecognizedTextMaker(rng: SeededGenerator(seed: 42))
        let notebooks = (0..<25).flatMap { area in
            ["Area \(area)"] + (0..<9).map { "Area \(area)/Project \($0)" }
        }.map { try! NotebookPath($0) }
        var built = 0, notes = 0
        var batch: [(note: StoredNote, pages: [(page: Page, recognition: PageRecognition)])] = []
        let started = DispatchTime.now().uptimeNanoseconds
        let marker = library.root.appendingPathComponent("search-bench-pages")
        if postgresURL == nil, let kept = (try? String(contentsOf: marker, encoding: .utf8)).flatMap({ Int($0) }), kept >= count {
            built = kept
            report("search: index kept from an earlier run", "\(kept) pages")
        }
        while built < count {
            let topic = Corpus.topics[maker.rng.index(below: Corpus.topics.count)]
            let pageCount = min(count - built, 1 + maker.rng.index(below: 9))
            var stored = template
            stored.notebook = notebooks[maker.rng.index(below: notebooks.count)]
            var tags = Set<InkCore.Tag>([InkCore.Tag("project-\(maker.rng.index(below: 500))")!])
            var pages: [(page: Page, recognition: PageRecognition)] = []
            for _ in 0..<pageCount {
                let hashtags = (0..<3).map { _ in topic.hashtags[maker.rng.index(below: topic.hashtags.count)] }
                tags.formUnion(hashtags.compactMap(InkCore.Tag.init))
                let lines = maker.page(topic: topic, lines: 8, hashtags: hashtags, noise: 0.08)
                let words = lines.enumerated().flatMap { line, words in
                    words.enumerated().map { column, word in
                        RecognizedWord(text: word, box: Rect(minX: Double(column) * 120, minY: Double(line) * 80,
                                                             maxX: Double(column) * 120 + 100, maxY: Double(line) * 80 + 60),
                                       confidence: 0.8, line: line)
                    }
                }
                pages.append((Page(id: PageID.random()), PageRecognition(words: words, hashtags: hashtags.compactMap(InkCore.Tag.init))))
            }
            stored.note = Note(id: NoteID.random(), title: "\(topic.title) \(notes + 1)", created: Date(), tags: tags,
                               pages: pages.map(\.page.id))
            batch.append((stored, pages))
            built += pageCount
            notes += 1
            if batch.count == 500 || built == count {
                try writer!.record(batch, in: library)
                batch.removeAll()
            }
        }
        let buildSeconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        try String(built).write(to: marker, atomically: false, encoding: .utf8)
        // Closed (SQLite moves the write-ahead log into the database) and opened again, as the
        // `inkwell search` process that follows an `inkwell index` finds it.
        writer = nil
        let index = try open()
        let bytes = ["index.sqlite", "index.sqlite-wal"].reduce(0) { total, name in
            total + ((try? FileManager.default.attributesOfItem(atPath: library.root.appendingPathComponent(name).path)[.size] as? Int) ?? 0)
        }
        report("\(backend): index of \(count) pages, \(notes) notes, \(notebooks.count) notebooks (written through IndexBackend.record, no OCR)",
               String(format: "built in %.1f s", buildSeconds) + (postgresURL == nil ? String(format: "; %.0f MB on disk", Double(bytes) / 1e6) : ""))
        report("\(backend): load average", loadAverages())

        // Queries: words people look for (from the corpus), a misreading of one, a prefix, filters, and a word never written.
        var rng = SeededGenerator(seed: 7)
        let vocabulary = Array(Set(Corpus.topics.flatMap(\.sentences).flatMap { $0.lowercased().split { !$0.isLetter } }
            .map(String.init).filter { $0.count >= 5 })).sorted()
        func word() -> String { vocabulary[rng.index(below: vocabulary.count)] }
        let tags = Array(Set(Corpus.topics.flatMap(\.hashtags))).sorted()
        let kinds: [(String, () throws -> SearchQuery)] = [
            ("one word", { SearchQuery(text: word()) }),
            ("two words", { SearchQuery(text: word() + " " + word()) }),
            ("a prefix (first 4 letters)", { SearchQuery(text: String(word().prefix(4))) }),
            ("a misspelling (one letter changed)", {
                var misspelt = Array(word())
                misspelt[2] = misspelt[2] == "x" ? "y" : "x"
                return SearchQuery(text: String(misspelt))
            }),
            ("a word and --tag", { SearchQuery(text: word(), tags: [InkCore.Tag(tags[rng.index(below: tags.count)])!]) }),
            ("--tag alone", { SearchQuery(text: "", tags: [InkCore.Tag(tags[rng.index(below: tags.count)])!]) }),
            ("a word and --notebook", { SearchQuery(text: word(), notebook: notebooks[rng.index(below: notebooks.count)]) }),
            ("a word that is nowhere", { SearchQuery(text: "zeppelin" + String(rng.index(below: 1000))) }),
        ]
        for (name, make) in kinds {
            var wall: [Double] = [], cpu: [Double] = []
            var hits = 0
            for _ in 0..<queries {
                let query = try make()
                let start = DispatchTime.now().uptimeNanoseconds, startCPU = threadCPUTime()
                hits += try index.search(query).count
                cpu.append((threadCPUTime() - startCPU) * 1000)
                wall.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
            wall.sort()
            cpu.sort()
            func p(_ values: [Double], _ percent: Int) -> Double { values[min(values.count - 1, values.count * percent / 100)] }
            report("\(backend): \(name) (\(queries) queries)",
                   String(format: "p50 %.2f ms, p99 %.2f ms (CPU: p50 %.2f, p99 %.2f ms); %.1f notes found on average",
                          p(wall, 50), p(wall, 99), p(cpu, 50), p(cpu, 99), Double(hits) / Double(queries)))
        }
    }
}

/// CPU time of the calling thread, in seconds (unlike wall time, not inflated by other processes).
func threadCPUTime() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// A recogniser that reads every page as the same few words at once: what remains of the indexing
/// job is its own cost (scanning, reading pages, claiming, committing).
struct InstantRecognizer: PageRecognizer {
    func recognize(_ page: Page) throws -> PageRecognition {
        let words = ["quarterly", "budget", "review", "#planning"].enumerated().map { column, text in
            RecognizedWord(text: text, box: Rect(minX: Double(column) * 120, minY: 0, maxX: Double(column) * 120 + 100, maxY: 60),
                           confidence: 0.9, line: 0)
        }
        return PageRecognition(words: words, hashtags: [InkCore.Tag("planning")!])
    }
}

/// `pg-queue`: the indexing job's own cost per page, recognition aside (``InstantRecognizer``), on
/// `count` one-stroke pages: the SQLite job against the PostgreSQL queue at `postgresURL` (scan,
/// enqueue, claim, commit with the search rows), one thread each.
@MainActor func queueBenchmark(pages count: Int, postgresURL: String) throws {
    try withScratchLibrary("inkwell-queue-bench") { library in
        for start in stride(from: 0, to: count, by: 4) {
            let note = try library.createNote(title: "Queue \(start / 4 + 1)")
            try library.save((start..<min(count, start + 4)).map { index in
                PageDelta(pageID: PageID.random(), isNew: true, addedStrokes: [
                    Stroke(id: StrokeID(1), points: [InkPoint(x: Float(index % 500), y: 10), InkPoint(x: Float(index % 500) + 40, y: 30)])])
            }, to: note.note.id)
        }
        let backends: [(String, any IndexBackend)] = [("SQLite", try SearchIndex(library: library)), ("PostgreSQL", try PostgresIndex(url: postgresURL))]
        for (name, index) in backends {
            let indexer = Indexer(library: library, index: index) { InstantRecognizer() }
            let started = DispatchTime.now().uptimeNanoseconds
            let first = try indexer.run(jobs: 1)
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            guard first.recognized == count else { throw StoreError.invalid("\(name): \(first.recognized) of \(count) pages") }
            let again = DispatchTime.now().uptimeNanoseconds
            _ = try indexer.run(jobs: 1)
            let unchanged = Double(DispatchTime.now().uptimeNanoseconds - again) / 1e9
            report("pg-queue: \(name), job cost per page without recognition (\(count) pages, 1 thread)",
                                String(format: "%.2f ms a page recognised (%.0f pages/s); %.3f ms a page unchanged", seconds * 1000 / Double(count),
                                       Double(count) / seconds, unchanged * 1000 / Double(count)))
        }
    }
}
