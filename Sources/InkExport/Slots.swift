import Foundation

/// Results filled from several threads (one slot each) and taken once, in order.
final class Slots<Value>: @unchecked Sendable {
    private var values: [Value?]
    private let lock = NSLock()

    init(count: Int) { values = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ value: Value) { lock.withLock { values[index] = value } }

    /// The value of slot `index`, emptying it (nil if never set).
    func take(_ index: Int) -> Value? {
        lock.withLock {
            defer { values[index] = nil }
            return values[index]
        }
    }
}
