import Foundation
import InkInterchange

/// The recording formats Inkwell reads, recognised by content (the extension is only a hint).
public enum RecordingFormat: String, Sendable, CaseIterable {
    case replayLog = "jsonl"

    /// File extensions worth trying when importing a whole folder.
    public static let knownExtensions: Set<String> = ["jsonl"]

    /// Recognises `data`; nil when it is none of the formats.
    public static func detect(_ data: Data) -> RecordingFormat? {
        let head = data.prefix(4096)
        guard let first = head.first(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }) else { return nil }
        if first == UInt8(ascii: "{") { return .replayLog }
        return nil
    }

    /// Decodes `data` in this format.
    public func decode(_ data: Data, file: String) throws(ImportError) -> Recording {
        switch self {
        case .replayLog: try ReplayLogDecoder.decode(data, file: file)
        }
    }
}
