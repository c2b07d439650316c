import Foundation

/// Widths and line breaking of text set in a Hershey font, so that whoever lays text out (a note's typed
/// text on pages of its own, an imported page's typed text) and whoever draws it agree on every width.
extension HersheyFont {
    /// Font units per em: the Hershey fonts' cap line is at −12 and base line at 9 (21 units).
    public static let unitsPerEm = 32.0
    /// A word space in font units: the fonts' own is 16 (half an em), which reads as gaps; a third
    /// of an em is what text faces use.
    public static let wordSpace = 10.0
    /// The advance, in font units, of a character the font has nothing for (drawn as a hollow box).
    public static let missingAdvance = 16.0

    /// The glyphs that draw `character`: its own, or its letters without accents (é is e), or a plain
    /// form of typographic punctuation; nil when the font has nothing close.
    public func glyphs(for character: Character) -> [HersheyGlyph]? {
        if let glyph = glyph(for: character) { return [glyph] }
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
        let found = plain.compactMap { glyph(for: $0) }
        return found.isEmpty || found.count != plain.count ? nil : found
    }

    /// The width of `text` at em `size` (any unit).
    public func width(of text: some StringProtocol, size: Double) -> Double {
        let scale = size / Self.unitsPerEm
        return text.reduce(0.0) { total, character in
            if character == " " { return total + Self.wordSpace * scale }
            return total + (glyphs(for: character).map { $0.reduce(0.0) { $0 + Double($1.advance) } } ?? Self.missingAdvance) * scale
        }
    }

    /// `text` in lines no wider than `width` at em `size`: broken at spaces (the spaces at a break are
    /// dropped, the others kept as written), inside a word only when the word alone is wider than a line.
    /// Leading and trailing spaces are dropped; text without words is one empty line.
    public func wrap(_ text: Substring, width: Double, size: Double) -> [Substring] {
        var lines: [Substring] = []
        var line: Range<String.Index>?
        var lineWidth = 0.0
        var index = text.startIndex
        while index < text.endIndex {
            while index < text.endIndex, text[index] == " " { index = text.index(after: index) }
            guard index < text.endIndex else { break }
            let wordStart = index
            while index < text.endIndex, text[index] != " " { index = text.index(after: index) }
            let wordWidth = self.width(of: text[wordStart..<index], size: size)
            if let current = line {
                let gap = self.width(of: text[current.upperBound..<wordStart], size: size)
                if lineWidth + gap + wordWidth <= width {
                    line = current.lowerBound..<index
                    lineWidth += gap + wordWidth
                    continue
                }
                lines.append(text[current])
            }
            var pieces = breakCharacters(text[wordStart..<index], width: width, size: size)
            let last = pieces.removeLast()
            lines += pieces
            line = last.startIndex..<last.endIndex
            lineWidth = self.width(of: last, size: size)
        }
        if let line { lines.append(text[line]) }
        return lines.isEmpty ? [text[text.startIndex..<text.startIndex]] : lines
    }

    /// `text` in pieces no wider than `width` at em `size`, broken between any two characters (each piece
    /// holds at least one).
    public func breakCharacters(_ text: Substring, width: Double, size: Double) -> [Substring] {
        var pieces: [Substring] = []
        var start = text.startIndex
        var pieceWidth = 0.0
        var index = text.startIndex
        while index < text.endIndex {
            let characterWidth = self.width(of: text[index...index], size: size)
            if index > start, pieceWidth + characterWidth > width {
                pieces.append(text[start..<index])
                start = index
                pieceWidth = 0
            }
            pieceWidth += characterWidth
            index = text.index(after: index)
        }
        pieces.append(text[start..<text.endIndex])
        return pieces
    }
}
