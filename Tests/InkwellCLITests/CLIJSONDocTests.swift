import Foundation
import Testing

/// docs/cli-json.md against real output (issue 32, item 5): its `sh setup` block makes a library, then
/// each ```sh block followed by a ```json (one document) or ```jsonl (one object a line) example is run
/// in order, and the keys of the output must be the documented keys, at every depth.
@Suite("docs/cli-json.md")
struct CLIJSONDocTests {
    let cli = CLI()

    static let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../docs/cli-json.md").standardizedFileURL

    /// The keys of a JSON value: an object's keys with their values' shapes, an array's elements'
    /// shapes merged (the elements together have every key any of them has), nothing of a scalar.
    indirect enum Shape {
        case object([String: Shape])
        case array(Shape?)
        case scalar

        init(_ value: Any) {
            if let object = value as? [String: Any] {
                self = .object(object.mapValues(Shape.init))
            } else if let array = value as? [Any] {
                self = .array(array.map(Shape.init).reduce(nil) { Shape.merge($0, $1) })
            } else {
                self = .scalar
            }
        }

        static func merge(_ a: Shape?, _ b: Shape) -> Shape {
            switch (a, b) {
            case (.object(let x)?, .object(let y)): return .object(x.merging(y) { merge($0, $1) })
            case (.array(let x)?, .array(let y)): return .array(y.map { merge(x, $0) } ?? x)
            case (let a?, _): return a
            case (nil, _): return b
            }
        }

        /// An object keyed by note ids (`index`'s `tagged`): its keys are data, only its values are compared.
        var asIDMap: Shape? {
            guard case .object(let fields) = self, !fields.isEmpty,
                  fields.keys.allSatisfy({ $0.count == 12 && $0.allSatisfy { $0.isNumber || ($0.isLowercase && $0.isASCII) } })
            else { return nil }
            return .array(fields.values.reduce(nil) { Shape.merge($0, $1) })
        }
    }

    /// Where `documented` and `real` differ: keys on one side only. An empty object or array on
    /// either side shows no keys, so it is not compared.
    static func differences(_ documented: Shape, _ real: Shape, at path: String) -> [String] {
        if let documented = documented.asIDMap, let real = real.asIDMap { return differences(documented, real, at: path + "{id}") }
        switch (documented, real) {
        case (.object(let doc), .object(let out)):
            guard !doc.isEmpty, !out.isEmpty else { return [] }
            return Set(doc.keys).union(out.keys).sorted().flatMap { key -> [String] in
                switch (doc[key], out[key]) {
                case let (d?, o?): return differences(d, o, at: path + "." + key)
                case (_?, nil): return ["\(path).\(key) is documented but not in the output"]
                default: return ["\(path).\(key) is in the output but not documented"]
                }
            }
        case (.array(let doc?), .array(let out?)):
            return differences(doc, out, at: path + "[]")
        default:
            return []
        }
    }

    /// A JSON document, or with `lines` one object a line taken as an array of them.
    static func parse(_ text: String, lines: Bool) throws -> Any {
        guard lines else { return try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) }
        return try text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            .map { try JSONSerialization.jsonObject(with: Data($0.utf8)) }
    }

    struct Example {
        var command: String
        var format: String
        var json: String
    }

    /// The setup lines and the examples, in the document's order.
    static func examples() throws -> (setup: [String], examples: [Example]) {
        let text = try String(contentsOf: document, encoding: .utf8)
        let fence = try Regex(#"```(sh setup|sh|jsonl|json)\n(.*?)\n```"#).dotMatchesNewlines()
        var setup: [String] = [], examples: [Example] = [], pending: String?
        for match in text.matches(of: fence) {
            let kind = String(match.output[1].substring ?? ""), body = String(match.output[2].substring ?? "")
            switch kind {
            case "sh setup": setup = body.components(separatedBy: "\n")
            case "sh": pending = body
            default:
                if let command = pending { examples.append(Example(command: command, format: kind, json: body)) }
                pending = nil
            }
        }
        return (setup, examples)
    }

    func shell(_ command: String, in folder: URL) throws -> CLI.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["--noprofile", "--norc", "-o", "pipefail", "-c", command]
        process.currentDirectoryURL = folder
        var environment = ProcessInfo.processInfo.environment
        environment["INKWELL_INDEX_URL"] = nil
        environment["INKWELL_LIBRARY"] = cli.library.path
        environment["PATH"] = CLI.executable.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile(), stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLI.Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                          stderr: String(decoding: stderr, as: UTF8.self))
    }

    @Test("the shape differences are found: a key missing on either side, at any depth, in arrays and id maps")
    func comparison() throws {
        let documented = Shape(["a": 1, "b": [["c": 1], ["d": [1]]], "tagged": ["0123456789ab": ["x"]]] as [String: Any])
        #expect(Self.differences(documented, documented, at: "").isEmpty)
        let real = Shape(["a": 1, "b": [["c": 1, "e": 2]], "tagged": ["zyxwvutsrq98": ["y"]]] as [String: Any])
        #expect(Self.differences(documented, real, at: "") == [".b[].d is documented but not in the output",
                                                                ".b[].e is in the output but not documented"])
    }

    @Test("every command documented in docs/cli-json.md prints the documented keys, and no others")
    func documentMatchesOutput() throws {
        let (setup, examples) = try Self.examples()
        #expect(!setup.isEmpty && examples.count >= 40, "docs/cli-json.md: \(setup.count) setup lines, \(examples.count) examples")
        let folder = cli.root.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for line in setup {
            let result = try shell(line, in: folder)
            try #require(result.status == 0, "setup line failed: \(line)\n\(result.stderr)")
        }
        var commands: Set<String> = []
        for example in examples {
            let result = try shell(example.command, in: folder)
            #expect(result.status == 0, "\(example.command) failed: \(result.stderr)")
            guard result.status == 0 else { continue }
            let lines = example.format == "jsonl"
            let documented = try Self.parse(example.json, lines: lines), real = try Self.parse(result.stdout, lines: lines)
            let differences = Self.differences(Shape(documented), Shape(real), at: "")
            #expect(differences.isEmpty, "\(example.command):\n\(differences.joined(separator: "\n"))")
            commands.insert(example.command.components(separatedBy: "inkwell ").dropFirst().first?.split(separator: " ").first.map(String.init) ?? "")
        }
        // Every top-level command that prints a document is shown (serve and watch run until stopped; resolve needs conflict copies).
        for command in ["init", "upgrade", "stats", "check", "compact", "import", "sync", "ingest", "note", "convert", "notebook",
                        "tags", "search", "index", "route", "trash", "render", "export", "sample"] {
            #expect(commands.contains(command), "docs/cli-json.md shows no example of inkwell \(command) --json")
        }
    }
}
