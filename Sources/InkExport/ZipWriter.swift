import CZip
import Foundation
import InkStore

/// Why an export could not be written.
public struct ExportError: Error, CustomStringConvertible, Sendable, Equatable {
    public let path: String
    public let reason: String
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
    public var description: String { "\(path): \(reason)" }
}

/// Writes a ZIP archive with libzip, all or nothing: entries go to a temporary file beside the
/// destination, which replaces it only when the archive is complete. Entries added from files are
/// read when the archive is closed, so memory stays bounded however large the archive grows; those
/// files are kept in ``partsFolder``, beside the destination too.
///
/// Every temporary name carries `.inkwell-export-PID.`: the temporaries of an export that was
/// killed are swept by the next export into the same folder (``sweep(_:)``), never left to pile up.
///
/// The destination is an output as ``OutputFile`` describes: a symbolic link keeps being a link (its
/// target is replaced), a FIFO or device (`/dev/stdout`) gets the finished archive written into it.
public final class ZipWriter {
    public let destination: URL
    /// The regular file the finished archive replaces (a link's target); nil to write it into a stream.
    private let target: URL?
    private let temporary: URL
    /// A folder for the files of entries added with ``add(file:as:compress:)``; removed with the archive.
    public let partsFolder: URL
    private var archive: OpaquePointer?

    public init(destination: URL) throws(ExportError) {
        self.destination = destination
        do throws(StoreError) {
            switch try OutputFile.destination(of: destination) {
            case .file(let file): target = file
            case .stream: target = nil
            }
        } catch {
            guard case .io(_, let reason) = error else { throw ExportError(path: destination.path, reason: "\(error)") }
            throw ExportError(path: destination.path, reason: reason)
        }
        let folder = target?.deletingLastPathComponent() ?? FileManager.default.temporaryDirectory
        let stem = ".\(destination.lastPathComponent)\(ZipWriter.marker)\(getpid()).\(UInt32.random(in: 0...UInt32.max))"
        temporary = folder.appendingPathComponent(stem + ".partial")
        partsFolder = folder.appendingPathComponent(stem + ".parts")
        guard FileManager.default.isWritableFile(atPath: folder.path) else {
            throw ExportError(path: destination.path, reason: "cannot write into \(folder.path) (missing or not writable)")
        }
        ZipWriter.sweep(folder)
        do {
            try FileManager.default.createDirectory(at: partsFolder, withIntermediateDirectories: false)
        } catch {
            throw ExportError(path: destination.path, reason: "cannot make a temporary folder beside it: \(error)")
        }
        var error: Int32 = 0
        archive = zip_open(temporary.path, ZIP_CREATE | ZIP_EXCL, &error)
        guard archive != nil else {
            var zipError = zip_error_t()
            zip_error_init_with_code(&zipError, error)
            defer { zip_error_fini(&zipError) }
            throw ExportError(path: destination.path, reason: "cannot create the archive: \(String(cString: zip_error_strerror(&zipError)))")
        }
    }

    deinit { discard() }

    /// Adds the file at `source` as `name` (a relative path with `/` separators). `compress`: deflate
    /// (text), or store as is (PNG and PDF are compressed already).
    public func add(file source: URL, as name: String, compress: Bool) throws(ExportError) {
        let entry = try ZipWriter.safeEntryName(name, in: destination)
        guard let archive, let zipSource = zip_source_file(archive, source.path, 0, -1) else {
            throw failure("cannot read \(source.path)")
        }
        try add(zipSource, as: entry, compress: compress)
    }

    /// Adds `bytes` as `name`.
    public func add(_ bytes: [UInt8], as name: String, compress: Bool) throws(ExportError) {
        let entry = try ZipWriter.safeEntryName(name, in: destination)
        guard let archive else { throw failure("the archive is closed") }
        // libzip reads the buffer at close time and frees it (freep = 1): hand it a malloc'd copy.
        guard let buffer = malloc(max(1, bytes.count)) else { throw failure("out of memory") }
        bytes.withUnsafeBytes { if let base = $0.baseAddress { buffer.copyMemory(from: base, byteCount: bytes.count) } }
        guard let zipSource = zip_source_buffer(archive, buffer, zip_uint64_t(bytes.count), 1) else {
            free(buffer)
            throw failure("cannot add \(name)")
        }
        try add(zipSource, as: entry, compress: compress)
    }

