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
