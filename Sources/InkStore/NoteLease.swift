import Foundation
import InkCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A server's hold on one note it has open for writing (``Library/leaseNote(_:)``), known to every
/// process on the library: a shared `flock` on `.journal/ID.lease`, which holds the server's pid.
/// Released by ``release()`` or when dropped, and by the system when the process dies, so a killed
/// server leaves no lease behind.
public final class NoteLease: Sendable {
    private let fd: Locked<Int32?>
    init(fd: Int32) { self.fd = Locked(fd) }
    deinit { release() }

    /// Lets go of the note (again: nothing).
    public func release() {
        fd.withLock { fd in
            if let open = fd { close(open) }
            fd = nil
        }
    }
}

extension Library {
    /// The lease file of `note`, beside its journal.
    func leaseURL(of note: NoteID) -> URL {
        journalFolder.appendingPathComponent(note.rawValue + ".lease")
    }

    /// Marks `note` as open for writing in this process for as long as the lease lives: commands in
    /// other processes that would delete it, trash it or rewrite it refuse (``requireNotOpen(_:force:)``).
    /// Several servers may hold one note's lease at once.
    public func leaseNote(_ note: NoteID) throws -> NoteLease {
        let url = leaseURL(of: note)
        try FileManager.default.createDirectory(at: journalFolder, withIntermediateDirectories: true)
        let fd = url.path.withCString { systemOpen($0, O_RDWR | O_CREAT | O_CLOEXEC, 0o644) }
        guard fd >= 0 else { throw StoreError.io(url, "cannot open: \(errnoText())") }
        do throws(LibraryLock.Failure) {
            // Shared: only a command testing for holders takes it exclusively, for an instant.
            try LibraryLock.acquire(fd, LOCK_SH, timeout: 30)
        } catch {
            close(fd)
            throw StoreError.locked(url)
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, pid.count, 0) }
        return NoteLease(fd: fd)
    }

    /// The pid of a process holding `note`'s lease (a server with the note open), nil when none does.
    /// A holder whose pid cannot be read is reported as pid 0.
    public func leaseHolder(of note: NoteID) -> Int32? {
        let url = leaseURL(of: note)
        let fd = url.path.withCString { systemOpen($0, O_RDONLY | O_CLOEXEC, 0) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        if flock(fd, LOCK_EX | LOCK_NB) == 0 {
            flock(fd, LOCK_UN)
            return nil
        }
        guard errno == EWOULDBLOCK else { return nil }
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 32, 0) }
        let text = String(decoding: bytes.prefix(max(count, 0)), as: UTF8.self)
        return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    /// Throws ``StoreError/noteOpen(_:_:pid:)`` when a server holds `note`'s lease, unless `force`.
    func requireNotOpen(_ note: NoteID, title: String, force: Bool) throws {
        guard !force, let pid = leaseHolder(of: note) else { return }
        throw StoreError.noteOpen(note, title, pid: pid)
    }
}
