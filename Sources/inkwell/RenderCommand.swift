import ArgumentParser
import Foundation
import InkwellKit

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a note, or convert a pen file, to PNG, PDF or SVG.",
        discussion: """
            inkwell render "Sprint retro" -o retro.pdf                 every page, one vector PDF
            inkwell render "Sprint retro" --page 2 --scale 2 -o p2.png 2x PNG of page 2
            inkwell render k3m9 --format svg -o retro.svg              retro-p01.svg, retro-p02.svg, …
            inkwell render "Sprint retro" --thumbnail -o thumb.png     small PNG of page 1
            inkwell render page.rm -o page.svg                         a file, converted without a library
            inkwell render "Sprint retro" --format pdf | lp            standard output, when it is not a terminal

            NOTE is a note id, a unique id prefix (4+ characters) or an exact title. A path to a file \
            (.rm, .xopp, .xoj, .inkml, .rnote, .jsonl) is converted without a library: read, replayed as \
            `inkwell import` would store it, rendered, nothing written but the output. A PDF holds every \
            page (or only --page N), each sized from its page (a 1404×1872 reMarkable page at 226 dpi is \
            447×596 pt). PNG and SVG are one file per page: with several pages and no --page, the page \
            number goes before the extension (-p02, as in `inkwell export`). A PNG at --scale 1 has one pixel per page unit. Files are \
            written under a temporary name and renamed, so a reader never sees half a file.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case png, pdf, svg
    }

    @OptionGroup var library: LibraryOptions
    @Argument(help: "The note (id, id prefix or title), or a pen file to convert.") var note: String
    @Option(help: ArgumentHelp("Render only this page (1 is the first).", valueName: "n")) var page: Int?
    @Option(help: "png, pdf or svg (default: from the extension of the output).") var format: Format?
    @Option(help: ArgumentHelp("PNG pixels per page unit: 1, 2 or 3.", valueName: "1|2|3")) var scale: Int = 1
    @Option(name: [.customShort("o"), .customLong("output")],
            help: ArgumentHelp("The file to write, a folder (ending in /, or existing) to write it in, or - for standard output (the default when it is not a terminal).",
                               valueName: "path"),
            completion: .file())
    var output: String?
    @Flag(help: "Write a small PNG (256 pixels wide) of page 1, or of --page.") var thumbnail = false
    @Flag(help: "An SVG that plays the writing back stroke by stroke at its recorded speed (pauses over 1.5 s shortened).")
    var animate = false
    @Option(help: ArgumentHelp("Centreline smoothing, 0 (off) to 1 (strong); default per tool.", valueName: "0…1"))
    var smoothing: Double?
    @Option(help: ArgumentHelp("How pressure becomes width: linear, soft, hard or an exponent.", valueName: "curve"))
    var pressureCurve: String?
    @Option(help: ArgumentHelp("What eraser strokes remove: split (only what they cross) or whole (whole strokes).",
                               valueName: "split|whole"))
    var eraser: String = PageRenderer.defaultEraserMode
    @OptionGroup var outputOptions: OutputOptions

    struct Written: Encodable {
        /// The note's id; nil when a file was converted.
        var note: String?
        /// The file converted; nil when a note was rendered.
        var file: String?
        var title: String
        var format: String
        var scale: Int?
        var files: [File]

        struct File: Encodable {
            var path: String
            var pages: [Int]
            var bytes: Int
        }
    }

    func validate() throws {
        if let smoothing, !(0...1).contains(smoothing) { throw ValidationError("--smoothing must be between 0 and 1") }
        if let pressureCurve, !PageRenderer.isPressureCurve(pressureCurve) {
            throw ValidationError("--pressure-curve must be linear, soft, hard or a positive exponent, not \"\(pressureCurve)\"")
        }
        if !PageRenderer.eraserModes.contains(eraser) { throw ValidationError("--eraser must be split or whole, not \"\(eraser)\"") }
        if let page, page < 1 { throw ValidationError("--page counts from 1") }
        if thumbnail, let format, format != .png { throw ValidationError("--thumbnail writes a PNG; leave out --format or use png") }
        if ![1, 2, 3].contains(scale) { throw ValidationError("--scale must be 1, 2 or 3") }
        if output == nil, standardOutputIsTerminal {
            throw ValidationError("give -o FILE (or - to write to the terminal anyway, or a pipe)")
        }
        if !thumbnail, resolvedFormat == nil {
            throw ValidationError(isStandardOutput || isFolder
                ? "give --format png|pdf|svg (the output has no name to take it from)"
                : "give --format png|pdf|svg (the output \"\(output ?? "")\" has no extension Inkwell knows)")
        }
        if scale != 1, !thumbnail, resolvedFormat != .png { throw ValidationError("--scale applies to PNG only") }
        if animate, thumbnail || resolvedFormat != .svg { throw ValidationError("--animate writes an SVG: use --format svg") }
    }

    var resolvedFormat: Format? {
        if thumbnail { return .png }
        guard !isStandardOutput, !isFolder, let output else { return format }
        return format ?? Format(rawValue: URL(fileURLWithPath: output).pathExtension.lowercased())
    }

    /// No -o (not on a terminal) or -o -.
    var isStandardOutput: Bool { output == nil || output == "-" }

    /// -o names a folder: it ends in / or is an existing folder.
    var isFolder: Bool {
        guard let output, !isStandardOutput else { return false }
        var folder: ObjCBool = false
        return output.hasSuffix("/") || (FileManager.default.fileExists(atPath: output, isDirectory: &folder) && folder.boolValue)
    }

    /// The file to write: standard output, the title's name in the folder given, or the path given.
    func target(title: String, format: Format, files: Int) throws -> URL {
        if isStandardOutput {
            guard files == 1 else {
                throw Failure("\(files) files would be written (a \(format.rawValue.uppercased()) a page) and standard output takes one: give --page N or -o FOLDER/")
            }
            return URL(fileURLWithPath: "/dev/stdout")
        }
        let path = output ?? "-"
        guard isFolder else { return URL(fileURLWithPath: path) }
        return try Workspace.outputFolder(URL(fileURLWithPath: path)).appendingPathComponent(Workspace.fileName(title: title, extension: format.rawValue))
    }

    /// The pages to render and whose they are: a file converted in memory, else a note of the library.
    func source() throws -> (source: PageSource, file: String?) {
        if ConvertedFile.isFile(URL(fileURLWithPath: note)) {
            let converted = try ConvertedFile.read(URL(fileURLWithPath: note))
            for warning in converted.warnings { printNote("warning: \(warning)") }
            guard !converted.pages.isEmpty else { throw Failure("\(note): holds no pages") }
            return (converted.source, note)
        }
        let source: PageSource
        let workspace: Workspace
        do {
            workspace = try library.open()
            source = try workspace.pageSource(of: note)
        } catch {
            throw missingFile(note) ?? error
        }
        if let id = source.noteID, let warning = workspace.journalWarning(for: id) { printError("warning: \(warning)") }
        guard !source.pages.isEmpty else { throw Failure("note \"\(source.title)\" has no pages") }
        return (source, nil)
    }

    func run() throws {
        let (source, file) = try source()
        let (title, noteID, allPages) = (source.title, source.noteID?.rawValue, source.pages)
        var numbers = Array(1...allPages.count)
        if let page {
            guard page <= allPages.count else {
                throw Failure("\(file ?? "note \"\(title)\"") has \(allPages.count) page\(allPages.count == 1 ? "" : "s"); there is no page \(page)")
            }
            numbers = [page]
        } else if thumbnail {
            numbers = [1]
        }
        let pages = numbers.map { allPages[$0 - 1] }

        let renderer = PageRenderer(source, eraser: eraser, smoothing: smoothing, pressureCurve: pressureCurve)
        let format = resolvedFormat ?? .png
        let files = thumbnail || format == .pdf ? 1 : pages.count
        let target = try target(title: title, format: format, files: files)

        var written: [Written.File] = []
        func write(_ bytes: [UInt8], to url: URL, pages: [Int]) throws {
            try Workspace.writeFile(url, bytes)
            written.append(Written.File(path: url.path, pages: pages, bytes: bytes.count))
        }
        if thumbnail {
            try write(try renderer.thumbnail(pages[0]), to: target, pages: numbers)
        } else {
            switch format {
            case .pdf:
                try write(try renderer.pdf(pages), to: target, pages: numbers)
            case .png:
                let images = try renderer.pngs(pages, scale: Double(scale))
                for (number, image) in zip(numbers, images) {
                    try write(image, to: pageFile(target, page: number, numbered: pages.count > 1), pages: [number])
                }
            case .svg:
                for (number, page) in zip(numbers, pages) {
                    let svg = animate ? renderer.animatedSVG(page) : renderer.svg(page)
                    try write(Array(svg.utf8), to: pageFile(target, page: number, numbered: pages.count > 1), pages: [number])
                }
            }
        }

        if outputOptions.json {
            return try printJSON(Written(note: noteID, file: file, title: title, format: format.rawValue,
                                         scale: format == .png ? (thumbnail ? nil : scale) : nil, files: written))
        }
        for file in written {
            let pageText = file.pages.count == 1 ? "page \(file.pages[0])" : "\(file.pages.count) pages"
            printWritten("wrote \(file.path) (\(pageText), \(fileSize(file.bytes)))",
                         paths: written.map(\.path))
        }
    }

    /// An error about the request that is not a usage mistake (exit status 1, no usage text).
    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// `notes.png` → `notes-p02.png` when pages go to several files.
    func pageFile(_ url: URL, page: Int, numbered: Bool) -> URL {
        numbered ? Workspace.pageFile(url, page: page) : url
    }
}
