import Foundation

/// One upload at a time: a second is told to wait rather than doubling the memory held.
final class UploadGate: @unchecked Sendable {
    private let lock = NSLock()
    private var busy = false

    func begin() -> Bool {
        lock.withLock {
            if busy { return false }
            busy = true
            return true
        }
    }
    func end() { lock.withLock { busy = false } }
}
