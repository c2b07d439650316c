import InkCore

/// Where writing goes on a page: the paper, its margins, the ruled lines the text sits on and the
/// size of the letters.
public struct PageLayout: Sendable, Hashable {
    public var size: PageSize
    public var marginLeft: Double
    public var marginRight: Double
    public var marginTop: Double
    public var marginBottom: Double
    /// Distance between baselines, in pixels; the page is ruled at this spacing.
    public var lineSpacing: Double
    /// Pixels per font unit: 1.5 makes capitals 31 px (3.5 mm on a reMarkable) tall.
    public var glyphScale: Double

    public init(size: PageSize = .remarkable, marginLeft: Double = 120, marginRight: Double = 100,
                marginTop: Double = 160, marginBottom: Double = 120, lineSpacing: Double = 80, glyphScale: Double = 1.5) {
        self.size = size
        self.marginLeft = marginLeft
        self.marginRight = marginRight
        self.marginTop = marginTop
        self.marginBottom = marginBottom
        self.lineSpacing = lineSpacing
        self.glyphScale = glyphScale
    }

    /// A reMarkable page ruled every 80 px (9 mm).
    public static let remarkable = PageLayout()

    /// The paper: lined at ``lineSpacing``, so every baseline lies on a rule.
    public var template: PageTemplate { PageTemplate(kind: .lined, spacing: Float(lineSpacing)) }

    /// The x where lines start and the x no ink may pass.
    public var textLeft: Double { marginLeft }
    public var textRight: Double { Double(size.width) - marginRight }

    /// The y of every baseline on a page, top to bottom: rules at multiples of ``lineSpacing``
    /// far enough inside the margins for the tallest and deepest glyphs (25 and 12 font units).
    public var baselines: [Double] {
        let ascent = 25 * glyphScale * 1.2, descent = 12 * glyphScale * 1.2
        let first = ((marginTop + ascent) / lineSpacing).rounded(.up) * lineSpacing
        let last = Double(size.height) - marginBottom - descent
        guard first <= last else { return [] }
        return Array(stride(from: first, through: last, by: lineSpacing))
    }
}
