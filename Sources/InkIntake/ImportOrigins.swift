import Foundation
import InkCore
import InkInterchange
import InkStore

/// The identity of what an import reads (``NoteOrigin``), found without decoding anything: a
/// reMarkable notebook (`UUID.content`) is its document UUID, any other file its absolute path; the
/// hash covers every byte the decoder would read, so an equal hash means nothing to do.
public enum SourceIdentity {
    /// The origin of the source `url` names, without its pages (the decoder tells them). A document's
    /// `.metadata` given with its `.content` beside it names that document, as its import reads it.
    /// With `hashes`, a file whose stamp is the one kept is not read again (``SourceHashes``).
    static func of(_ url: URL, hashes: SourceHashes?) throws(ImportError) -> NoteOrigin {
        let url = url.standardizedFileURL
        let content = url.deletingPathExtension().appendingPathExtension("content")
        switch url.pathExtension.lowercased() {
        case "content":
            return NoteOrigin(kind: .remarkable, key: url.deletingPathExtension().lastPathComponent,
                              hash: try remarkableHash(url, hashes: hashes), location: url.path)
        case "metadata" where RawPath.kind(of: content) == .file:
            return try of(content, hashes: hashes)
        default: break
        }
        return NoteOrigin(kind: .file, key: url.path, hash: try hash(url, hashes), location: url.path)
    }

    /// The origin of the source `url` names (``of(_:hashes:)``), reading every byte.
    package static func of(_ url: URL) throws(ImportError) -> NoteOrigin {
        try of(url, hashes: nil)
    }

    /// The origin of bytes with no path to know them by (standard input, staged in `url`): keyed by
    /// their hash, so the same bytes again are the same source, and other bytes a new one. It has no
    /// location: the staging file is gone once the import is done.
    package static func ofContent(_ url: URL) throws(ImportError) -> NoteOrigin {
        let hash = try hash(url, nil)
        return NoteOrigin(kind: .file, key: "stdin:" + hash, hash: hash)
    }

    /// The hash of a reMarkable document: its `.content`, and beside it its `.metadata`, `.pagedata`,
    /// PDF and EPUB, and the files of its page folder (each with its name, so a page renamed counts).
    /// Thumbnails are left out: the tablet redraws them, and they show nothing an import keeps.
    static func remarkableHash(_ content: URL, hashes: SourceHashes?) throws(ImportError) -> String {
        let hashes = hashes ?? SourceHashes()
        // Worked on as path strings: a backup has thousands of files, and a URL is slow to extend.
        let contentPath = content.path
        let base = String(contentPath.dropLast(".content".count)) // its extension is "content", in any case
        var parts: [UInt8] = Array(try hash(content, hashes).utf8)
        for ext in ["metadata", "pagedata", "pdf", "epub"] {
            guard let hash = try hashes.hash(atPath: base + "." + ext) else { continue }
            parts += Array("\(ext):\(hash)".utf8)
        }
        for name in SourceHashes.names(in: base).sorted() where !name.hasPrefix(".") {
            // Folders inside it are left out.
            guard let hash = try hashes.hash(atPath: base + "/" + name) else { continue }
            parts += Array("\(name):\(hash)".utf8)
        }
        return FNV1a.hex(parts)
    }

    /// The hash of the file `url`, which must be there (read again unless `hashes` kept it).
    private static func hash(_ url: URL, _ hashes: SourceHashes?) throws(ImportError) -> String {
        guard let hash = try (hashes ?? SourceHashes()).hash(atPath: url.path) else {
            throw ImportError(file: url.path, reason: RawPath.kind(of: url) == .folder ? "a folder, not a file" : "no such file")
        }
        return hash
    }

    /// The origin of the `index`th note read from `url` (its identity `file`): the decoder's (a
    /// reMarkable document's UUID and pages) or the file's, the pages then keyed by number and hashed
    /// from their decoded content (a file does not tell its pages apart more cheaply).
    static func origin(of recorded: RecordedNote, index: Int, file: NoteOrigin) -> NoteOrigin {
        var origin = recorded.origin ?? NoteOrigin(kind: .file, key: file.key, hash: file.hash)
        if recorded.origin == nil {
            if index > 0 { origin.key += "#\(index + 1)" }
            origin.pages = pageHashes(recorded.events).enumerated().map { OriginPage(key: "\($0.offset + 1)", hash: $0.element) }
        }
        // The hash is of everything the source was read from (a document's files, from ``of(_:)``).
        origin.hash = file.hash
        origin.location = file.location
        return origin
    }

