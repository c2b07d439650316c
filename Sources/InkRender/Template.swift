import InkCore

/// The ruling of a page template as vector geometry, in page units.
public struct TemplateLayout: Sendable, Hashable {
    public enum Weight: Sendable, Hashable {
        /// Ordinary rules and grid lines.
        case rule
        /// The structure of a Cornell page (cue column, header, summary), a little stronger.
        case structure
    }

    public struct Line: Sendable, Hashable {
        public var from: Vector
        public var to: Vector
        public var weight: Weight
    }

    public var lines: [Line]
    public var dots: [Vector]
    /// Width of a rule in page units (structure lines are twice as wide).
    public var ruleWidth: Double
    public var dotRadius: Double
    public var ruleColor: RGBA
    public var structureColor: RGBA

    /// The layout of `template` on a page of `size`.
    public init(_ template: PageTemplate, size: PageSize) {
        let width = Double(size.width), height = Double(size.height)
        let spacing = Double(template.spacing).isFinite ? max(4, Double(template.spacing)) : 60
        lines = []
        dots = []
        ruleWidth = max(spacing / 50, 0.25)
        dotRadius = max(spacing / 28, 0.5)
        ruleColor = RGBA(red: 0xB8, green: 0xC6, blue: 0xD6)
        structureColor = RGBA(red: 0x8F, green: 0xA3, blue: 0xBA)
        guard width > 0, height > 0 else { return }

        func horizontal(_ y: Double, from x0: Double = 0, to x1: Double? = nil, _ weight: Weight = .rule) {
            lines.append(Line(from: Vector(x: x0, y: y), to: Vector(x: x1 ?? width, y: y), weight: weight))
        }
        func vertical(_ x: Double, from y0: Double = 0, to y1: Double? = nil, _ weight: Weight = .rule) {
            lines.append(Line(from: Vector(x: x, y: y0), to: Vector(x: x, y: y1 ?? height), weight: weight))
        }
        // Grids and dots are centred on the page; lined pages start two spacings from the top.
        let offsetX = (width.truncatingRemainder(dividingBy: spacing)) / 2
        let offsetY = (height.truncatingRemainder(dividingBy: spacing)) / 2
        switch template.kind {
        case .blank:
            break
        case .lined:
            var y = 2 * spacing
            while y < height - spacing / 2 {
                horizontal(y)
                y += spacing
            }
        case .grid:
            var x = offsetX == 0 ? spacing : offsetX
            while x < width - 1e-9 {
                vertical(x)
                x += spacing
            }
            var y = offsetY == 0 ? spacing : offsetY
            while y < height - 1e-9 {
                horizontal(y)
                y += spacing
            }
        case .dots:
            var y = offsetY == 0 ? spacing : offsetY
            while y < height - 1e-9 {
                var x = offsetX == 0 ? spacing : offsetX
                while x < width - 1e-9 {
                    dots.append(Vector(x: x, y: y))
                    x += spacing
                }
                y += spacing
            }
        case .cornell:
            // Title band on top, cue column on the left (30 %), summary at the bottom (the last 20 %).
            let header = max(2 * spacing, 0.08 * height)
            let summary = 0.8 * height
            let cue = 0.3 * width
            horizontal(header, .structure)
            horizontal(summary, .structure)
            vertical(cue, from: header, to: summary, .structure)
            var y = header + spacing
            while y < summary - spacing / 2 {
                horizontal(y)
                y += spacing
            }
        }
    }
}
