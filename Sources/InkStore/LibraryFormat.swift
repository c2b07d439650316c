import Foundation

/// What `inkwell-library.json` says about a library's folder: which format it is in and which
/// programs may read it, so that an older Inkwell refuses a newer library instead of
/// half-understanding it.
///
/// A library in ``format`` can be read by every program that knows format ``minReader`` or later,
/// and written only by programs that know ``format`` itself. A marker that cannot be read refuses
/// the library: nothing is assumed about a folder Inkwell cannot identify.
///
/// | format | what it adds | read by | written by |
/// |---|---|---|---|
/// | 1 | the library | 0.1.0 | 0.1.0 |
/// | 2 | page chunks a format-1 writer would drop when it rewrites a page (`PTXT` printed text, `LAYR` layers, `FILL` fills, `DASH` dashes, `PBKG` PDF backgrounds) and a note's `backgrounds/` PDFs | 0.1.0 (it draws those pages plain) | 0.2.0 |
///
/// An older library is read as it is and written only after ``Library/upgrade()``, which says what it
/// changes and keeps a copy of the marker it replaces.
public struct LibraryFormat: Sendable, Equatable, Codable {
    /// The format this build writes, and the newest it reads.
    public static let current = 2
    /// The oldest format a library written by this build can be read with: format-1 readers skip the
    /// chunks format 2 adds (and must not write: ``isWritable``).
    static let currentMinReader = 1
    /// The first Inkwell release that reads each format this build knows, for messages.
    static let firstReader = [1: "0.1.0", 2: "0.2.0"]

    public var format: Int
    /// The oldest format a reader must know to read this library.
    public var minReader: Int
    /// The first Inkwell release that can read it (`this library needs Inkwell ≥ …`).
    public var minReaderVersion: String
    public var created: Date?

    /// A marker for a new library in the current format.
    static func new(created: Date) -> LibraryFormat {
        LibraryFormat(format: current, minReader: currentMinReader, minReaderVersion: firstReader[currentMinReader] ?? "?", created: created)
    }

    init(format: Int, minReader: Int, minReaderVersion: String, created: Date?) {
        self.format = format
        self.minReader = minReader
        self.minReaderVersion = minReaderVersion
        self.created = created
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decode(Int.self, forKey: .format)
        // Format 1 markers were written before minReader existed: they need format 1 to be read.
        minReader = try container.decodeIfPresent(Int.self, forKey: .minReader) ?? format
        minReaderVersion = try container.decodeIfPresent(String.self, forKey: .minReaderVersion)
            ?? LibraryFormat.firstReader[minReader] ?? "a release that reads format \(minReader)"
        created = try container.decodeIfPresent(Date.self, forKey: .created)
    }

    /// True when this build may read the library.
    public var isReadable: Bool { minReader <= LibraryFormat.current && format >= 1 }
    /// True when this build may write into the library.
    public var isWritable: Bool { format == LibraryFormat.current }
    /// True when the library is in an older format, which ``Library/upgrade()`` brings to this build's.
    public var needsUpgrade: Bool { format < LibraryFormat.current }

    /// Reads the marker of the library at `root`, refusing one this build cannot read.
    static func read(libraryAt root: URL) throws -> LibraryFormat {
        let url = root.appendingPathComponent(Library.markerName)
        guard FileManager.default.fileExists(atPath: url.path) else { throw StoreError.notALibrary(root) }
        let bytes = try DurableFile.read(url)
        let marker: LibraryFormat
        do {
            marker = try NoteDocument.decoder.decode(LibraryFormat.self, from: Data(bytes))
        } catch {
            throw StoreError.unsupportedLibrary(root, "its marker \(Library.markerName) cannot be read (\(LibraryFormat.reason(error))); "
                + "it may be damaged or from a newer Inkwell, so nothing is read or written")
        }
        guard marker.isReadable else {
            throw StoreError.unsupportedLibrary(root, "this library needs Inkwell ≥ \(marker.minReaderVersion) (format \(marker.format)); "
                + "this Inkwell reads format \(LibraryFormat.current)")
        }
        return marker
    }

    /// Why a marker would not decode, in a few words.
    private static func reason(_ error: Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): "no \"\(key.stringValue)\""
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "\"\(context.codingPath.map(\.stringValue).joined(separator: "."))\" is not what it should be"
        case DecodingError.dataCorrupted: "not JSON"
        default: "\(error)"
        }
    }
}
