import InkCore

/// The word slots of a line: runs of strokes whose horizontal gaps stay within `gap`, left to right.
/// Words read from different renders of a line are compared slot by slot, since Tesseract may
/// split or join words differently in each.
struct WordSlots: Sendable, Equatable {
    /// Each slot's horizontal extent in page pixels, left to right.
    var extents: [(minX: Double, maxX: Double)]

    init(shapes: [StrokeShape], gap: Double) {
        var extents: [(minX: Double, maxX: Double)] = []
        for shape in shapes.filter({ !$0.isEmpty }).sorted(by: { $0.bounds.minX < $1.bounds.minX }) {
            if let last = extents.last, shape.bounds.minX - last.maxX <= gap {
                extents[extents.count - 1].maxX = max(last.maxX, shape.bounds.maxX)
            } else {
                extents.append((shape.bounds.minX, shape.bounds.maxX))
            }
        }
        self.extents = extents
    }

    /// The slot a word box read from the line belongs to: the one holding its centre, else the nearest.
    func slot(of box: Rect) -> Int {
        let center = (box.minX + box.maxX) / 2
        func distance(_ i: Int) -> Double { max(extents[i].minX - center, center - extents[i].maxX, 0) }
        return extents.indices.min(by: { distance($0) < distance($1) }) ?? 0
    }

    static func == (a: WordSlots, b: WordSlots) -> Bool {
        a.extents.count == b.extents.count && zip(a.extents, b.extents).allSatisfy { $0 == $1 }
    }
}
