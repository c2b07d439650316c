import Foundation
import InkCore
import InkExport
import InkGeometry
import InkPDF
import InkRender
import InkStore
import InkWorkspace

/// Pages to render and whose they are: a note of the library, or a pen file converted in memory.
public struct PageSource: Sendable {
    public var title: String
    /// The note's id; nil for a file.
    public var noteID: NoteID?
    public var pages: [Page]
    let backgrounds: BackgroundDocuments
}

/// How pages are drawn by `inkwell render`: the tools' looks with optional smoothing and pressure
/// curve, what erasers remove, and the PDF pages under the ink.
public struct PageRenderer: Sendable {
    let renderer: Renderer

    /// True when `name` is a pressure curve: linear, soft, hard or a positive exponent.
    public static func isPressureCurve(_ name: String) -> Bool { PressureCurve(name: name) != nil }

    /// The eraser modes by name: what eraser strokes remove.
    public static var eraserModes: [String] { EraserMode.allCases.map(\.rawValue) }

    /// The default eraser mode's name (`split`: only what they cross).
    public static var defaultEraserMode: String { EraserMode.split.rawValue }

    /// A renderer of `source`'s pages; `eraser` is one of ``eraserModes``, `smoothing` 0…1 (nil: per tool),
    /// `pressureCurve` a name ``isPressureCurve(_:)`` accepts.
    public init(_ source: PageSource, eraser: String, smoothing: Double?, pressureCurve: String?) {
        var options = RenderOptions(eraserMode: EraserMode(rawValue: eraser) ?? .split, title: source.title)
        options.style = options.style.with(smoothing: smoothing, pressureCurve: pressureCurve.flatMap(PressureCurve.init(name:)))
        options.backgrounds = source.backgrounds
        renderer = Renderer(options: options)
    }

    /// A small PNG of `page`, 256 pixels wide.
    public func thumbnail(_ page: Page) throws -> [UInt8] { try renderer.thumbnail(page) }
    /// One vector PDF of `pages`.
    public func pdf(_ pages: [Page]) throws -> [UInt8] { try renderer.pdf(pages) }
    /// A PNG of each page at `scale` pixels per page unit.
    public func pngs(_ pages: [Page], scale: Double) throws -> [[UInt8]] { try renderer.pngs(pages, scale: scale) }
    /// An SVG of `page`.
    public func svg(_ page: Page) -> String { renderer.svg(page) }
    /// An SVG that plays the writing of `page` back stroke by stroke.
    public func animatedSVG(_ page: Page) -> String { renderer.animatedSVG(page) }
}

extension ConvertedFile {
    /// The file's pages to render.
    public var source: PageSource { PageSource(title: title, noteID: nil, pages: pages, backgrounds: backgrounds) }
}

extension Workspace {
    /// The pages of the note `reference` names (id, unique id prefix or exact title), to render.
    public func pageSource(of reference: String) throws -> PageSource {
        let stored = try library.note(matching: reference)
        return PageSource(title: stored.note.title, noteID: stored.note.id, pages: try library.pages(of: stored),
                          backgrounds: library.backgroundDocuments(of: stored))
    }
}
