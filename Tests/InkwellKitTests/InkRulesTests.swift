import InkGeometry
import InkRender
import InkwellKit
import Testing

@Suite("InkRules: what a front end draws ink with, from the engine's values")
struct InkRulesTests {
    @Test("each writing tool's shape and look are InkStyle's; erasers draw nothing")
    func toolsAreTheStyles() throws {
        let rules = InkRules()
        #expect(Set(rules.tools.keys) == ["pen", "fineliner", "pencil", "marker", "highlighter"])
        let pencil = try #require(rules.tools["pencil"])
        #expect(pencil.minWidth == StrokeStyle.pencil.minWidth && pencil.taperEnd == StrokeStyle.pencil.taperEnd)
        #expect(pencil.blend == "darken" && pencil.pressureOpacity == [0.3, 0.9] && pencil.pressureExponent == 1)
        let highlighter = try #require(rules.tools["highlighter"])
        #expect(highlighter.under && highlighter.blend == "multiply" && highlighter.pressureSimulation == "never")
        #expect(rules.tools["pen"]?.pressureSimulation == "automatic" && rules.tools["pen"]?.blend == "source-over")
    }

    @Test("a changed style and session change the rules: a hard pressure curve, a narrower band, a longer reveal")
    func followsTheConfiguration() throws {
        var style = InkStyle.standard
        style.pen.stroke.pressureCurve = .hard
        var session = SessionConfig()
        session.topEdgeBand = 80
        session.navigationHideAfterReveal = 7
        let rules = InkRules(session: session, style: style)
        #expect(rules.tools["pen"]?.pressureExponent == PressureCurve.hard.exponent)
        #expect(rules.topEdgeBand == 80 && rules.navigationHideAfterReveal == 7)
    }

    @Test("the geometry's constants are StrokeGeometry's, by name")
    func geometryConstants() {
        let geometry = InkRules().geometry
        #expect(geometry["maximumSlope"] == StrokeGeometry.maximumSlope)
        #expect(geometry["maximumSteps"] == Double(StrokeGeometry.maximumSteps))
        #expect(geometry["leastPressureSpeed"] == StrokeGeometry.leastPressureSpeed)
        #expect(geometry.count == 14)
    }
}
