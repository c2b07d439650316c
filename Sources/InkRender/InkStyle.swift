import InkCore
import InkGeometry

/// How paint combines with what is already on the page.
public enum BlendMode: Sendable, Hashable {
    /// Ordinary painting (source over).
    case normal
    /// Darkens by the colour (highlighters, markers): yellow over black ink stays black.
    case multiply
    /// Keeps the darker of the two colours (pencil): overlapping graphite never turns lighter.
    case darken

    /// The blend's CSS name (SVG's `mix-blend-mode`, a canvas's `globalCompositeOperation`); nil for
    /// ordinary painting.
    public var cssName: String? {
        switch self {
        case .normal: nil
        case .multiply: "multiply"
        case .darken: "darken"
        }
    }
}

/// How one tool looks: its stroke shape and how its paint is applied.
public struct ToolLook: Sendable, Hashable {
    public var stroke: StrokeStyle
    /// Opacity of the paint when the stroke's colour is opaque; a colour with its own alpha below 255
    /// uses that alpha instead.
    public var opacity: Double
    public var blend: BlendMode
    /// Painted before all ink (highlighters and markers), so ink drawn earlier stays on top.
    public var underInk: Bool
    /// When set, pressure (through the stroke's pressure curve) chooses the opacity in this range
    /// (pencil): the paint is mixed with white in 8 steps and drawn opaque with ``BlendMode/darken``.
    public var pressureOpacity: ClosedRange<Double>?

    public init(stroke: StrokeStyle, opacity: Double = 1, blend: BlendMode = .normal, underInk: Bool = false,
                pressureOpacity: ClosedRange<Double>? = nil) {
        self.stroke = stroke
        self.opacity = opacity
        self.blend = blend
        self.underInk = underInk
        self.pressureOpacity = pressureOpacity
    }
}

/// The look of every tool. `InkStyle.standard` is what Inkwell draws by default.
public struct InkStyle: Sendable, Hashable {
    public var pen: ToolLook
    public var fineliner: ToolLook
    public var pencil: ToolLook
    public var marker: ToolLook
    public var highlighter: ToolLook

    public init(pen: ToolLook, fineliner: ToolLook, pencil: ToolLook, marker: ToolLook, highlighter: ToolLook) {
        self.pen = pen
        self.fineliner = fineliner
        self.pencil = pencil
        self.marker = marker
        self.highlighter = highlighter
    }

    public static let standard = InkStyle(
        pen: ToolLook(stroke: .pen),
        fineliner: ToolLook(stroke: .fineliner),
        pencil: ToolLook(stroke: .pencil, blend: .darken, pressureOpacity: 0.3...0.9),
        marker: ToolLook(stroke: .marker, opacity: 0.8, blend: .multiply, underInk: true),
        highlighter: ToolLook(stroke: .highlighter, opacity: 0.47, blend: .multiply, underInk: true)
    )

    /// The look of `tool`; erasers draw nothing (they are applied to the page first) and get the pen's.
    public subscript(tool: Tool) -> ToolLook {
        get {
            switch tool {
            case .pen, .eraser: pen
            case .fineliner: fineliner
            case .pencil: pencil
            case .marker: marker
            case .highlighter: highlighter
            }
        }
        set {
            switch tool {
            case .pen, .eraser: pen = newValue
            case .fineliner: fineliner = newValue
            case .pencil: pencil = newValue
            case .marker: marker = newValue
            case .highlighter: highlighter = newValue
            }
        }
    }

    /// This style with the smoothing and/or the pressure curve of every writing tool replaced
    /// (highlighters keep their constant width).
    public func with(smoothing: Double? = nil, pressureCurve: PressureCurve? = nil) -> InkStyle {
        var copy = self
        for tool in [Tool.pen, .fineliner, .pencil, .marker, .highlighter] {
            var look = copy[tool]
            if let smoothing { look.stroke.smoothing = min(1, max(0, smoothing)) }
            if let pressureCurve, tool != .highlighter { look.stroke.pressureCurve = pressureCurve }
            copy[tool] = look
        }
        return copy
    }
}
