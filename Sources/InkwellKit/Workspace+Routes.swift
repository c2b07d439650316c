import Foundation
import InkCore
import InkStore
import InkWorkspace

/// A note the routing rules filed (or, in a dry run, would file): its id, title, the notebooks it
/// went from and to, and the rule. A plain value; front ends print it with ``line`` or as JSON.
public typealias Routing = RoutedNote

extension RoutedNote {
    /// `moved k3m9x2q7a1bc "Standup" Inbox → Work/Meetings (rule 1: #work)`
    public var line: String { line(verb: "moved") }

    /// The same line with another verb (`would move` for a dry run).
    public func line(verb: String) -> String { "\(verb) \(id) \"\(title)\" \(from) → \(to) (rule \(rule): \(pattern))" }
}

/// A routing rule as `route list` shows it.
public struct RouteEntry: Sendable, Equatable {
    /// Its number in the list (from 1): the first rule a note matches files it.
    public var number: Int
    /// `#work #q3`
    public var pattern: String
    public var tags: [Tag]
    public var notebook: NotebookPath

    init(_ rule: RouteRule, number: Int) {
        self.number = number
        pattern = rule.pattern
        tags = rule.tags
        notebook = rule.notebook
    }
}

/// The routing rules: hashtags → notebook, first added wins.
extension Workspace {
    /// The rules in the order they apply.
    public func routeRules() throws -> [RouteEntry] {
        try library.routeRules().enumerated().map { RouteEntry($0.element, number: $0.offset + 1) }
    }

    /// Adds a rule filing notes with every tag of `pattern` (`#work` or `#work #q3`) into `notebook`;
    /// the rule as added, and an earlier rule that matches every note this one does (so this one never
    /// applies), if there is one.
    public func addRouteRule(pattern: String, notebook: NotebookPath) throws -> (rule: RouteEntry, shadowedBy: RouteEntry?) {
        let rule = try RouteRule(pattern: pattern, notebook: notebook)
        let number = try library.addRouteRule(rule)
        let rules = try library.routeRules()
        let earlier = rules.prefix(number - 1).firstIndex(where: rule.isShadowed)
        return (RouteEntry(rule, number: number), earlier.map { RouteEntry(rules[$0], number: $0 + 1) })
    }

    /// Fails, saying why, when `pattern` and `notebook` do not make a rule (no tag, the Inbox, the root).
    public static func checkRouteRule(pattern: String, notebook: NotebookPath) throws {
        _ = try RouteRule(pattern: pattern, notebook: notebook)
    }

    /// Removes a rule by its number or its pattern; the rule removed.
    public func removeRouteRule(_ reference: String) throws -> RouteEntry {
        let before = try library.routeRules()
        let removed = try library.removeRouteRule(reference)
        return RouteEntry(removed, number: (before.firstIndex(of: removed) ?? 0) + 1)
    }

    /// Files every Inbox note a rule matches (with `dryRun`, only says what would move).
    public func applyRoutes(dryRun: Bool) throws -> [Routing] {
        try library.applyRoutes(dryRun: dryRun)
    }
}
