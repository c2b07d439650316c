import InkCore
import InkGeometry
import InkRender
import InkSession

/// What a front end that draws ink itself must draw it with, for a stroke to look the same while it is
/// written and once it is saved: each tool's shape and look, the stroke geometry's constants, and the
/// navigation's rule (the band at the top of the page where a double tap reveals it, how long it then
/// stays), which the browser applies itself while the server is out of reach. Made from the engine's own values
/// (InkGeometry's ``StrokeStyle`` and constants, InkRender's ``InkStyle/standard``, ``SessionConfig``),
/// never re-typed; `inkwell serve` hands it to the browser as the module `/assets/rules.js`.
public struct InkRules: Sendable, Encodable, Equatable {
    /// One tool's shape (``StrokeStyle``: widths are fractions of the nominal width, tapers in nominal
    /// widths) and look (``ToolLook``).
    public struct ToolRules: Sendable, Encodable, Equatable {
        /// The pressure curve as an exponent: width follows `pressure^pressureExponent`.
        public var pressureExponent: Double
        public var minWidth, maxWidth, smoothing, taperStart, taperEnd, taperTip, cornerAngle: Double
        /// `automatic` (pressure made up from speed when the stroke has none), `always` or `never`.
        public var pressureSimulation: String
        public var opacity: Double
        /// How the ink is painted over what is below, as a canvas `globalCompositeOperation`.
        public var blend: String
        /// Painted under all the ink (highlighter, marker).
        public var under: Bool
        /// The pencil's darkness from pressure: the lightest and the darkest share of its colour.
        public var pressureOpacity: [Double]?
    }

    /// The writing tools by name (``Tool/description``); erasers draw nothing.
    public var tools: [String: ToolRules]
    /// The stroke geometry's constants by name (the names of ``StrokeGeometry``'s).
    public var geometry: [String: Double]
    /// The session's top band, in page units (``SessionConfig/topEdgeBand``).
    public var topEdgeBand: Double
    /// Seconds a revealed navigation stays (``SessionConfig/navigationHideAfterReveal``).
    public var navigationHideAfterReveal: Double

    package init(session: SessionConfig = SessionConfig(), style: InkStyle = .standard) {
        var tools: [String: ToolRules] = [:]
        for tool in Tool.allCases where tool != .eraser {
            let look = style[tool]
            let shape = look.stroke
            tools[tool.description] = ToolRules(
                pressureExponent: shape.pressureCurve.exponent, minWidth: shape.minWidth, maxWidth: shape.maxWidth,
                smoothing: shape.smoothing, taperStart: shape.taperStart, taperEnd: shape.taperEnd, taperTip: shape.taperTip,
                cornerAngle: shape.cornerAngle, pressureSimulation: shape.pressureSimulation.name, opacity: look.opacity,
                blend: look.blend.cssName ?? "source-over", under: look.underInk,
                pressureOpacity: look.pressureOpacity.map { [$0.lowerBound, $0.upperBound] })
        }
        self.tools = tools
        geometry = [
            "maximumSlope": StrokeGeometry.maximumSlope, "mergeShare": StrokeGeometry.mergeShare,
            "taperShareLimit": StrokeGeometry.taperShareLimit, "smoothingWidths": StrokeGeometry.smoothingWidths,
            "smoothingReachLimit": StrokeGeometry.smoothingReachLimit, "cornerWindowWidths": StrokeGeometry.cornerWindowWidths,
            "stepBudget": StrokeGeometry.stepBudget, "maximumSteps": Double(StrokeGeometry.maximumSteps),
            "leastPressureSpeed": StrokeGeometry.leastPressureSpeed, "speedPressureDrop": StrokeGeometry.speedPressureDrop,
            "pressureEasing": StrokeGeometry.pressureEasing, "untimedInterval": StrokeGeometry.untimedInterval,
            "shortestInterval": StrokeGeometry.shortestInterval, "lonePointPressure": StrokeGeometry.lonePointPressure,
        ]
        topEdgeBand = session.topEdgeBand
        navigationHideAfterReveal = session.navigationHideAfterReveal
    }
}

private extension PressureSimulation {
    var name: String {
        switch self {
        case .automatic: "automatic"
        case .always: "always"
        case .never: "never"
        }
    }
}
