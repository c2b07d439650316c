import Foundation
import InkExport
import InkStore
import InkCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One note pushed into a vault's daily note: a line of the vault's push journal.
public struct PushRecord: Sendable, Codable, Equatable {
    public enum Kind: String, Sendable, Codable { case added, updated }

    public var note: NoteID
    public var title: String
    /// What the note held when pushed (``ObsidianPush/contentHash(title:notebook:tags:pages:)``).
    public var hash: String
    /// The daily note it went to, relative to the vault.
    public var dailyNote: String
    public var kind: Kind
    public var pushed: Date
    /// The library it came from (for people reading the journal; notes are known by id).
    public var library: String
}

/// What has been pushed into a vault: `VAULT/.inkwell/pushed.jsonl`, one JSON object a line, one
/// line per note section written, appended (and synced) right after each daily note is replaced.
///
/// It lives in the vault because it describes the vault: a second library pushing into the same
/// vault, a copy of the library, or another machine syncing the vault all see what is already
/// there; a fresh vault gets everything. Obsidian does not show or sync dot-folders of its own
/// accord. A line torn by a crash at the very end is ignored and cut off on the next append.
struct PushJournal {
    let url: URL
    /// The latest record of every note pushed.
    private(set) var latest: [NoteID: PushRecord] = [:]
    /// Bytes of whole records; anything after (a torn line) is cut before appending.
    private var validLength = 0
    private var needsNewline = false

    static let relativePath = ".inkwell/pushed.jsonl"

    init(vault: URL) throws(ExportError) {
        url = vault.appendingPathComponent(PushJournal.relativePath)
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        let bytes: [UInt8]
        do {
            bytes = [UInt8](try Data(contentsOf: url))
        } catch {
            throw ExportError(path: url.path, reason: "cannot read the push journal: \(error.localizedDescription)")
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        var start = 0
        var number = 0
        while start < bytes.count {
            number += 1
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            let line = Array(bytes[start..<end])
            let complete = end < bytes.count
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x0D }) {
                if complete { validLength = end + 1 }
            } else if let record = try? decoder.decode(PushRecord.self, from: Data(line)) {
                latest[record.note] = record
                validLength = complete ? end + 1 : end
                needsNewline = !complete
            } else if complete {
                throw ExportError(path: url.path, reason: "line \(number) is not a push record; fix or delete that line (the journal is what stops notes being pushed twice)")
            }
            start = end + 1
        }
    }

    /// Appends `records` in one write and syncs the file, creating `.inkwell/` and the journal when missing.
    mutating func append(_ records: [PushRecord]) throws(ExportError) {
        guard !records.isEmpty else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        var bytes: [UInt8] = needsNewline ? [0x0A] : []
        for record in records {
            do {
                bytes += try encoder.encode(record) + [0x0A]
            } catch {
                throw ExportError(path: url.path, reason: "cannot encode a push record: \(error)")
            }
        }
        let folder = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw ExportError(path: folder.path, reason: "cannot create the push journal's folder: \(error.localizedDescription)")
        }
        let fd = open(url.path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ExportError(path: url.path, reason: "cannot open the push journal: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard ftruncate(fd, off_t(validLength)) == 0, lseek(fd, off_t(validLength), SEEK_SET) >= 0 else {
            throw ExportError(path: url.path, reason: "cannot prepare the push journal: \(String(cString: strerror(errno)))")
        }
        do throws(DurableFile.WriteFailure) {
            try DurableFile.writeAndSync(fd, bytes)
        } catch {
            _ = ftruncate(fd, off_t(validLength))
            throw ExportError(path: url.path, reason: "cannot \(error.step == .write ? "write" : "sync") the push journal: \(error.reason)")
        }
        validLength += bytes.count
        needsNewline = false
        for record in records { latest[record.note] = record }
    }
}
