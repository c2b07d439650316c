import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An advisory lock on the library (`flock` on `.lock`): writers take it exclusively, so two
/// processes never interleave a read-modify-write of the same files.
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
        let deadline = Date().addingTimeInterval(timeout)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                throw StoreError.io(url, "cannot lock: \(errnoText())")
            }
            guard Date() < deadline else { throw StoreError.locked(url.deletingLastPathComponent()) }
            usleep(2_000)
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }
}
