import Foundation
import Testing

/// docs/architecture.md is the map of the modules; these tests keep it true to Package.swift and
/// to what the sources import.
@Suite("Architecture")
struct ArchitectureTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Direct dependencies between the project's modules (`Ink…` and `inkwell`), from the `graph`
    /// block of docs/architecture.md: one `A --> B` a line.
    static func documentedGraph() throws -> [String: Set<String>] {
        let text = try String(contentsOf: root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let block = try #require(text.components(separatedBy: "```mermaid").dropFirst().first?.components(separatedBy: "```").first)
        var graph: [String: Set<String>] = [:]
        for line in block.split(separator: "\n") {
            let parts = line.components(separatedBy: "-->").map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else { continue }
            graph[parts[0], default: []].insert(parts[1])
            graph[parts[1], default: []].formUnion([])
        }
        return graph
    }

    /// The same, from the `.target` and `.executableTarget` declarations of Package.swift.
    static func declaredGraph() throws -> [String: Set<String>] {
        let text = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let declaration = try Regex(#"\.(?:target|executableTarget)\(\s*name:\s*"([^"]+)"(?:\s*,\s*dependencies:\s*\[([^\]]*)\])?"#)
        let quoted = try Regex(#""([^"]+)""#)
        var graph: [String: Set<String>] = [:]
        for match in text.matches(of: declaration) {
            let name = String(match.output[1].substring ?? "")
            guard isModule(name) else { continue }
            let dependencies = match.output[2].substring.map { list in list.matches(of: quoted).compactMap { $0.output[1].substring.map(String.init) } } ?? []
            graph[name] = Set(dependencies.filter(isModule))
        }
        return graph
    }

    /// Project modules a target's sources import.
    static func imports(of module: String) throws -> Set<String> {
        let folder = root.appendingPathComponent("Sources").appendingPathComponent(module)
        let statement = try Regex(#"^(?:@_exported\s+)?import\s+(Ink\w+)"#).anchorsMatchLineEndings()
        var found: Set<String> = []
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        for file in files where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: statement) { found.insert(String(match.output[1].substring ?? "")) }
        }
        return found
    }

    /// The project as the checker reads it, read once for every test.
    static func project() throws -> ArchitectureChecker { try readProject.get() }
    private static let readProject = Result { try ArchitectureChecker.project(at: root) }

    static func isModule(_ name: String) -> Bool { name == "inkwell" || name.hasPrefix("Ink") }

    @Test("the module graph in docs/architecture.md is the one Package.swift declares")
    func graphMatchesPackage() throws {
        let documented = try ArchitectureTests.documentedGraph(), declared = try ArchitectureTests.declaredGraph()
        #expect(declared.count >= 15, "Package.swift was not read: \(declared.keys.sorted())")
        for module in Set(documented.keys).union(declared.keys).sorted() {
            let missing = declared[module, default: []].subtracting(documented[module, default: []])
            let extra = documented[module, default: []].subtracting(declared[module, default: []])
            #expect(missing.isEmpty && extra.isEmpty && documented[module] != nil && declared[module] != nil,
                    "\(module): declared but not drawn \(missing.sorted()), drawn but not declared \(extra.sorted())")
        }
    }

    @Test("every module imports only what it declares, and the front ends import InkwellKit alone (and the CLI the web front end it starts)")
    func importsFollowTheGraph() throws {
        let declared = try ArchitectureTests.declaredGraph()
        for (module, dependencies) in declared {
            let undeclared = try ArchitectureTests.imports(of: module).subtracting(dependencies)
            #expect(undeclared.isEmpty, "\(module) imports \(undeclared.sorted()) without declaring it")
        }
        #expect(try ArchitectureTests.imports(of: "inkwell") == ["InkwellKit", "InkServe"])
        #expect(try ArchitectureTests.imports(of: "InkServe") == ["InkwellKit"])
        #expect(declared["InkIndex"]?.contains("InkRecognize") == false && declared["InkRecognize"]?.contains("InkRender") == false)
    }

    @Test("every import of every target, sources and tests, is a dependency Package.swift declares")
    func importsAreDeclared() throws {
        let project = try ArchitectureTests.project()
        #expect(project.sources["InkServe"]?.isEmpty == false && project.sources["InkwellKitTests"]?.isEmpty == false,
                "the sources were not read: \(project.sources.keys.sorted())")
        let found = project.violations().filter { $0.contains(" imports ") }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    @Test("front ends name no type of the modules behind InkwellKit: they reach those through the workspace")
    func frontEndsNameNoHiddenType() throws {
        let project = try ArchitectureTests.project()
        #expect(["Library", "StoredNote", "Renderer", "SearchIndex", "Exporter", "StagedNote", "BackgroundDocuments"].allSatisfy { project.hiddenTypes[$0] != nil },
                "the adapters' types were not read: \(project.hiddenTypes.count)")
        #expect(project.hiddenTypes["Note"] == nil && project.hiddenTypes["SessionConfig"] == nil && project.hiddenTypes["TypedText"] == nil,
                "InkCore's, InkText's and the re-exported types may be named")
        let found = project.violations().filter { $0.contains(" names ") }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    @Test("the checker reports a planted front end that names Library and imports an undeclared module, and nothing in its comments and strings")
    func checkerFindsPlantedViolations() throws {
        var project = try ArchitectureTests.project()
        project.sources["InkServe"]?["Sources/InkServe/Planted.swift"] = #"""
            import Foundation
            import InkwellKit
            import NIOPosix

            // A Library in a comment, /* and a Renderer in a block comment */ are no use of them.
            func planted(_ workspace: Workspace) throws -> String {
                let library = try Library(opening: URL(fileURLWithPath: "/tmp"))
                return "Library \(workspace.libraryFolder.path) Exporter \("Renderer")"
            }
            """#
        let found = project.violations().filter { $0.hasPrefix("Sources/InkServe/Planted.swift") }
        #expect(found == ["Sources/InkServe/Planted.swift: imports NIOPosix, which InkServe does not declare in Package.swift",
                          "Sources/InkServe/Planted.swift: names Library of InkStore, which front ends reach through InkwellKit only"],
                "\(found)")
    }

    @Test("InkwellKit re-exports values and its rooms only: InkCore, InkText and the rooms whole, single structs and enums; its type aliases name values")
    func inkwellKitReexportsValuesOnly() throws {
        let exports = try String(contentsOf: ArchitectureTests.root.appendingPathComponent("Sources/InkwellKit/Exports.swift"), encoding: .utf8)
        let reexported = ArchitectureChecker.reexports(in: exports)
        #expect(reexported.modules == ["InkCore", "InkText", "InkWorkspace", "InkIntake", "InkLive", "InkIndexing"])
        #expect(reexported.typeKinds.values.allSatisfy { $0 == "struct" || $0 == "enum" }, "\(reexported.typeKinds)")
        // A public type alias of InkwellKit gives front ends a name for a value of a module behind it
        // (they still reach only the members InkwellKit declares): it must be a struct or an enum.
        let project = try ArchitectureTests.project()
        var kinds: [String: String] = [:]
        for (target, files) in project.sources where project.declared["InkwellKit", default: []].contains(target) {
            for text in files.values {
                let code = ArchitectureChecker.code(of: text)
                for match in code.matches(of: #/(?:public\s+)?(?:final\s+)?(struct|class|enum|protocol|actor)\s+([A-Za-z_]\w*)/#) {
                    kinds[String(match.output.2)] = String(match.output.1)
                }
            }
        }
        let alias = #/^public\s+typealias\s+(\w+)\s*=\s*([\w.]+)/#.anchorsMatchLineEndings()
        for text in project.sources["InkwellKit", default: [:]].values {
            for match in ArchitectureChecker.code(of: text).matches(of: alias) {
                let target = String(match.output.2.split(separator: ".").last ?? "")
                #expect(kinds[target] == "struct" || kinds[target] == "enum", "\(match.output.1) = \(match.output.2) is a \(kinds[target] ?? "type not found")")
            }
        }
    }

    @Test("dependencies point one way: the graph has no cycle")
    func noCycles() throws {
        let graph = try ArchitectureTests.declaredGraph()
        var state: [String: Bool] = [:]   // false: on the current path, true: done
        func visit(_ module: String, path: [String]) {
            if state[module] == true { return }
            if state[module] == false {
                Issue.record("cycle: \((path + [module]).joined(separator: " → "))")
                return
            }
            state[module] = false
            for next in graph[module, default: []].sorted() { visit(next, path: path + [module]) }
            state[module] = true
        }
        for module in graph.keys.sorted() { visit(module, path: []) }
    }
}
