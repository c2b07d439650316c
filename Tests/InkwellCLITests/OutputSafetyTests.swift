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
    func fifo() async throws {
        let input = try recording()
        let fifo = cli.root.appendingPathComponent("pipe.svg")
        try FileManager.default.createDirectory(at: cli.root, withIntermediateDirectories: true)
        #expect(mkfifo(fifo.path, 0o644) == 0)
        let reader = Task.detached { FileHandle(forReadingAtPath: fifo.path)?.readDataToEndOfFile() }
        let result = try cli.run(["render", input, "-o", fifo.path])
        #expect(result.status == 0, "\(result.stderr)")
        let read = try #require(await reader.value)
        #expect(String(decoding: read, as: UTF8.self).contains("<svg"))
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
}
