import Foundation
import InkCore
import InkFont

/// A word's pen paths in writing order, before timing: pixels relative to the point where the
/// word starts on its baseline (y down).
struct ShapedWord {
    var paths: [[Vector]]
    /// How far along the baseline the pen has moved: the gap to the next word starts here.
    var advance: Double
}

/// Turns a word into pen paths with a font, a style and the variations of a hand.
struct WordShaper {
    let font: HersheyFont
    let style: HandwritingStyle
    let jitter: JitterProfile
    /// Pixels per font unit.
    let scale: Double
    /// The note's slant, radians.
    let slant: Double

    /// The base line of normal-size Hershey glyphs, in font units.
    private static let fontBaseline = 9.0
    /// Strokes of a letter this short (font units) are dots and bars, written after the word in script.
    private static let markLength = 8.0

    func shape(_ word: String, rng: inout SeededGenerator) -> ShapedWord {
        let wordScale = scale * (1 + rng.normal(jitter.wordScale))
        let shear = tan(slant + rng.normal(jitter.wordSlant))
        let rotation = rng.normal(jitter.wordRotation)

        var paths: [[Vector]] = []
        var marks: [[Vector]] = []
        var x = 0.0
        var previousIsLetter = false
        for character in word {
            guard let glyph = font.glyph(for: character) ?? font.glyph(for: "?") else { continue }
            let letterScale = wordScale * (1 + rng.normal(jitter.letterScale))
            let lift = rng.normal(jitter.baselineOffset * 0.25)
            let origin = x
            let place = { (p: Vector) in
                Vector(x: origin + (p.x - Double(glyph.left)) * letterScale, y: (p.y - Self.fontBaseline) * letterScale + lift)
            }
            let isLetter = character.isLetter
            var strokes = glyph.strokes
            if style.defersMarks, isLetter, strokes.count > 1 {
                marks += strokes.filter { length(of: $0) <= Self.markLength }.map { $0.map(place) }
                strokes.removeAll { length(of: $0) <= Self.markLength }
            }
            strokes = joined(strokes)
            for (index, stroke) in strokes.enumerated() {
                let points = stroke.map(place)
                if index == 0, isLetter, previousIsLetter, let last = paths.last?.last,
                   let gap = style.letterJoinGap, joins(last, points[0], within: gap * letterScale) {
                    paths[paths.count - 1] += points
                } else {
                    paths.append(points)
                }
            }
            previousIsLetter = isLetter && !strokes.isEmpty
            x += (Double(glyph.advance) * style.tracking + rng.normal(jitter.letterSpacing)) * letterScale
        }

        let (sinR, cosR) = (sin(rotation), cos(rotation))
        let transform = { (p: Vector) in
            let sheared = Vector(x: p.x - shear * p.y, y: p.y)
            return Vector(x: sheared.x * cosR - sheared.y * sinR, y: sheared.x * sinR + sheared.y * cosR)
        }
        let written = (paths + marks).map { wobble($0.map(transform), rng: &rng) }
        return ShapedWord(paths: written, advance: x * cosR)
    }

    /// A glyph's strokes, with each that starts near where the previous one ended (within the
    /// style's gap) drawn on in one movement.
    private func joined(_ strokes: [[Vector]]) -> [[Vector]] {
        var result: [[Vector]] = []
        for stroke in strokes {
            if let last = result.last?.last, let first = stroke.first, (first - last).length <= style.strokeJoinGap {
                result[result.count - 1] += first == last ? Array(stroke.dropFirst()) : stroke
            } else {
                result.append(stroke)
            }
        }
        return result
    }

    /// True when the pen may run on from `end` to `start`: close, and not doubling back.
    private func joins(_ end: Vector, _ start: Vector, within gap: Double) -> Bool {
        (start - end).length <= gap && start.x - end.x >= -2 * scale
    }

    private func length(of path: [Vector]) -> Double {
        zip(path, path.dropFirst()).reduce(0) { $0 + ($1.1 - $1.0).length }
    }

    /// The path, densified to 2 px steps and bent by a slow random wave: a hand never draws the
    /// font's straight segments exactly.
    private func wobble(_ path: [Vector], rng: inout SeededGenerator) -> [Vector] {
        guard jitter.strokeWobble > 0, path.count > 1 else { return path }
        let amplitude = jitter.strokeWobble * rng.uniform(0.5...1)
        let waves = (0..<2).map { _ in (length: rng.uniform(30...90), phase: rng.uniform(0...(2 * .pi))) }
        func offset(at s: Double) -> Vector {
            Vector(x: amplitude * sin(2 * .pi * s / waves[0].length + waves[0].phase),
                   y: amplitude * sin(2 * .pi * s / waves[1].length + waves[1].phase))
        }
        var result = [path[0] + offset(at: 0)]
        var travelled = 0.0
        for (from, to) in zip(path, path.dropFirst()) {
            let segment = (to - from).length
            let steps = max(1, Int((segment / 2).rounded(.up)))
            for step in 1...steps {
                let f = Double(step) / Double(steps)
                result.append(from + (to - from) * f + offset(at: travelled + segment * f))
            }
            travelled += segment
        }
        return result
    }
}
