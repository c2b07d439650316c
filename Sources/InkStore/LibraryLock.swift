import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An advisory lock on the library (`flock` on `.lock`): writers take it exclusively, so two
/// processes never interleave a read-modify-write of the same files; readers that must see a note
/// whole (its folder, metadata and pages at one place) take it shared, so no move or delete runs
/// while they read.
public struct LibraryLock: Sendable {
    public let url: URL

    /// A lock on the file at `url` (created if missing).
    public init(url: URL) { self.url = url }

    /// Runs `body` holding the lock, waiting up to `timeout` seconds for another holder to finish;
    /// throws ``StoreError/locked(_:)`` (naming the folder) when it does not.
    public func withExclusive<T>(timeout: Double = 30, _ body: () throws -> T) throws -> T {
        let fd = url.path.withCString { systemOpen($0, O_RDWR | O_CREAT | O_CLOEXEC, 0o644) }
        guard fd >= 0 else { throw StoreError.io(url, "cannot open lock file: \(errnoText())") }
        defer { close(fd) }
        try acquire(fd, LOCK_EX, timeout: timeout)
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    /// Runs `body` holding the lock shared with other readers, waiting up to `timeout` seconds for a
    /// writer to finish. Where the lock file cannot be opened at all (a read-only library without
    /// one), nobody can be writing, and `body` runs without it.
    public func withShared<T>(timeout: Double = 30, _ body: () throws -> T) throws -> T {
        var fd = url.path.withCString { systemOpen($0, O_RDWR | O_CREAT | O_CLOEXEC, 0o644) }
        if fd < 0 { fd = url.path.withCString { systemOpen($0, O_RDONLY | O_CLOEXEC, 0) } }
        guard fd >= 0 else { return try body() }
        defer { close(fd) }
        try acquire(fd, LOCK_SH, timeout: timeout)
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    private func acquire(_ fd: Int32, _ operation: Int32, timeout: Double) throws(StoreError) {
        do throws(Failure) {
            try Self.acquire(fd, operation, timeout: timeout)
        } catch {
            switch error {
            case .busy: throw StoreError.locked(url.deletingLastPathComponent())
            case .failed(let reason): throw StoreError.io(url, "cannot lock: \(reason)")
            }
        }
    }

    /// Why ``acquire(_:_:timeout:pause:)`` did not take a lock.
    public enum Failure: Error, Sendable, Equatable {
        /// Another holder kept it for the whole timeout.
        case busy
        /// `flock` failed otherwise; the system's reason.
        case failed(String)
    }

    /// Takes `flock(fd, operation)` (`LOCK_EX` or `LOCK_SH`), trying again every `pause` seconds
    /// for up to `timeout` seconds while another process holds it: the one wait every lock in
    /// Inkwell takes (the library's, a vault's). The caller unlocks (`flock(fd, LOCK_UN)`) and closes.
    public static func acquire(_ fd: Int32, _ operation: Int32, timeout: Double, pause: Double = 0.002) throws(Failure) {
        let deadline = Date().addingTimeInterval(timeout)
        while flock(fd, operation | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else { throw .failed(errnoText()) }
            guard Date() < deadline else { throw .busy }
            usleep(useconds_t(pause * 1_000_000))
        }
    }
}
