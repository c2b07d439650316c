import Foundation
import InkCore
import InkExport
import InkPDF
import InkRender
import InkStore
import InkWorkspace

/// Draws a note's pages as the web notebook shows them: SVG, with the PDF pages under them
/// linked rather than embedded.
public struct PageDrawing: Sendable {
    let renderer: Renderer

    /// The SVG the exporter would write for `page`; the PDF page under it, if any, is an image at
    /// `backgroundHref`.
    public func svg(_ page: Page, backgroundHref: String?) -> String {
        renderer.svg(page, backgroundHref: backgroundHref)
    }

    /// The SVG of `page`'s paper alone: the PDF page under it (an image at `backgroundHref`), the
    /// template and printed text; the ink goes over it stroke by stroke (``ink(of:on:)``).
    public func paper(_ page: Page, backgroundHref: String?) -> String {
        renderer.svgPaper(page, backgroundHref: backgroundHref)
    }

    /// One stroke's ink as `page`'s SVG draws it (its `<path>` elements), and whether it is painted
    /// under all the ink (highlighters, markers). Valid alone only on a page without eraser strokes
    /// (``drawsWhole(_:)``).
    public func ink(of stroke: Stroke, on page: Page) -> (svg: String, underInk: Bool) {
        (renderer.svgInk(of: stroke, on: page), renderer.isUnderInk(stroke))
    }

    /// The tolerance `page`'s SVG is drawn to, in page units: a browser drawing a stroke live builds its
    /// outline to the same.
    public func tolerance(_ page: Page) -> Double { renderer.vectorTolerance(for: page) }

    /// Whether `stroke` is painted under all the ink (highlighters, markers).
    public func isUnderInk(_ stroke: Stroke) -> Bool { renderer.isUnderInk(stroke) }

    /// All of `page`'s ink as one SVG fragment, eraser strokes applied.
    public func wholeInk(_ page: Page) -> String {
        renderer.svgInk(page)
    }

    /// Whether `page` must be drawn whole rather than stroke by stroke: it has eraser strokes, which
    /// cut the strokes drawn before them.
    public func drawsWhole(_ page: Page) -> Bool {
        page.strokes.contains { $0.tool == .eraser }
    }
}

/// A note's pages, read and drawn.
extension Workspace {
    /// The pages of the note with exactly this id, in order.
    public func pages(of id: NoteID) throws -> [Page] {
        try library.pages(of: stored(id))
    }

    /// A PNG of page `number` (1-based; the first by default) of `note`, `width` pixels wide, drawn on
    /// its PDF page if it has one; nil when the note has no such page.
    public func thumbnail(of note: NoteID, page number: Int = 1, width: Int = 256) throws -> [UInt8]? {
        let stored = try stored(note)
        let pages = try library.pages(of: stored)
        guard pages.indices.contains(number - 1) else { return nil }
        return try renderer(backgrounds: library.backgroundDocuments(of: stored)).thumbnail(pages[number - 1], width: width)
    }

    /// A PNG of the PDF page `page` of `note` is drawn on (nil when it is on none, or on one that cannot
    /// be read); the documents are those of `live` when the note is open for writing.
    public func backgroundImage(of page: Page, in note: NoteID, live: LiveNote?) throws -> [UInt8]? {
        let backgrounds = try live?.backgrounds ?? library.backgroundDocuments(of: stored(note))
        return renderer(backgrounds: backgrounds).backgroundImage(page)
    }

    /// How the pages of a note open for writing are drawn while it is written on.
    public func pageDrawing(for live: LiveNote) -> PageDrawing {
        PageDrawing(renderer: renderer(backgrounds: live.backgrounds))
    }

    private func renderer(backgrounds: BackgroundDocuments) -> Renderer {
        var options = RenderOptions()
        options.backgrounds = backgrounds
        return Renderer(options: options)
    }
}
