import CCairo
import Foundation
import InkCore
import InkGeometry

/// The searchable text of a PDF page, in a font without glyphs: nothing shows (over a PDF background
/// too), and the PDF's ToUnicode map gives any Unicode text back to `pdftotext`, search and selection.
/// Tesseract's PDF renderer does the same with its `pdf.ttf`.
///
/// The font is a Cairo user font, written into the PDF as Type 3 fonts shared by the whole document
/// (up to 256 glyphs each): a glyph is a character in one of ``widthClasses`` advance widths (glyph
/// number = code point × classes + class). A line is set in the class that spans its box best
/// (within 10 %), each character one advance after the last, so a PDF reader sees the words as
/// written and a selection covers the handwriting. One size and one matrix for every line keep the
/// fonts shared: with a matrix a line, Cairo would write a font a line; coarse classes keep it a few
/// glyphs a character.
enum InvisibleText {
    /// The font size, in points.
    static let size = 10.0
    /// Advance widths, in points: `narrowest` × `step`^class (0.25 to 367 pt).
    static let widthClasses: UInt = 41
    static let narrowest = 0.25
    static let step = 1.2

    static func advance(class widthClass: UInt) -> Double { narrowest * pow(step, Double(widthClass)) }

    /// The glyph-less font, made once.
    nonisolated(unsafe) static let face: OpaquePointer = {
        let face = cairo_user_font_face_create()!
        // Nothing is drawn; the ink box is the glyph's cell, because Cairo drops glyphs whose box is
        // empty, and their text with them.
        cairo_user_font_face_set_render_glyph_func(face) { _, glyph, _, extents in
            let width = InvisibleText.advance(class: UInt(glyph) % InvisibleText.widthClasses) / InvisibleText.size
            extents?.pointee = cairo_text_extents_t(x_bearing: 0, y_bearing: -0.8, width: width, height: 1,
                                                   x_advance: width, y_advance: 0)
            return CAIRO_STATUS_SUCCESS
        }
        return face
    }()

    /// `character`, or U+FFFD for the noncharacters Cairo refuses (U+FDD0…FDEF, U+xFFFE, U+xFFFF):
    /// one of them would put the whole PDF in an error state.
    static func drawable(_ character: Unicode.Scalar) -> Unicode.Scalar {
        let value = character.value
        return (0xFDD0...0xFDEF).contains(value) || value & 0xFFFE == 0xFFFE ? "\u{FFFD}" : character
    }

    /// Draws each line's characters over its box (page units, `scale` points each), on the box's
    /// baseline. Cairo's context must have an identity matrix.
    static func draw(_ lines: [TextLine], scale k: Double, into cr: OpaquePointer) {
        cairo_save(cr)
        cairo_set_font_face(cr, face)
        cairo_set_font_size(cr, size)
        cairo_set_source_rgb(cr, 0, 0, 0)
        for line in lines where !line.text.isEmpty && !line.bounds.isNull && line.bounds.height > 0 {
            let characters = line.text.unicodeScalars.map(drawable)
            let spacing = max(line.bounds.width, 0) * k / Double(characters.count)
            guard spacing.isFinite, spacing > 0 else { continue }
            let nearest = (log(spacing / narrowest) / log(step)).rounded()
            let widthClass = UInt(min(Double(widthClasses - 1), max(0, nearest)))
            let baseline = (line.bounds.maxY - 0.2 * line.bounds.height) * k
            let advance = advance(class: widthClass)
            var glyphs = characters.enumerated().map { index, character in
                cairo_glyph_t(index: UInt(character.value) * widthClasses + widthClass,
                              x: line.bounds.minX * k + Double(index) * advance, y: baseline)
            }
            var clusters = characters.map { cairo_text_cluster_t(num_bytes: Int32(UTF8.width($0)), num_glyphs: 1) }
            var text = String.UnicodeScalarView()
            text.append(contentsOf: characters)
            let utf8 = Array(String(text).utf8)
            utf8.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { text in
                    cairo_show_text_glyphs(cr, text.baseAddress, Int32(text.count), &glyphs, Int32(glyphs.count),
                                           &clusters, Int32(clusters.count), cairo_text_cluster_flags_t(rawValue: 0))
                }
            }
        }
        cairo_restore(cr)
    }
}
