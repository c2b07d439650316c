import Foundation
import InkFont
import InkGeometry

/// Text set in a Hershey stroke font as polylines: vector text with no font to embed, stroked like ink.
/// Used for a note's typed text on pages of its own (``TypedTextLayout``) and for text printed on an
/// imported page's paper (``PrintedLine``).
struct HersheyText {
    let font: HersheyFont

    /// Font units per em: the Hershey fonts' cap line is at −12 and base line at 9 (21 units).
    static let unitsPerEm = 32.0
    /// A word space in font units: the fonts' own is 16 (half an em), which reads as gaps; a third
    /// of an em is what text faces use.
    static let space = 10.0

    /// The pen width that draws text of em `size` at `weight` (1 regular, 1.6 bold).
    static func strokeWidth(size: Double, weight: Double) -> Double { 0.075 * size * weight }

    /// Emits the polylines of `text` from `x` on `baseline` at em `size` (any unit); returns the advance.
    /// A character the font cannot draw is a hollow box the size of a capital.
    func draw(_ text: String, x: Double, baseline: Double, size: Double, _ emit: (_ points: [V2], _ thin: Bool) -> Void) -> Double {
        let scale = size / Self.unitsPerEm
        var pen = x
        for character in text {
            if character == " " {
                pen += Self.space * scale
                continue
            }
            guard let glyphs = glyphs(for: character) else {
                let w = 14 * scale
                emit([V2(pen + 2 * scale, baseline), V2(pen + w, baseline), V2(pen + w, baseline - 21 * scale),
                      V2(pen + 2 * scale, baseline - 21 * scale), V2(pen + 2 * scale, baseline)], true)
                pen += 16 * scale
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

    /// The width of `text` at em `size`.
    func measure(_ text: String, size: Double) -> Double {
        let scale = size / Self.unitsPerEm
        return text.reduce(0.0) { total, character in
            if character == " " { return total + Self.space * scale }
            return total + (glyphs(for: character).map { $0.reduce(0.0) { $0 + Double($1.advance) } } ?? 16) * scale
        }
    }

    /// The glyphs that draw `character`: its own, or its letters without accents (é is e), or a plain
    /// form of typographic punctuation; nil when the font has nothing close.
    func glyphs(for character: Character) -> [HersheyGlyph]? {
        if let glyph = font.glyph(for: character) { return [glyph] }
        let plain: String
        switch character {
        case "\t", "\u{A0}", "\u{2002}", "\u{2003}", "\u{2009}": plain = " "
        case "\u{2018}", "\u{2019}": plain = "'"
        case "\u{201C}", "\u{201D}": plain = "\""
        case "\u{2013}", "\u{2014}", "\u{2212}": plain = "-"
        case "\u{2026}": plain = "..."
        case "\u{2022}": plain = "*"
        default:
            plain = String(String(character).decomposedStringWithCanonicalMapping.unicodeScalars
                .filter { $0.isASCII && !$0.properties.isWhitespace }.map(Character.init))
        }
        let found = plain.compactMap { font.glyph(for: $0) }
        return found.isEmpty || found.count != plain.count ? nil : found
    }
}
