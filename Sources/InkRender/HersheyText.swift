import Foundation
import InkFont
import InkGeometry

/// Text set in a Hershey stroke font as polylines: vector text with no font to embed, stroked like ink.
/// Used for a note's typed text on pages of its own (``TypedTextLayout``) and for text printed on an
/// imported page's paper (``PrintedLine``).
struct HersheyText {
    let font: HersheyFont

    /// The pen width that draws text of em `size` at `weight` (1 regular, 1.6 bold).
    static func strokeWidth(size: Double, weight: Double) -> Double { 0.075 * size * weight }

    /// Emits the polylines of `text` from `x` on `baseline` at em `size` (any unit); returns the advance.
    /// A character the font cannot draw is a hollow box the size of a capital.
    func draw(_ text: String, x: Double, baseline: Double, size: Double, _ emit: (_ points: [V2], _ thin: Bool) -> Void) -> Double {
        let scale = size / HersheyFont.unitsPerEm
        var pen = x
        for character in text {
            if character == " " {
                pen += HersheyFont.wordSpace * scale
                continue
            }
            guard let glyphs = font.glyphs(for: character) else {
                let w = 14 * scale
                emit([V2(pen + 2 * scale, baseline), V2(pen + w, baseline), V2(pen + w, baseline - 21 * scale),
                      V2(pen + 2 * scale, baseline - 21 * scale), V2(pen + 2 * scale, baseline)], true)
                pen += HersheyFont.missingAdvance * scale
                continue
            }
            for glyph in glyphs {
                for path in glyph.strokes {
                    emit(path.map { V2(pen + ($0.x - Double(glyph.left)) * scale, baseline + ($0.y - 9) * scale) }, false)
                }
                pen += Double(glyph.advance) * scale
            }
        }
        return pen - x
    }
}
