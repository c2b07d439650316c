import InkCore

/// How page units (the pixels strokes are recorded in) relate to physical size.
///
/// One rule for every export: a page is in the resolution its source states
/// (``InkCore/PageTemplate/unitsPerInch``: 226 for a reMarkable page, grown past the screen or not; 72
/// for PDF, Xournal++ pages and reMarkable pages placed on their PDF; Rnote's `dpi`; 226 for InkML's
/// inches), so every page of a note is in the same physical units and a grown page grows in them. A
/// page whose source stated none (written in Inkwell, a replay log, a library from before) has its
/// resolution inferred from its size: the pages of known tablets map to their screens' resolution, and
/// anything else is taken to be in PDF points (1/72 in), as Xournal++ pages and A4/Letter pages are.
///
/// | page size (either orientation) | units per inch | PDF page |
/// |---|---|---|
/// | 1404 × 1872 (reMarkable 1 and 2) | 226 | 447.3 × 596.4 pt |
/// | 1620 × 2160 (reMarkable Paper Pro) | 229 | 509.3 × 679.1 pt |
/// | 1404 × 1872 × k | 226 × k | same as above |
/// | anything else | 72 | width × height pt |
public enum PageMetrics {
    /// Page units per inch for a page of `size`.
    public static func unitsPerInch(for size: PageSize) -> Double {
        let short = Double(min(size.width, size.height)), long = Double(max(size.width, size.height))
        for (w, h, dpi) in [(1404.0, 1872.0, 226.0), (1620.0, 2160.0, 229.0)] {
            let k = (short / w).rounded()
            if k >= 1, abs(short - w * k) < 1, abs(long - h * k) < 1 { return dpi * k }
        }
        return 72
    }

    /// PDF points per page unit, with an explicit `unitsPerInch` when given.
    public static func pointsPerUnit(for size: PageSize, unitsPerInch: Double? = nil) -> Double {
        72 / (unitsPerInch ?? self.unitsPerInch(for: size))
    }

    /// Page units per inch for `page`: the resolution its source stated, else inferred from its size.
    public static func unitsPerInch(for page: Page) -> Double {
        page.template.unitsPerInch.map(Double.init) ?? unitsPerInch(for: page.size)
    }

    /// PDF points per page unit of `page`, with an explicit `unitsPerInch` (every page alike) when given.
    public static func pointsPerUnit(for page: Page, unitsPerInch: Double? = nil) -> Double {
        72 / (unitsPerInch ?? self.unitsPerInch(for: page))
    }
}
