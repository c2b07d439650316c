import Foundation
import InkwellKit

/// One upload at a time: a second is told to wait rather than doubling the memory held.
final class UploadGate: Sendable {
    private let busy = Locked(false)

    func begin() -> Bool {
        busy.withLock { busy in
            if busy { return false }
            busy = true
            return true
        }
    }
    func end() { busy.withLock { $0 = false } }
}
