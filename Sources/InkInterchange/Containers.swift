import CZip
import CZlib
import Foundation

/// Limits on unpacking compressed input, so gzip and zip bombs cannot exhaust memory.
public enum ContainerLimits {
    /// Largest inflated size of one file (gzip member chain or zip entry).
    public static let inflatedBytes = 256 << 20
    /// Largest ratio of inflated to compressed size once past ``ratioFloor`` bytes (ink XML deflates 3–10
    /// times; deflate's ceiling is about 1,030).
    public static let ratio = 200
    /// Output below this size is never refused for its ratio (small files compress oddly).
    public static let ratioFloor = 8 << 20
    /// Most entries a zip archive may list.
    public static let zipEntries = 10_000
}

/// Recognisers and unpackers for the containers Inkwell's importers meet: gzip and zip.
enum Containers {
    static func isGzip(_ data: Data) -> Bool {
        data.count >= 3 && data[data.startIndex] == 0x1F && data[data.startIndex + 1] == 0x8B
            && data[data.startIndex + 2] == 0x08
    }

    static func isZip(_ data: Data) -> Bool {
        data.count >= 4 && data[data.startIndex] == 0x50 && data[data.startIndex + 1] == 0x4B
            && data[data.startIndex + 2] == 0x03 && data[data.startIndex + 3] == 0x04
    }

    /// Inflates a gzip file (several members in a row are joined, as gunzip does), refusing output over
    /// `limit` bytes or a suspicious ratio. `prefixOnly` stops quietly after `limit` bytes instead (for sniffing).
    static func gunzip(_ data: Data, file: String, limit: Int = ContainerLimits.inflatedBytes,
                       prefixOnly: Bool = false) throws(ImportError) -> Data {
        var output = Data()
        var stream = z_stream()
        // windowBits 15 + 16: gzip only.
        guard inflateInit2_(&stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw ImportError(file: file, reason: "cannot start zlib")
        }
        defer { inflateEnd(&stream) }
        let chunk = 64 << 10
        var buffer = [UInt8](repeating: 0, count: chunk)
        var failure: ImportError?
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return }
            stream.next_in = UnsafeMutablePointer(mutating: base)
            stream.avail_in = UInt32(clamping: raw.count)
            var consumedBefore = 0
            while true {
                let status: Int32 = buffer.withUnsafeMutableBufferPointer { out in
                    stream.next_out = out.baseAddress
                    stream.avail_out = UInt32(chunk)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk - Int(stream.avail_out)
                if produced > 0 {
                    if output.count + produced > limit {
                        if prefixOnly {
                            output.append(contentsOf: buffer[0..<(limit - output.count)])
                            return
                        }
                        failure = ImportError(file: file, position: "byte \(Int(stream.total_in) + consumedBefore)",
                                              reason: "gzip data inflates to more than \(limit >> 20) MiB")
                        return
                    }
                    output.append(contentsOf: buffer[0..<produced])
                    let consumed = consumedBefore + Int(stream.total_in)
                    if !prefixOnly, output.count > ContainerLimits.ratioFloor,
                       output.count / max(consumed, 1) > ContainerLimits.ratio {
                        failure = ImportError(file: file, position: "byte \(consumed)",
                                              reason: "gzip data inflates more than \(ContainerLimits.ratio) times (a gzip bomb?)")
                        return
                    }
                }
                switch status {
                case Z_OK:
                    if produced == 0 && stream.avail_in == 0 {
                        if prefixOnly { return }
                        failure = ImportError(file: file, position: "byte \(raw.count)", reason: "gzip data is truncated")
                        return
                    }
                case Z_BUF_ERROR:
                    if prefixOnly { return }
                    failure = ImportError(file: file, position: "byte \(raw.count)", reason: "gzip data is truncated")
                    return
                case Z_STREAM_END:
                    // Another member may follow (concatenated gzip files); trailing zero padding is ignored.
                    let rest = Int(stream.avail_in)
                    guard rest >= 2, let next = stream.next_in, next[0] == 0x1F, next[1] == 0x8B else { return }
                    consumedBefore += Int(stream.total_in)
                    guard inflateReset(&stream) == Z_OK else { return }
                default:
                    if prefixOnly { return }
                    let message = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                    failure = ImportError(file: file, position: "byte \(consumedBefore + Int(stream.total_in))",
                                          reason: "gzip data is damaged (\(message))")
                    return
                }
            }
        }
        if let failure { throw failure }
        return output
    }

    /// Reads one entry of a zip archive held in memory. Every entry name is checked first: an archive
    /// naming an entry with `..` or an absolute path is refused whole.
    static func unzip(_ data: Data, entry wanted: String, file: String,
                      limit: Int = ContainerLimits.inflatedBytes) throws(ImportError) -> Data? {
        let archive = try ZipReader(data, file: file)
        return try archive.read(wanted, limit: limit)
    }
}

/// A zip archive in memory, read with libzip.
final class ZipReader {
    private let archive: OpaquePointer
    private let buffer: UnsafeMutableRawPointer
    let file: String
    /// Entry names in archive order.
    let names: [String]

