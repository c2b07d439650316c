import Foundation

/// The PNGs of PDF pages under pages, by address (``WebServer/backgroundAddress(note:page:_:)``): the
/// last 64 made, whoever asked.
final class BackgroundImageCache: @unchecked Sendable {
    private let lock = NSLock()
    private var images: [(key: String, png: [UInt8])] = []

    func image(_ key: String, make: () throws -> [UInt8]?) throws -> [UInt8]? {
        if let hit = lock.withLock({ images.first { $0.key == key }?.png }) { return hit }
        guard let png = try make() else { return nil }
        lock.withLock {
            images.removeAll { $0.key == key }
            images.append((key, png))
            if images.count > 64 { images.removeFirst() }
        }
        return png
    }
}