    private func add(_ zipSource: OpaquePointer, as entry: String, compress: Bool) throws(ExportError) {
        let index = zip_file_add(archive, entry, zipSource, zip_flags_t(ZIP_FL_ENC_UTF_8))
        guard index >= 0 else {
            zip_source_free(zipSource)
            throw failure("cannot add \(entry)")
        }
        let method = compress ? ZIP_CM_DEFLATE : ZIP_CM_STORE
        guard zip_set_file_compression(archive, zip_uint64_t(index), method, 0) == 0 else {
            throw failure("cannot set the compression of \(entry)")
        }
    }

    /// Writes the archive and moves it into place.
    public func commit() throws(ExportError) {
        guard let archive else { throw failure("the archive is closed") }
        guard zip_close(archive) == 0 else {
            let reason = String(cString: zip_strerror(archive))
            discard()
            throw ExportError(path: destination.path, reason: "cannot write the archive: \(reason)")
        }
        self.archive = nil
        try? FileManager.default.removeItem(at: partsFolder)
        guard let target else {
            defer { try? FileManager.default.removeItem(at: temporary) }
            do {
                try OutputFile.write(destination, [UInt8](try Data(contentsOf: temporary)))
            } catch {
                throw ExportError(path: destination.path, reason: "cannot write the archive: \(error)")
            }
            return
        }
        // libzip does not sync what it wrote: without this, a crash after the rename could leave the
        // name pointing at an archive whose data never reached the disk.
        let file = open(temporary.path, O_RDONLY | O_CLOEXEC)
        guard file >= 0, fsync(file) == 0 else {
            let reason = String(cString: strerror(errno))
            if file >= 0 { close(file) }
            discard()
            throw ExportError(path: destination.path, reason: "cannot write the archive: fsync failed: \(reason)")
        }
        close(file)
        guard rename(temporary.path, target.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw ExportError(path: destination.path, reason: "cannot move the archive into place: \(reason)")
        }
        do {
            try DurableFile.syncFolder(target.deletingLastPathComponent())
        } catch {
            throw ExportError(path: destination.path, reason: "the archive is in place, but \(error)")
        }
    }

    /// Abandons the archive: nothing is left on disk.
    public func discard() {
        if let archive {
            zip_discard(archive)
            self.archive = nil
        }
        try? FileManager.default.removeItem(at: temporary)
        try? FileManager.default.removeItem(at: partsFolder)
    }

    /// What every temporary name of an export holds, followed by the writer's pid.
    static let marker = ".inkwell-export-"

    /// Removes from `folder` the temporaries of exports whose process no longer runs (the archive
    /// being written, its entries' files, libzip's own temporary), and returns their names.
    @discardableResult
    public static func sweep(_ folder: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let stale = names.filter { name in
            guard name.hasPrefix("."), let found = name.range(of: marker) else { return false }
            guard let pid = Int32(name[found.upperBound...].prefix(while: \.isNumber)), pid != getpid() else { return false }
            return kill(pid, 0) != 0 && errno == ESRCH
        }
        for name in stale { try? FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }
        return stale
    }

    private func failure(_ what: String) -> ExportError {
        let detail = archive.map { String(cString: zip_strerror($0)) } ?? ""
        return ExportError(path: destination.path, reason: detail.isEmpty ? what : "\(what): \(detail)")
    }

    /// Entry names are relative paths of safe components: no `..`, no absolute paths, no backslashes.
    static func safeEntryName(_ name: String, in archive: URL) throws(ExportError) -> String {
        let components = name.split(separator: "/", omittingEmptySubsequences: false)
        guard !name.hasPrefix("/"), !name.contains("\\"), !components.isEmpty,
              components.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }),
              !name.unicodeScalars.contains(where: { $0.value < 0x20 })
        else { throw ExportError(path: archive.path, reason: "unsafe entry name \"\(name)\"") }
        return name
    }
}