    /// A hash of each page's events as the replay makes pages of them (a new page starts at each
    /// `newPage`, or at the first stroke when none came before), leaving times out: a file whose
    /// times are counted across the document (Xournal++) does not change every later page when one
    /// page gains a stroke.
    static func pageHashes(_ events: [RecordedEvent]) -> [String] {
        var pages: [[UInt8]] = []
        func append<T>(_ value: T) {
            withUnsafeBytes(of: value) { pages[pages.count - 1] += $0 }
        }
        func point(_ p: RecordedPoint) {
            append(p.x.bitPattern)
            append(p.y.bitPattern)
            append(p.pressure.bitPattern)
            pages[pages.count - 1] += Array("\(p.tilt.map { "\($0)" } ?? "")".utf8)
        }
        for event in events {
            if case .newPage = event { pages.append([]) } else if pages.isEmpty { pages.append([]) }
            switch event {
            case let .newPage(size, template, _): pages[pages.count - 1] += Array("page \(size) \(template)".utf8)
            case let .penDown(p, pen, _):
                pages[pages.count - 1] += Array("down \(pen)".utf8)
                point(p)
            case let .penMove(p, _):
                pages[pages.count - 1].append(0x4D)
                point(p)
            case let .penUp(p, _):
                pages[pages.count - 1].append(0x55)
                if let p { point(p) }
            case .undo: pages[pages.count - 1].append(0x5A)
            case .redo: pages[pages.count - 1].append(0x59)
            case let .tap(x, y, count, _): pages[pages.count - 1] += Array("tap \(x) \(y) \(count)".utf8)
            }
        }
        return pages.map(FNV1a.hex)
    }
}

/// The notes of a library that remember a source, by source (kind and key), taken once per import.
package struct OriginIndex: Sendable {
    private var byKey: [String: StoredNote] = [:]
    private var trashedByKey: [String: TrashItem] = [:]

    /// Every note outside the trash with an origin. Should two notes name one source (two libraries
    /// merged by hand), the one imported first is the one kept in step.
    package init(_ library: Library) throws {
        for stored in try library.notes().sorted(by: { $0.note.created < $1.note.created }) {
            guard let origin = stored.note.origin else { continue }
            let key = OriginIndex.key(origin)
            if byKey[key] == nil { byKey[key] = stored }
        }
        for (item, origin) in try library.trashedOrigins() where trashedByKey[OriginIndex.key(origin)] == nil {
            trashedByKey[OriginIndex.key(origin)] = item
        }
    }

    /// The trash entry holding the note imported from `origin`'s source, when the user (or the
    /// source's own trash, or a sync) put it there and no note outside the trash has that source.
    package func trashed(_ origin: NoteOrigin) -> TrashItem? {
        byKey[OriginIndex.key(origin)] == nil ? trashedByKey[OriginIndex.key(origin)] : nil
    }

    /// The notes imported from sources read at `location` or inside it (a folder).
    package func notes(under location: String) -> [StoredNote] {
        let folder = location.hasSuffix("/") ? location : location + "/"
        return byKey.values.filter { ($0.note.origin?.location).map { $0 == location || $0.hasPrefix(folder) } ?? false }
            .sorted { ($0.note.origin?.location ?? "", $0.note.created) < ($1.note.origin?.location ?? "", $1.note.created) }
    }

    /// The note imported from `origin`'s source, if any.
    package func note(for origin: NoteOrigin) -> StoredNote? { byKey[OriginIndex.key(origin)] }

    /// The notes imported from the source a file's identity names (a file with several notes: all of them).
    package func notes(forFile origin: NoteOrigin) -> [StoredNote] {
        guard let first = note(for: origin) else { return [] }
        guard origin.kind == .file else { return [first] }
        var notes = [first], index = 2
        while let next = byKey[OriginIndex.key(NoteOrigin(kind: .file, key: origin.key + "#\(index)", hash: origin.hash))] {
            notes.append(next)
            index += 1
        }
        return notes
    }

    private static func key(_ origin: NoteOrigin) -> String { origin.kind.rawValue + ":" + origin.key }
}
