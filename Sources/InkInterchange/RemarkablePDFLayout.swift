import InkCore

/// How a reMarkable page's ink lies on the PDF page under it. One rule, by the generation of the
/// software that wrote the page (docs/import-formats.md, *PDF backgrounds*, has the evidence): a page's
/// coordinates are the tablet's pixels (226 dpi) as the decoder gives them, x from 0 at the screen's left
/// edge, y from 0 at its top; what differs is where the PDF page was on that screen.
public enum RemarkablePDFLayout: Sendable, Equatable {
    /// Software 3.0 and later (`.lines` v6): the PDF page at its true size at 226 dpi, its middle at the
    /// screen's middle (x = 0 in the file), its top at y = 0, whatever the zoom.
    case trueSize
    /// Software before 3.0 (`.lines` v3 and v5): the PDF page fitted into the 1404 × 1872 screen (as
    /// large as it fits whole), its top-left corner at the screen's.
    case fittedToScreen

    /// Points on the PDF page per tablet pixel, and where the screen's top-left corner lands on the page
    /// (points): a tablet pixel (x, y) is at (x · scale + dx, y · scale + dy) on a page `width` × `height`
    /// points.
    public func placement(width: Float, height: Float) -> (scale: Float, dx: Float, dy: Float) {
        switch self {
        case .trueSize:
            let scale: Float = 72 / 226
            return (scale, width / 2 - RemarkableDecoder.xOffset * scale, 0)
        case .fittedToScreen:
            let screen = PageSize.remarkable
            return (max(width / screen.width, height / screen.height), 0, 0)
        }
    }
}