    init(_ data: Data, file: String) throws(ImportError) {
        self.file = file
        guard !data.isEmpty, let copy = malloc(data.count) else { throw ImportError(file: file, reason: "empty zip archive") }
        data.withUnsafeBytes { copy.copyMemory(from: $0.baseAddress!, byteCount: data.count) }
        var error = zip_error_t()
        zip_error_init(&error)
        defer { zip_error_fini(&error) }
        // freep = 0: this object frees the copy after zip_discard (libzip reads it lazily).
        guard let source = zip_source_buffer_create(copy, zip_uint64_t(data.count), 0, &error) else {
            free(copy)
            throw ImportError(file: file, reason: "cannot read the zip archive")
        }
        guard let archive = zip_open_from_source(source, ZIP_RDONLY, &error) else {
            zip_source_free(source)
            free(copy)
            let message = zip_error_strerror(&error).map { String(cString: $0) } ?? "unknown error"
            throw ImportError(file: file, reason: "not a readable zip archive (\(message))")
        }
        self.archive = archive
        self.buffer = copy
        let count = zip_get_num_entries(archive, 0)
        guard count >= 0, count <= ContainerLimits.zipEntries else {
            zip_discard(archive)
            free(copy)
            throw ImportError(file: file, reason: "the zip archive lists \(count) entries (at most \(ContainerLimits.zipEntries) are read)")
        }
        var names: [String] = []
        for index in 0..<count {
            guard let raw = zip_get_name(archive, zip_uint64_t(index), zip_flags_t(ZIP_FL_ENC_GUESS)) else {
                zip_discard(archive)
                free(copy)
                throw ImportError(file: file, position: "zip entry \(index + 1)", reason: "entry has no readable name")
            }
            let name = String(decoding: UnsafeRawBufferPointer(start: raw, count: strlen(raw)), as: UTF8.self)
            if let problem = ZipReader.unsafeName(name) {
                zip_discard(archive)
                free(copy)
                throw ImportError(file: file, position: "zip entry \"\(name)\"", reason: problem)
            }
            names.append(name)
        }
        self.names = names
    }

    deinit {
        zip_discard(archive)
        free(buffer)
    }

    /// Why an entry name is refused, or nil when it is a plain relative path.
    static func unsafeName(_ name: String) -> String? {
        if name.hasPrefix("/") || name.hasPrefix("\\") { return "absolute path in a zip archive" }
        let bytes = Array(name.utf8)
        if bytes.count >= 2, bytes[1] == UInt8(ascii: ":"), (bytes[0] | 0x20) >= 0x61, (bytes[0] | 0x20) <= 0x7A {
            return "absolute (drive) path in a zip archive"
        }
        if name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).contains("..") { return "\"..\" in a zip entry path" }
        if bytes.contains(0) { return "NUL byte in a zip entry name" }
        return nil
    }

    /// The bytes of entry `name`, nil when the archive has none by that name.
    func read(_ name: String, limit: Int = ContainerLimits.inflatedBytes) throws(ImportError) -> Data? {
        guard let index = names.firstIndex(of: name) else { return nil }
        var stat = zip_stat_t()
        zip_stat_init(&stat)
        guard zip_stat_index(archive, zip_uint64_t(index), 0, &stat) == 0 else {
            throw ImportError(file: file, position: "zip entry \"\(name)\"", reason: "cannot read the entry's header")
        }
        let declared = (stat.valid & zip_uint64_t(ZIP_STAT_SIZE)) != 0 ? stat.size : 0
        let compressed = (stat.valid & zip_uint64_t(ZIP_STAT_COMP_SIZE)) != 0 ? stat.comp_size : 0
        guard declared <= zip_uint64_t(limit) else {
            throw ImportError(file: file, position: "zip entry \"\(name)\"",
                              reason: "entry inflates to \(declared) bytes (more than \(limit >> 20) MiB)")
        }
        if declared > zip_uint64_t(ContainerLimits.ratioFloor), declared / max(compressed, 1) > zip_uint64_t(ContainerLimits.ratio) {
            throw ImportError(file: file, position: "zip entry \"\(name)\"",
                              reason: "entry inflates more than \(ContainerLimits.ratio) times (a zip bomb?)")
        }
        guard let handle = zip_fopen_index(archive, zip_uint64_t(index), 0) else {
            let message = zip_strerror(archive).map { String(cString: $0) } ?? "unknown error"
            throw ImportError(file: file, position: "zip entry \"\(name)\"", reason: "cannot open the entry (\(message))")
        }
        defer { zip_fclose(handle) }
        var output = Data()
        output.reserveCapacity(Int(min(declared, zip_uint64_t(limit))))
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { zip_fread(handle, $0.baseAddress!, zip_uint64_t($0.count)) }
            if count < 0 {
                let message = zip_file_strerror(handle).map { String(cString: $0) } ?? "unknown error"
                throw ImportError(file: file, position: "zip entry \"\(name)\"", reason: "entry is damaged (\(message))")
            }
            if count == 0 { break }
            guard output.count + Int(count) <= limit else {
                throw ImportError(file: file, position: "zip entry \"\(name)\"", reason: "entry inflates to more than \(limit >> 20) MiB")
            }
            output.append(contentsOf: chunk[0..<Int(count)])
        }
        return output
    }
}

/// A look inside compressed input without unpacking all of it (format detection).
public enum ContainerSniffer {
    /// The first `limit` bytes a gzip file inflates to, or nil when it is not readable gzip.
    public static func gunzipPrefix(_ data: Data, limit: Int = 65536) -> Data? {
        guard Containers.isGzip(data) else { return nil }
        return try? Containers.gunzip(data, file: "", limit: limit, prefixOnly: true)
    }
}
