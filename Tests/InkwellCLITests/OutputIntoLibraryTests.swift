import Foundation
import Testing

/// No output may land inside the library (issue 40 item 5): `-o`, `--zip`, an export folder and an
/// Obsidian vault that resolve into it, through a symbolic link too, are refused with the reason,
/// and the library's files stay as they were.
@Suite("Outputs never write into the library")
struct OutputIntoLibraryTests {
    let cli = CLI()

    @Test("render -o, export -o, --zip and --obsidian-vault into the library, directly or through a link, are refused; check stays clean")
    func refused() throws {
        try cli.ok(["init"])
        let input = try cli.write("page.jsonl", strokeLines(at: 0).joined(separator: "\n"))
        try cli.ok(["import", input, "--no-recognize"])
        let pageFile = try #require(FileManager.default.enumerator(atPath: cli.library.path)?.compactMap { $0 as? String }
            .first { $0.hasSuffix(".inkpage") })
        let page = cli.library.appendingPathComponent(pageFile)
        let toPage = cli.root.appendingPathComponent("to-page.svg")
        try FileManager.default.createSymbolicLink(atPath: toPage.path, withDestinationPath: page.path)
        let toLibrary = cli.root.appendingPathComponent("to-library")
        try FileManager.default.createSymbolicLink(atPath: toLibrary.path, withDestinationPath: cli.library.path)
        try FileManager.default.createDirectory(at: cli.library.appendingPathComponent(".obsidian"), withIntermediateDirectories: true)
        let before = try cli.snapshot()
        let attempts: [[String]] = [
            ["render", input, "-o", toPage.path],
            ["render", input, "-o", cli.library.appendingPathComponent("out.svg").path],
            ["export", "--all", "-o", toLibrary.appendingPathComponent("exports/").path],
            ["export", "--all", "--format", "pdf", "-o", toLibrary.appendingPathComponent("out.pdf").path],
            ["export", "--all", "--zip", toLibrary.appendingPathComponent("all.zip").path],
            ["export", "--all", "--obsidian-vault", cli.library.path],
        ]
        for arguments in attempts {
            let result = try cli.run(arguments)
            #expect(result.status != 0 && result.stderr.contains("inside the Inkwell library at"), "\(arguments): \(result.stderr)")
        }
        #expect(try cli.snapshot() == before, "the library is as it was")
        try cli.ok(["check"])
    }
}
