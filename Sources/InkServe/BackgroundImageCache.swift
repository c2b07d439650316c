import Foundation
import InkwellKit

/// The PNGs of PDF pages under pages, by address (``WebServer/backgroundAddress(note:page:_:)``): the
/// last 64 made, whoever asked.
final class BackgroundImageCache: Sendable {
    private let images = Locked<[(key: String, png: [UInt8])]>([])

    func image(_ key: String, make: () throws -> [UInt8]?) throws -> [UInt8]? {
        if let hit = images.withLock({ $0.first { $0.key == key }?.png }) { return hit }
        guard let png = try make() else { return nil }
        images.withLock { images in
            images.removeAll { $0.key == key }
            images.append((key, png))
            if images.count > 64 { images.removeFirst() }
        }
        return png
    }
}
