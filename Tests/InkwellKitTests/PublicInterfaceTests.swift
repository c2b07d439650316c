import Foundation
import Testing
import TestSupport

/// The door's public interface as the compiler sees it: the symbol graphs `swift-symbolgraph-extract`
/// reads from the modules the build made (InkwellKit and the rooms it re-exports). What reaches the
/// adapters (the library, the index, the decoders, the session's internals) is `package`; front ends
/// see the door's own types, InkCore's and InkText's, and the values Exports.swift re-exports by name.
@Suite("InkwellKit's public interface")
struct PublicInterfaceTests {
    /// The public symbols of `module` (its extensions of other modules' types too), each with the
    /// declaration as the compiler gives it.
    static func publicSymbols(of module: String) throws -> [(path: String, file: String, types: [(name: String, usr: String)])] {
        // The suite's binary lies in the build's folder (`.build/<triple>/debug`); its manifest
        // (`.build/debug.yaml`) holds the compiler's command for each module, search paths and all.
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let products = binary.deletingLastPathComponent()
        let manifest = products.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(products.lastPathComponent + ".yaml")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        let command = try #require(text.split(separator: "\n").first { $0.contains(#""-module-name","\#(module)""#) && $0.contains("args:") },
                                   "no compiler command for \(module) in \(manifest.path)")
        let arguments = String(command[command.range(of: "args:")!.upperBound...]).matches(of: #/"((?:[^"\\]|\\.)*)"/#).map { String($0.output.1) }
        var searchPaths: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if (argument == "-Xcc" || argument == "-I"), index + 1 < arguments.count {
                searchPaths += [argument, arguments[index + 1]]
                index += 2
                continue
            }
            if argument.hasPrefix("-I") { searchPaths.append(argument) }
            index += 1
        }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("\(module)-symbols-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: output) }
        let run = try tool(["swift-symbolgraph-extract", "-module-name", module, "-target", "x86_64-unknown-linux-gnu",
                            "-minimum-access-level", "public", "-output-dir", output.path] + searchPaths)
        try #require(run.status == 0, "swift-symbolgraph-extract: \(run.output)")
        var symbols: [(path: String, file: String, types: [(name: String, usr: String)])] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: output.path) where file.hasSuffix(".symbols.json") {
            let data = try Data(contentsOf: output.appendingPathComponent(file))
            let graph = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            for symbol in graph["symbols"] as? [[String: Any]] ?? [] {
                let fragments = symbol["declarationFragments"] as? [[String: Any]] ?? []
                let types = fragments.compactMap { fragment -> (String, String)? in
                    guard fragment["kind"] as? String == "typeIdentifier", let usr = fragment["preciseIdentifier"] as? String,
                          let name = fragment["spelling"] as? String else { return nil }
                    return (name, usr)
                }
                let path = (symbol["pathComponents"] as? [String] ?? []).joined(separator: ".")
                let location = (symbol["location"] as? [String: Any])?["uri"] as? String ?? file
                symbols.append((path, URL(string: location)?.lastPathComponent ?? location, types))
            }
        }
        return symbols
    }

    /// The module and the outermost type a Swift USR names (`s:8InkStore7LibraryV` → InkStore, Library);
    /// the type is right only when the mangling spelt it out (no word taken back from the module's name).
    static func owner(of usr: String) -> (module: String, type: String)? {
        var rest = Substring(usr.hasPrefix("s:") ? usr.dropFirst(2) : "")
        func identifier() -> String? {
            let digits = rest.prefix { $0.isNumber }
            guard let length = Int(digits), rest.count >= digits.count + length else { return nil }
            rest = rest.dropFirst(digits.count)
            defer { rest = rest.dropFirst(length) }
            return String(rest.prefix(length))
        }
        guard let module = identifier(), let type = identifier() else { return nil }
        return (module, type)
    }

    @Test("a USR names its module and outermost type")
    func usrOwners() {
        #expect(PublicInterfaceTests.owner(of: "s:8InkStore7LibraryV")! == ("InkStore", "Library"))
        #expect(PublicInterfaceTests.owner(of: "s:12InkRecognize18RecognitionOptionsV7QualityO")! == ("InkRecognize", "RecognitionOptions"))
        #expect(PublicInterfaceTests.owner(of: "c:@S@cairo") == nil)
    }

    /// The modules of the door: InkwellKit and the rooms it re-exports whole (its other whole
    /// re-exports, InkCore and InkText, are the values every module shares).
    static let door = ["InkwellKit", "InkWorkspace", "InkIntake", "InkLive", "InkIndexing"]

    @Test("no public declaration of the door names a type of the modules behind it, but the values it re-exports",
          arguments: PublicInterfaceTests.door)
    func publicInterfaceNamesNoAdapterType(module: String) throws {
        let exports = try String(contentsOf: ArchitectureTests.root.appendingPathComponent("Sources/InkwellKit/Exports.swift"), encoding: .utf8)
        let reexported = ArchitectureChecker.reexports(in: exports)
        #expect(Set(PublicInterfaceTests.door.dropFirst()).isSubset(of: reexported.modules), "the rooms are re-exported whole")
        let symbols = try PublicInterfaceTests.publicSymbols(of: module)
        let expected = ["InkwellKit": "NoteRow", "InkWorkspace": "Workspace", "InkIntake": "Importer", "InkLive": "LiveNote",
                        "InkIndexing": "Indexer"][module]
        #expect(symbols.contains { $0.path == expected }, "the symbol graph of \(module) was not read: \(symbols.count) symbols")
        var found: Set<String> = []
        for symbol in symbols {
            for type in symbol.types {
                guard let owner = PublicInterfaceTests.owner(of: type.usr), owner.module.hasPrefix("Ink"),
                      !PublicInterfaceTests.door.contains(owner.module),
                      !reexported.modules.contains(owner.module),
                      // The type as spelled, or the type it is nested in (a USR may abbreviate a name
                      // that repeats its module's words, so the spelling is the surer of the two).
                      !reexported.types.contains(type.name), !reexported.types.contains(owner.type) else { continue }
                found.insert("\(symbol.file): \(symbol.path) names \(type.name) of \(owner.module)")
            }
        }
        #expect(found.isEmpty, "make these package, or re-export the value by name in Exports.swift:\n\(found.sorted().joined(separator: "\n"))")
    }
}
