import Foundation

/// The rules of docs/architecture.md that can be read off the sources, as a function of the project's
/// text, so that a test can also feed it a planted violation and see it reported.
///
/// 1. Every `import X` of every target (sources and tests) names a toolchain module or a dependency
///    the target declares in Package.swift (a project target or a package product): nothing is
///    reached through another module's dependencies.
/// 2. A front end (`inkwell`, `InkServe`) names no type of the modules behind InkwellKit (the adapters
///    and the pure modules InkwellKit does not re-export): it reaches them through the workspace.
struct ArchitectureChecker {
    /// Target → what it declares it depends on (target and product names).
    var declared: [String: Set<String>]
    /// Target → its Swift files (path → text).
    var sources: [String: [String: String]]
    /// The front-end targets.
    var frontEnds: Set<String>
    /// Type name → the module behind InkwellKit that declares it.
    var hiddenTypes: [String: String]

    /// Modules that come with the toolchain, which no target declares.
    static let toolchain: Set<String> = ["Foundation", "FoundationEssentials", "FoundationNetworking", "FoundationXML", "Glibc", "Musl",
                                         "Darwin", "Dispatch", "Testing", "XCTest", "Synchronization", "RegexBuilder", "Observation",
                                         "_Concurrency", "os", "WinSDK", "ucrt", "Android"]

    /// Everything that breaks the rules, one line each (empty when none does).
    func violations() -> [String] {
        var found: [String] = []
        for (target, files) in sources.sorted(by: { $0.key < $1.key }) {
            let allowed = declared[target, default: []].union(Self.toolchain).union([target])
            for (path, text) in files.sorted(by: { $0.key < $1.key }) {
                let code = Self.code(of: text)
                for module in Self.imports(in: code).sorted() where !allowed.contains(module) {
                    found.append("\(path): imports \(module), which \(target) does not declare in Package.swift")
                }
                guard frontEnds.contains(target) else { continue }
                for name in Self.identifiers(in: code).intersection(hiddenTypes.keys).sorted() {
                    found.append("\(path): names \(name) of \(hiddenTypes[name]!), which front ends reach through InkwellKit only")
                }
            }
        }
        return found
    }

    // MARK: Reading Swift

    /// The modules `code` imports (`import X`, `@testable import X`, `import struct X.Y`, `internal import X` …).
    static func imports(in code: String) -> Set<String> {
        let statement = #/^[ \t]*(?:@\w+(?:\([^)\n]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+(?:(?:struct|class|enum|protocol|typealias|func|var|let)\s+)?([A-Za-z_]\w*)/#
            .anchorsMatchLineEndings()
        return Set(code.matches(of: statement).map { String($0.output.1) })
    }

    /// The top-level public types `code` declares (nested ones are named through these).
    static func publicTypes(in code: String) -> [(name: String, kind: String)] {
        let declaration = #/^public\s+(?:final\s+)?(struct|class|enum|protocol|actor|typealias)\s+([A-Za-z_]\w*)/#.anchorsMatchLineEndings()
        return code.matches(of: declaration).map { (String($0.output.2), String($0.output.1)) }
    }

