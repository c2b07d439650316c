import Foundation
import Testing

/// `-o` names what the user wants written, whatever it is (issue 32 item 1): a symbolic link stays a
/// link with its target written, a FIFO is written into rather than replaced by a file, and a missing
/// folder is named as such, never a temporary file.
@Suite("Outputs never destroy what they name")
struct OutputSafetyTests {
    let cli = CLI()

    /// A replay log of one stroke, without a library.
    func recording() throws -> String {
        try cli.write("page.jsonl", strokeLines(at: 0).joined(separator: "\n"))
    }

    @Test("-o onto a symbolic link writes its target and keeps the link; export --zip too")
    func symbolicLink() throws {
        let input = try recording()
        let target = cli.root.appendingPathComponent("real.svg"), link = cli.root.appendingPathComponent("link.svg")
        try Data("old".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "real.svg")
        let result = try cli.run(["render", input, "-o", link.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "real.svg")
        #expect(try String(contentsOf: target, encoding: .utf8).contains("<svg"))
        let zipTarget = cli.root.appendingPathComponent("real.zip"), zipLink = cli.root.appendingPathComponent("link.zip")
        try FileManager.default.createSymbolicLink(atPath: zipLink.path, withDestinationPath: zipTarget.path)
        let zipped = try cli.run(["export", input, "--zip", zipLink.path])
        #expect(zipped.status == 0, "\(zipped.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: zipLink.path) == zipTarget.path)
        #expect(try Data(contentsOf: zipTarget).starts(with: [0x50, 0x4B]))
    }

    @Test("-o onto a FIFO writes into it and leaves it a FIFO")
    func fifo() throws {
        let input = try recording()
        let fifo = cli.root.appendingPathComponent("pipe.svg")
        try FileManager.default.createDirectory(at: cli.root, withIntermediateDirectories: true)
        #expect(mkfifo(fifo.path, 0o644) == 0)
        // The read end is opened first, without blocking, so the writer finds a reader; the SVG fits
        // in the pipe's buffer. (A reader on another task could wait for a thread the tests hold.)
        let reader = open(fifo.path, O_RDONLY | O_NONBLOCK)
        try #require(reader >= 0)
        defer { close(reader) }
        let result = try cli.run(["render", input, "-o", fifo.path])
        #expect(result.status == 0, "\(result.stderr)")
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while case let count = read(reader, &buffer, buffer.count), count > 0 { received += buffer[0..<count] }
        #expect(String(decoding: received, as: UTF8.self).contains("<svg"))
        var info = stat()
        #expect(lstat(fifo.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO)
    }

    @Test("-o /dev/stdout writes into the pipe or file behind it")
    func standardOutput() throws {
        let input = try recording()
        let piped = try cli.run(["render", input, "--format", "svg", "-o", "/dev/stdout"])
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdout.hasSuffix("</svg>\n") && piped.stderr.contains("wrote /dev/stdout"), "\(piped.stdout.suffix(40))")
    }

    @Test("a missing folder is named as such, not a temporary file")
    func missingFolder() throws {
        let input = try recording()
        let output = cli.root.appendingPathComponent("nowhere/page.svg")
        let result = try cli.run(["render", input, "-o", output.path])
        #expect(result.status != 0)
        #expect(result.stderr.contains("\(output.path): cannot write: the folder") && !result.stderr.contains(".tmp"), "\(result.stderr)")
    }

    /// A replay log of two pages, one stroke each.
    func twoPages() throws -> String {
        try cli.write("two.jsonl", (strokeLines(at: 0) + [line(["type": "page", "t": 1.0])] + strokeLines(at: 2)).joined(separator: "\n"))
    }

    @Test("-o - and no -o write one file to standard output; several files are refused there")
    func dash() throws {
        let input = try recording()
        let dashed = try cli.run(["render", input, "--format", "svg", "-o", "-"])
        #expect(dashed.status == 0, "\(dashed.stderr)")
        #expect(dashed.stdout.hasPrefix("<svg") || dashed.stdout.hasPrefix("<?xml"), "\(dashed.stdout.prefix(40))")
        #expect(!FileManager.default.fileExists(atPath: cli.root.appendingPathComponent("-").path))
        let bare = try cli.run(["render", input, "--format", "pdf"])
        #expect(bare.status == 0 && bare.stdout.hasPrefix("%PDF-"), "\(bare.stderr)")
        let many = try cli.run(["render", try twoPages(), "--format", "png", "-o", "-"])
        #expect(many.status == 1 && many.stderr.contains("standard output takes one"), "\(many.stderr)")
        let exported = try cli.run(["export", input, "--format", "pdf", "-o", "-"])
        #expect(exported.status == 0 && exported.stdout.hasPrefix("%PDF-"), "\(exported.stderr)")
    }

    @Test("a trailing / is a folder, created; several outputs for one path make it a folder, never one file written twice")
    func folders() throws {
        let input = try twoPages()
        let slash = cli.root.appendingPathComponent("new/deeper")
        let rendered = try cli.run(["render", input, "--format", "pdf", "-o", slash.path + "/"])
        #expect(rendered.status == 0, "\(rendered.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: slash.path) == ["two.pdf"])

        try cli.ok(["init"])
        _ = try cli.ok(["import", input, "--no-recognize"])
        let vault = cli.root.appendingPathComponent("vault")
        let exported = try cli.run(["export", "--all", "--format", "md", "-o", vault.path])
        #expect(exported.status == 0, "\(exported.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: vault.path).sorted()
        #expect(files.count == 3 && files.filter { $0.hasSuffix(".png") }.count == 2 && files.filter { $0.hasSuffix(".md") }.count == 1, "\(files)")

        let file = try cli.write("taken.png", "mine")
        let refused = try cli.run(["export", input, "--format", "png", "-o", file])
        #expect(refused.status == 1 && refused.stderr.contains("is a file, not a folder"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "mine")
    }

    @Test("a missing file given where a note or a file may be is \"no such file\", a pattern the shell left is said so")
    func missingInput() throws {
        try cli.ok(["init"])
        _ = try cli.ok(["import", try recording(), "--no-recognize"])
        let missing = try cli.run(["render", "page.rm", "-o", cli.root.appendingPathComponent("page.svg").path])
        #expect(missing.status == 1 && missing.stderr.contains("page.rm: no such file"), "\(missing.stderr)")
        let pattern = try cli.run(["export", "*.rm", "-o", cli.root.path + "/"])
        #expect(pattern.status == 1 && pattern.stderr.contains("no file matches this pattern"), "\(pattern.stderr)")
        let none = try cli.run(["export", "--tag", "nothing", "-o", cli.root.path + "/"])
        #expect(none.status == 1 && none.stderr.contains("no notes match"), "\(none.stderr)")
    }
}
