import Foundation

/// The recording formats Inkwell reads, recognised by content (the extension is only a hint).
public enum RecordingFormat: String, Sendable, CaseIterable {
    case replayLog = "jsonl"
    case inkml
    case remarkable = "rm"
    /// A reMarkable notebook: its `.content` file, with the pages in the folder beside it.
    case remarkableNotebook = "content"
    case xournal = "xopp"
    /// An Rnote document (gzip-compressed JSON).
    case rnote

    /// File extensions worth trying when importing a whole folder (explicitly named files are tried
    /// whatever their extension: `.xml` InkML from Office, for example).
    public static let knownExtensions: Set<String> = ["jsonl", "inkml", "rm", "content", "xopp", "xoj", "rnote"]

    /// Why a file that is none of the formats is refused.
    public static let notARecording = "not a recording Inkwell can read (expected an Inkwell replay log, InkML, a reMarkable .rm page (version 3, 5 or 6) or notebook .content, a Xournal++ .xopp / .xoj file, or an Rnote .rnote document)"

    /// Recognises `data`; nil when it is none of the formats.
    public static func detect(_ data: Data) -> RecordingFormat? {
        var start = data.startIndex
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }
        let head = data[start...].prefix(4096)
        if head.starts(with: Array("reMarkable .lines file".utf8)) { return .remarkable }
        if head.starts(with: [0x1F, 0x8B]) {
            // gzip: look inside (a little is enough, and a bomb cannot hurt here).
            guard let inner = ContainerSniffer.gunzipPrefix(data) else { return nil }
            if inner.first(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }) == UInt8(ascii: "{") {
                return .rnote
            }
            return xmlFormat(inner)
        }
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return .xournal } // zip: packaged .xopp
        guard let first = head.first(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }) else {
            return utf16XML(data)
        }
        if first == UInt8(ascii: "{") {
            return RemarkableNotebook.looksLikeContent(data) ? .remarkableNotebook : .replayLog
        }
        if first == UInt8(ascii: "<") { return xmlFormat(data[start...]) }
        return utf16XML(data)
    }

    /// InkML or Xournal, by the name of the XML document's root element.
    static func xmlFormat(_ data: Data) -> RecordingFormat? {
        guard let name = rootElement(data.prefix(65536)) else { return nil }
        let local = name.split(separator: ":").last.map(String.init) ?? name
        switch local {
        case "ink": return .inkml
        case "xournal", "MrWriter": return .xournal
        default: return nil
        }
    }

    /// InkML saved as UTF-16 (with a byte order mark).
    static func utf16XML(_ data: Data) -> RecordingFormat? {
        let bom = data.prefix(2)
        guard bom.elementsEqual([0xFF, 0xFE]) || bom.elementsEqual([0xFE, 0xFF]) else { return nil }
        guard let text = String(data: data.prefix(65536), encoding: bom.first == 0xFF ? .utf16LittleEndian : .utf16BigEndian) else { return nil }
        return xmlFormat(Data(text.utf8))
    }

    /// The first element's name, past the XML declaration, processing instructions, comments and a doctype.
    static func rootElement(_ data: Data) -> String? {
        let bytes = [UInt8](data)
        var i = 0
        while i < bytes.count {
            guard let open = bytes[i...].firstIndex(of: UInt8(ascii: "<")) else { return nil }
            let next = open + 1
            guard next < bytes.count else { return nil }
            let c = bytes[next]
            if c == UInt8(ascii: "?") || c == UInt8(ascii: "!") {
                if bytes[next...].starts(with: Array("!--".utf8)) {
                    guard let end = bytes[next...].firstRange(of: Array("-->".utf8)) else { return nil }
                    i = end.upperBound
                } else {
                    i = next
                }
                continue
            }
            var end = next
            while end < bytes.count, !(bytes[end] == 0x20 || bytes[end] == 0x09 || bytes[end] == 0x0A || bytes[end] == 0x0D
                                       || bytes[end] == UInt8(ascii: ">") || bytes[end] == UInt8(ascii: "/")) { end += 1 }
            return String(decoding: bytes[next..<end], as: UTF8.self)
        }
        return nil
    }

    /// Decodes `data` in this format. `file` is named in errors and, with `readingBeside`, is where the
    /// file is, so that what it names beside it is read (a Xournal++ document's PDF); unattended intake
    /// (the drop folder) reads nothing but `data`.
    public func decode(_ data: Data, file: String, readingBeside: Bool = true) throws(ImportError) -> Recording {
        switch self {
        case .replayLog: try ReplayLogDecoder.decode(data, file: file)
        case .inkml: try InkMLDecoder.decode(data, file: file)
        case .remarkable: try RemarkableDecoder.decode(data, file: file)
        case .remarkableNotebook: try RemarkableNotebook.decode(data, file: file)
        case .xournal: try XournalDecoder.decode(data, file: file, readingBeside: readingBeside)
        case .rnote: try RnoteDecoder.decode(data, file: file)
        }
    }

    /// The files worth importing, from those found in folders by extension or named (`xochitl/*`): a
    /// reMarkable document's parts (pages, `.metadata`, `.pagedata`, its PDF, thumbnails) are left to its
    /// `.content` file, which imports them as one note, and a reMarkable folder's `.content` is left out
    /// (its documents are filed in it).
    public static func importable(_ files: [URL]) -> [URL] {
        RemarkableNotebook.withoutFolders(RemarkableNotebook.withoutDocumentParts(RemarkableNotebook.withoutNotebookPages(files)))
    }
}