    /// Every word of `code` that could be an identifier.
    static func identifiers(in code: String) -> Set<String> {
        Set(code.matches(of: #/\b[A-Za-z_]\w*\b/#).map { String($0.output) })
    }

    /// `text` without its comments and the contents of its string literals (each replaced by spaces,
    /// newlines kept, so lines stay where they were); interpolations inside strings stay, being code.
    static func code(of text: String) -> String {
        var stripper = Stripper(bytes: Array(text.utf8))
        stripper.code(untilParenthesis: false)
        return String(decoding: stripper.out, as: UTF8.self)
    }

    /// Works on UTF-8 bytes: every delimiter is ASCII, and a blanked multi-byte character becomes spaces.
    private struct Stripper {
        static let lineComment = Array("//".utf8), blockOpen = Array("/*".utf8), blockClose = Array("*/".utf8)
        static let rawQuote = Array("#\"".utf8), rawQuote2 = Array("##\"".utf8), tripleQuote = Array("\"\"\"".utf8)

        let bytes: [UInt8]
        var i = 0
        var out: [UInt8] = []

        init(bytes: [UInt8]) {
            self.bytes = bytes
            out.reserveCapacity(bytes.count)
        }

        func starts(_ s: [UInt8]) -> Bool {
            guard i + s.count <= bytes.count else { return false }
            for k in 0..<s.count where bytes[i + k] != s[k] { return false }
            return true
        }

        func at(_ byte: Character) -> Bool { i < bytes.count && bytes[i] == byte.asciiValue! }

        mutating func blank(_ count: Int = 1) {
            for _ in 0..<count where i < bytes.count {
                out.append(bytes[i] == 10 ? 10 : 32)
                i += 1
            }
        }

        /// Code, up to the end or (`untilParenthesis`: an interpolation) the `)` that closes it.
        mutating func code(untilParenthesis: Bool) {
            var depth = 0
            while i < bytes.count {
                if starts(Self.lineComment) {
                    while i < bytes.count && !at("\n") { blank() }
                } else if starts(Self.blockOpen) {
                    var nesting = 0
                    repeat {
                        if starts(Self.blockOpen) {
                            nesting += 1
                            blank(2)
                        } else if starts(Self.blockClose) {
                            nesting -= 1
                            blank(2)
                        } else {
                            blank()
                        }
                    } while nesting > 0 && i < bytes.count
                } else if at("\"") || starts(Self.rawQuote) || starts(Self.rawQuote2) {
                    string()
                } else {
                    if untilParenthesis && at("(") { depth += 1 }
                    if untilParenthesis && at(")") {
                        if depth == 0 { return }
                        depth -= 1
                    }
                    out.append(bytes[i])
                    i += 1
                }
            }
        }

        /// A string literal, plain or raw, one line or several.
        mutating func string() {
            var hashes = 0
            while at("#") {
                hashes += 1
                blank()
            }
            let quotes = starts(Self.tripleQuote) ? 3 : 1
            blank(quotes)
            let close = Array((String(repeating: "\"", count: quotes) + String(repeating: "#", count: hashes)).utf8)
            let escape = Array(("\\" + String(repeating: "#", count: hashes)).utf8)
            let interpolation = escape + Array("(".utf8)
            while i < bytes.count {
                if starts(close) { return blank(close.count) }
                if starts(interpolation) {
                    blank(interpolation.count)
                    code(untilParenthesis: true)
                    blank()
                } else if starts(escape) {
                    blank(escape.count + 1)
                } else if quotes == 1 && at("\n") {
                    return
                } else {
                    blank()
                }
            }
        }
    }

    // MARK: Reading the project

    /// The project as it is on disk under `root`.
    static func project(at root: URL) throws -> ArchitectureChecker {
        let package = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let targets = try targets(in: package)
        var sources: [String: [String: String]] = [:]
        for (name, target) in targets {
            sources[name] = try swiftFiles(under: root.appendingPathComponent(target.path), relativeTo: root)
        }
        // Behind the door: what InkwellKit depends on, but for the modules it re-exports whole; the
        // single types it re-exports (`@_exported import struct M.T`) may be named.
        let exports = try String(contentsOf: root.appendingPathComponent("Sources/InkwellKit/Exports.swift"), encoding: .utf8)
        let reexported = reexports(in: exports)
        var hidden: [String: String] = [:]
        for module in targets["InkwellKit", default: Target(path: "", dependencies: [])].dependencies
        where targets[module] != nil && !reexported.modules.contains(module) {
            for file in sources[module, default: [:]].values {
                for type in publicTypes(in: code(of: file)) where !reexported.types.contains(type.name) { hidden[type.name] = module }
            }
        }
        return ArchitectureChecker(declared: targets.mapValues(\.dependencies), sources: sources, frontEnds: ["inkwell", "InkServe"],
                                   hiddenTypes: hidden)
    }

    struct Target {
        var path: String
        var dependencies: Set<String>
    }

    /// Every target of Package.swift: its folder and the names in its `dependencies:` (targets and products).
    static func targets(in package: String) throws -> [String: Target] {
        let start = #/\.(target|executableTarget|testTarget|systemLibrary)\(\s*name:\s*"([^"]+)"/#
        let matches = package.matches(of: start)
        var targets: [String: Target] = [:]
        for (index, match) in matches.enumerated() {
            let end = index + 1 < matches.count ? matches[index + 1].range.lowerBound : package.endIndex
            let chunk = package[match.range.lowerBound..<end]
            let name = String(match.output.2)
            var dependencies: Set<String> = []
            if let list = chunk.firstMatch(of: #/dependencies:\s*\[([^\]]*)\]/#) {
                dependencies = Set(list.output.1.matches(of: #/"([^"]+)"/#).map { String($0.output.1) })
            }
            let path = chunk.firstMatch(of: #/path:\s*"([^"]+)"/#).map { String($0.output.1) }
                ?? (match.output.1 == "testTarget" ? "Tests/\(name)" : "Sources/\(name)")
            targets[name] = Target(path: path, dependencies: dependencies)
        }
        return targets
    }

    /// What an `Exports.swift` re-exports: whole modules, and single types (only structs and enums:
    /// values) with the modules they come from.
    static func reexports(in text: String) -> (modules: Set<String>, types: Set<String>, typeKinds: [String: String]) {
        let code = code(of: text)
        let whole = #/^@_exported\s+import\s+([A-Za-z_]\w*)\s*$/#.anchorsMatchLineEndings()
        let single = #/^@_exported\s+import\s+(struct|class|enum|protocol|typealias|func|var|let)\s+[A-Za-z_]\w*\.([A-Za-z_]\w*)/#.anchorsMatchLineEndings()
        let types = code.matches(of: single).map { (String($0.output.2), String($0.output.1)) }
        return (Set(code.matches(of: whole).map { String($0.output.1) }), Set(types.map(\.0)),
                Dictionary(types, uniquingKeysWith: { a, _ in a }))
    }

    static func swiftFiles(under folder: URL, relativeTo root: URL) throws -> [String: String] {
        var files: [String: String] = [:]
        let found = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        for file in found where file.pathExtension == "swift" {
            let path = file.standardizedFileURL.path.replacingOccurrences(of: root.standardizedFileURL.path + "/", with: "")
            files[path] = try String(contentsOf: file, encoding: .utf8)
        }
        return files
    }
}
