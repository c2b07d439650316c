import Foundation
import InkCore
import InkRecognize
import InkSamples

/// Wall seconds for `threads` threads, each with its own recogniser (started inside the thread, not
/// timed), to read all `pages`.
func timeThreads(_ threads: Int, pages: [Page], known: Set<Tag>) throws -> Double {
    let next = Parallel.Counter(), failures = Locked<[String]>([])
    let ready = DispatchGroup(), done = DispatchGroup()
    let start = DispatchSemaphore(value: 0)
    for _ in 0..<threads {
        ready.enter()
        done.enter()
        let thread = Thread {
            defer { done.leave() }
            let recognizer: TesseractRecognizer
            do { recognizer = try TesseractRecognizer(knownTags: known) } catch {
                failures.withLock { $0.append("\(error)") }
                ready.leave()
                return
            }
            ready.leave()
            start.wait()
            while case let index = next.take(), index < pages.count {
                do { _ = try recognizer.recognize(pages[index]) } catch { failures.withLock { $0.append("\(error)") } }
            }
        }
        thread.stackSize = 8 << 20
        thread.start()
    }
    ready.wait()
    let begin = wallSeconds()
    for _ in 0..<threads { start.signal() }
    done.wait()
    let seconds = wallSeconds() - begin
    if let failure = failures.withLock(\.first) { throw RecognitionError.recognitionFailed(failure) }
    return seconds
}

func runSpeed(pageCount: Int, scratch: URL) throws {
    guard let cliPath = TesseractCLI.find() else { fatalError("the tesseract command is not installed") }
    let half = max(1, pageCount / 2)
    let pages = try evalSet.pages(style: .print, jitter: .mild, count: half, seed: 7000)
        + evalSet.pages(style: .script, jitter: .mild, count: half, seed: 7000)
    let inkPages = pages.map(\.page)

    // Engine start.
    var starts: [Double] = []
    for _ in 0..<3 {
        let begin = wallSeconds()
        _ = try TesseractRecognizer(knownTags: known)
        starts.append(wallSeconds() - begin)
    }

    // One thread: wall and CPU, at each quality (the fastest of two runs).
    func oneThread(_ quality: RecognitionOptions.Quality) throws -> (wall: Double, cpu: Double) {
        let recognizer = try TesseractRecognizer(knownTags: known, options: RecognitionOptions(quality: quality))
        _ = try recognizer.recognize(inkPages[0])  // warm up
        var fastest = (wall: Double.infinity, cpu: Double.infinity)
        for _ in 0..<2 {
            let wall0 = wallSeconds(), cpu0 = cpuSeconds()
            for page in inkPages { _ = try recognizer.recognize(page) }
            fastest = (min(fastest.wall, wallSeconds() - wall0), min(fastest.cpu, cpuSeconds() - cpu0))
        }
        return fastest
    }
    let best = try oneThread(.best), fast = try oneThread(.fast)
    let two = try (0..<2).map { _ in try timeThreads(2, pages: inkPages, known: known) }.min()!

    // The CLI on the same pages, drawn as PNGs at 1x, one process per page as a user runs it.
    var pageOptions = RecognitionOptions()
    pageOptions.textHeight = nil
    let imager = try TesseractRecognizer(options: pageOptions)
    let folder = scratch.appendingPathComponent("speed")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    var images: [String] = []
    for page in pages {
        let path = folder.appendingPathComponent(page.name + ".png").path
        try imager.writeImage(of: page.page, to: path)
        images.append(path)
    }
    let cli = TesseractCLI(executable: cliPath, arguments: [])
    var cliWall = 0.0
    let cliCPU0 = cpuSeconds(children: true)
    for image in images { cliWall += try cli.read(image).seconds }
    let cliCPU = cpuSeconds(children: true) - cliCPU0
    // The CLI's own floor: the same images with the model load excluded is not possible from the
    // command line, so also time one tesseract run on an empty 1×1 image (start-up and model load).
    let blank = folder.appendingPathComponent("blank.png").path
    var blankOptions = RecognitionOptions()
    blankOptions.textHeight = nil
    let dot = Page(id: PageID(rawValue: "blankpage001"), size: PageSize(width: 4, height: 4),
                   strokes: [Stroke(id: StrokeID(1), points: [InkPoint(x: 2, y: 2)])])
    try TesseractRecognizer(options: blankOptions).writeImage(of: dot, to: blank)
    let startup = try (0..<3).map { _ in try cli.read(blank).seconds }.min()!

    let n = Double(pages.count)
    say("Speed: \(pages.count) generated pages (half print, half script, mild jitter), release build, OMP_THREAD_LIMIT=1.\n")
    row(["", "pages/s", "s/page", "CPU s/page"])
    row(["---", "---", "---", "---"])
    row(["ours, --quality best, 1 thread (engine loaded once)", String(format: "%.2f", n / best.wall), String(format: "%.3f", best.wall / n),
         String(format: "%.3f", best.cpu / n)])
    row(["ours, --quality best, 2 threads", String(format: "%.2f", n / two), String(format: "%.3f", two / n), "–"])
    row(["ours, --quality fast, 1 thread", String(format: "%.2f", n / fast.wall), String(format: "%.3f", fast.wall / n),
         String(format: "%.3f", fast.cpu / n)])
    row(["tesseract CLI, one process per page", String(format: "%.2f", n / cliWall), String(format: "%.3f", cliWall / n),
         String(format: "%.3f", cliCPU / n)])
    say("")
    say(String(format: "Per core: best %.2f× the CLI's pages/s (wall), %.2f× (CPU); fast %.2f× (wall), %.2f× (CPU). Two threads: %.2f× one thread.",
               cliWall / best.wall, cliCPU / best.cpu, cliWall / fast.wall, cliCPU / fast.cpu, best.wall / two))
    say(String(format: "Engine start (model load): %.3f s; the CLI's start-up on a blank image: %.3f s.",
               starts.min()!, startup))
}
