import Foundation

/// Something a source held that an import, sync or export did not keep as it was: skipped, mapped to
/// something else, clipped or left unplaced; the file it was in, the page (from 1, when the loss is a
/// page's) and why. Every import, sync and export reports these, and an imported note keeps the list
/// of its last import (``NoteOrigin/notKept``), so that nothing is lost without saying so.
public struct NotKept: Sendable, Hashable, Codable, CustomStringConvertible {
    public var file: String
    public var page: Int?
    public var reason: String

    public init(file: String, page: Int? = nil, reason: String) {
        self.file = file
        self.page = page
        self.reason = reason
    }

    /// A line naming the file and the page: `FILE: page N: REASON` (`FILE: REASON` without a page).
    public var description: String {
        let place = page.map { "page \($0): " } ?? ""
        return file.isEmpty ? place + reason : "\(file): \(place)\(reason)"
    }

    /// `warning`, a line as decoders write them (`FILE: REASON`, or a page's own file first), as an item of
    /// the file it names: `file` when the line does not start with a path and ": ".
    public init(warning: String, file: String, page: Int? = nil) {
        self.page = page
        if warning.hasPrefix("/"), let colon = warning.range(of: ": ") {
            self.file = String(warning[..<colon.lowerBound])
            self.reason = String(warning[colon.upperBound...])
        } else if warning.hasPrefix(file + ": ") {
            self.file = file
            self.reason = String(warning.dropFirst(file.count + 2))
        } else {
            self.file = file
            self.reason = warning
        }
    }
}
