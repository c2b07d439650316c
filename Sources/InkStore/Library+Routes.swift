import Foundation
import InkCore

/// A routing rule: a note in the Inbox that has every one of `tags` is filed into `notebook`.
public struct RouteRule: Sendable, Equatable {
    /// The tags a note must all have, sorted, at least one.
    public let tags: [Tag]
    public let notebook: NotebookPath

    public init(tags: Set<Tag>, notebook: NotebookPath) throws {
        guard !tags.isEmpty else { throw StoreError.invalid("a routing rule needs at least one tag, e.g. '#work'") }
        guard !notebook.isRoot else { throw StoreError.invalid("a routing rule must name a notebook, not the library root") }
        guard notebook != .inbox else { throw StoreError.invalid("a routing rule cannot file notes into the Inbox itself") }
        self.tags = tags.sorted()
        self.notebook = notebook
    }

    /// `'#work'`, or `'#work #q3'` for notes that have both tags (spaces or commas between them).
    public init(pattern: String, notebook: NotebookPath) throws {
        try self.init(tags: try RouteRule.tags(inPattern: pattern), notebook: notebook)
    }

    /// The tags of a pattern such as `#work #q3`; throws naming the word that is not a tag.
    public static func tags(inPattern pattern: String) throws -> Set<Tag> {
        let words = pattern.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" })
        var tags = Set<Tag>()
        for word in words {
            guard let tag = Tag(String(word)) else {
                throw StoreError.invalid("\"\(word)\" in the pattern \"\(pattern)\" is not a tag: use letters, digits, '-', '_' and '/'")
            }
            tags.insert(tag)
        }
        guard !tags.isEmpty else { throw StoreError.invalid("the pattern \"\(pattern)\" holds no tag; write e.g. '#work'") }
        return tags
    }

    /// The rule's tags as written in `route list`: `#q3 #work`.
    public var pattern: String { tags.map { "#" + $0.name }.joined(separator: " ") }

    /// True when a note with `noteTags` has every tag the rule asks for.
    public func matches(_ noteTags: Set<Tag>) -> Bool { tags.allSatisfy(noteTags.contains) }

    /// True when `earlier`, coming first, matches every note this rule matches, so this one never applies.
    public func isShadowed(by earlier: RouteRule) -> Bool { earlier.matches(Set(tags)) }
}

/// A note the routing rules filed (or, in a dry run, would file).
public struct RoutedNote: Sendable, Codable, Equatable {
    public var id: NoteID
    public var title: String
    public var from: String
    public var to: String
    /// The rule's number in `route list` (from 1).
    public var rule: Int
    public var pattern: String
}

/// `routes.json`: the rules in order, each as a pattern and a notebook, for people to read and edit.
private struct RoutesDocument: Codable {
    struct Entry: Codable {
        var match: String
        var notebook: String
    }

    var format: Int
    var rules: [Entry]
}

extension Library {
    var routesFile: URL { root.appendingPathComponent("routes.json") }

    /// The routing rules in order (the first rule a note matches files it); none when there is no `routes.json`.
    public func routeRules() throws -> [RouteRule] {
        guard FileManager.default.fileExists(atPath: routesFile.path) else { return [] }
        let document = try JSONFile.read(RoutesDocument.self, from: routesFile)
        guard document.format == 1 else {
            throw StoreError.badMetadata(routesFile, "format \(document.format) is newer than this inkwell reads (1)")
        }
        return try document.rules.enumerated().map { number, entry in
            do {
                return try RouteRule(pattern: entry.match, notebook: try NotebookPath(entry.notebook))
            } catch {
                throw StoreError.badMetadata(routesFile, "rule \(number + 1): \(error)")
            }
        }
    }

    /// Adds a rule at the end (so rules added earlier win); returns its number. A second rule for the
    /// same tags would never apply, so it is refused.
    @discardableResult
    public func addRouteRule(_ rule: RouteRule) throws -> Int {
        try withWriteLock {
            var rules = try routeRules()
            if let existing = rules.firstIndex(where: { $0.tags == rule.tags }) {
                throw StoreError.invalid("rule \(existing + 1) already files \(rule.pattern) into \(rules[existing].notebook); remove it first")
            }
            rules.append(rule)
            try writeRouteRules(rules)
            return rules.count
        }
    }

    /// Removes the rule with number `reference` (from 1) or with exactly the tags of the pattern `reference`.
    @discardableResult
    public func removeRouteRule(_ reference: String) throws -> RouteRule {
        try withWriteLock {
            var rules = try routeRules()
            let index: Int
            if let number = Int(reference) {
                guard number >= 1, number <= rules.count else {
                    throw StoreError.invalid("there is no routing rule \(number) (there \(rules.count == 1 ? "is 1" : "are \(rules.count)"))")
                }
                index = number - 1
            } else {
                let tags = try RouteRule.tags(inPattern: reference).sorted()
                guard let found = rules.firstIndex(where: { $0.tags == tags }) else {
                    throw StoreError.invalid("no routing rule matches \"\(reference)\"")
                }
                index = found
            }
            let removed = rules.remove(at: index)
            try writeRouteRules(rules)
            return removed
        }
    }

    private func writeRouteRules(_ rules: [RouteRule]) throws {
        let document = RoutesDocument(format: 1, rules: rules.map { .init(match: $0.pattern, notebook: $0.notebook.description) })
        try JSONFile.write(document, to: routesFile)
    }

    /// Files notes out of the Inbox by the routing rules: each note directly in the Inbox (of `only`,
    /// when given) moves to the notebook of the first rule whose tags it all has. Notes anywhere else,
    /// sub-notebooks of the Inbox included, were filed by hand and are never moved. Each move is one
    /// rename under the lock, after checking the note is still in the Inbox with the tags, so it is
    /// all or nothing per note. `dryRun` reports the moves without making them.
    public func applyRoutes(to only: Set<NoteID>? = nil, dryRun: Bool = false) throws -> [RoutedNote] {
        let rules = try routeRules()
        guard !rules.isEmpty else { return [] }
        func firstRule(for tags: Set<Tag>) -> Int? { rules.firstIndex { $0.matches(tags) } }
        var routed: [RoutedNote] = []
        for stored in try notes(in: .inbox, recursive: false) where only?.contains(stored.note.id) ?? true {
            guard let planned = firstRule(for: stored.note.tags) else { continue }
            if dryRun {
                routed.append(RoutedNote(id: stored.note.id, title: stored.note.title, from: NotebookPath.inbox.description,
                                         to: rules[planned].notebook.description, rule: planned + 1, pattern: rules[planned].pattern))
                continue
            }
            let moved: RoutedNote? = try withWriteLock {
                let current: StoredNote
                do {
                    current = try locateNote(stored.note.id)
                } catch StoreError.noSuchNote {
                    return nil // deleted meanwhile
                }
                guard current.notebook == .inbox, let number = firstRule(for: current.note.tags) else { return nil }
                let rule = rules[number]
                _ = try moveNoteUnlocked(current, to: rule.notebook)
                return RoutedNote(id: current.note.id, title: current.note.title, from: NotebookPath.inbox.description,
                                  to: rule.notebook.description, rule: number + 1, pattern: rule.pattern)
            }
            if let moved { routed.append(moved) }
        }
        return routed
    }
}
