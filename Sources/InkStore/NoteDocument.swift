import Foundation
import InkCore

/// `note.json`: a note's metadata as a person reads it, with keys and tags in a stable order.
struct NoteDocument: Codable {
    var format: Int
    var id: NoteID
    var title: String
    var created: Date
    var modified: Date
    var pinned: Bool
    var tags: [Tag]
    var removedTags: [Tag]
    var pages: [PageID]
    var source: String
    /// Where an imported note was read from (absent for notes written in Inkwell).
    var origin: NoteOrigin?

    init(_ note: Note) {
        format = 1
        id = note.id
        title = note.title
        created = note.created
        modified = note.modified
        pinned = note.pinned
        tags = note.tags.sorted()
        removedTags = note.removedTags.sorted()
        pages = note.pages
        source = note.source
        origin = note.origin
    }

    enum CodingKeys: String, CodingKey {
        case format, id, title, created, modified, pinned, tags, removedTags, pages, source, origin
    }

    /// Reads `note.json`; a file written before a key existed gets that key's default
    /// (`source`: `unknown`, tag lists: empty), so older libraries open unchanged.
    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decode(Int.self, forKey: .format)
        id = try container.decode(NoteID.self, forKey: .id)
        title = try container.decode(String.self, forKey: .title)
        created = try container.decode(Date.self, forKey: .created)
        modified = try container.decodeIfPresent(Date.self, forKey: .modified) ?? created
        pinned = try container.decodeIfPresent(Bool.self, forKey: .pinned) ?? false
        tags = try container.decodeIfPresent([Tag].self, forKey: .tags) ?? []
        removedTags = try container.decodeIfPresent([Tag].self, forKey: .removedTags) ?? []
        pages = try container.decode([PageID].self, forKey: .pages)
        source = try container.decodeIfPresent(String.self, forKey: .source) ?? NoteDocument.unknownSource
        // Ids name files and folders: one that is not an Inkwell id (a path, a separator, `..`) could
        // lead a page read or a compaction outside the note's folder, so the metadata is refused.
        guard NoteID.isWellFormed(id.rawValue) else {
            throw DecodingError.dataCorruptedError(forKey: .id, in: container, debugDescription: "\"\(id.rawValue)\" is not a note id")
        }
        if let page = pages.first(where: { !PageID.isWellFormed($0.rawValue) }) {
            throw DecodingError.dataCorruptedError(forKey: .pages, in: container, debugDescription: "\"\(page.rawValue)\" is not a page id")
        }
        origin = try container.decodeIfPresent(NoteOrigin.self, forKey: .origin)
        if let origin, let problem = NoteDocument.problem(with: origin) {
            throw DecodingError.dataCorruptedError(forKey: .origin, in: container, debugDescription: problem)
        }
    }

    /// The longest origin key (a path) and page key kept, in bytes.
    static let maxOriginKeyBytes = 4096, maxOriginPageKeyBytes = 256
    /// The most source pages an origin lists.
    static let maxOriginPages = 100_000

    /// What is wrong with an origin read from `note.json`, if anything: a key that is empty, too long or
    /// holds a NUL (a file's path may hold any other byte, control characters included), a hash that is not 16 lowercase hex digits, a page id that is not one.
    /// An origin decides which note an import overwrites, so a doubtful one is refused, not guessed at.
    static func problem(with origin: NoteOrigin) -> String? {
        func badKey(_ key: String, limit: Int) -> Bool {
            key.isEmpty || key.utf8.count > limit || key.utf8.contains(0)
        }
        func badHash(_ hash: String) -> Bool {
            hash.utf8.count != 16 || !hash.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
        }
        if badKey(origin.key, limit: maxOriginKeyBytes) { return "the key is empty, longer than \(maxOriginKeyBytes) bytes or holds a NUL" }
        if badHash(origin.hash) { return "hash \"\(origin.hash.prefix(40))\" is not 16 lowercase hex digits" }
        if let location = origin.location, badKey(location, limit: maxOriginKeyBytes) || !location.hasPrefix("/") {
            return "the location is not an absolute path of at most \(maxOriginKeyBytes) bytes"
        }
        if origin.pages.count > maxOriginPages { return "more than \(maxOriginPages) source pages" }
        for (index, page) in origin.pages.enumerated() {
            if badKey(page.key, limit: maxOriginPageKeyBytes) { return "page \(index + 1): the key is empty, longer than \(maxOriginPageKeyBytes) bytes or holds a NUL" }
            if badHash(page.hash) || page.imported.map(badHash) == true { return "page \(index + 1): a hash is not 16 lowercase hex digits" }
            if let id = page.page, !PageID.isWellFormed(id.rawValue) { return "page \(index + 1): \"\(id.rawValue.prefix(40))\" is not a page id" }
        }
        return nil
    }

    /// The source of a note whose `note.json` does not say where it came from.
    static let unknownSource = "unknown"

    var note: Note {
        Note(id: id, title: title, created: created, modified: modified, pinned: pinned,
             tags: Set(tags), removedTags: Set(removedTags), pages: pages, source: source, origin: origin)
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}

/// A JSON file written atomically and read with a clear error naming it.
enum JSONFile {
    static func write<T: Encodable>(_ value: T, to url: URL) throws {
        let data = try NoteDocument.encoder.encode(value)
        try DurableFile.replace(url, with: [UInt8](data) + [0x0A])
    }

    static func read<T: Decodable>(_ type: T.Type, from url: URL) throws -> T {
        let bytes = try DurableFile.read(url)
        do {
            return try NoteDocument.decoder.decode(T.self, from: Data(bytes))
        } catch {
            throw StoreError.badMetadata(url, "not valid metadata: \(JSONFile.reason(error))")
        }
    }

    /// What is wrong with a file a decoder refused, in words: where (the key path) and why.
    static func reason(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        let context: DecodingError.Context
        switch error {
        case .dataCorrupted(let c), .keyNotFound(_, let c), .typeMismatch(_, let c), .valueNotFound(_, let c): context = c
        @unknown default: return "\(error)"
        }
        let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        let why: String
        if case .keyNotFound(let key, _) = error { why = "key \"\(key.stringValue)\" is missing" } else { why = context.debugDescription }
        return path.isEmpty ? why : "\(path.dropFirst(path.hasPrefix(".") ? 1 : 0)): \(why)"
    }
}

extension Date {
    /// This date without its fraction of a second, as `note.json` stores it.
    public var wholeSeconds: Date { Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.down)) }
}
