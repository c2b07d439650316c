import CPoppler
import Foundation

/// Why a PDF could not be opened.
public struct PDFError: Error, CustomStringConvertible, Sendable, Equatable {
    public var reason: String

    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}

/// A PDF opened with poppler (loaded on first use): its pages' sizes, and each page drawn into a
/// Cairo context as vector graphics. Poppler's documents are not thread-safe, so every call holds the
/// document's lock.
public final class PDFPages: @unchecked Sendable {
    /// The largest PDF Inkwell opens, and the most pages it takes from one.
    public static let maxBytes = 512 << 20
    public static let maxPages = 10_000

    private let document: UnsafeMutableRawPointer
    private let lock = NSLock()
    /// Opening documents is serialised: poppler's global state is set up on first use, which older
    /// versions do not guard.
    private static let opening = NSLock()
    /// Each page's size in PDF points (1/72 in), rotation applied.
    public let sizes: [(width: Double, height: Double)]

    /// Opens `data`; throws when poppler cannot be loaded or the bytes are not a PDF it can read
    /// (damaged beyond repair, encrypted with a password, no pages, more than ``maxPages``).
    public init(_ data: Data) throws(PDFError) {
        if let problem = ink_poppler_load() { throw PDFError(String(cString: problem)) }
        PDFPages.opening.lock()
        defer { PDFPages.opening.unlock() }
        guard data.count <= PDFPages.maxBytes else { throw PDFError("the PDF is larger than \(PDFPages.maxBytes >> 20) MiB") }
        let bytes = data.withUnsafeBytes { ink_poppler_bytes_new($0.baseAddress, $0.count) }
        defer { ink_poppler_bytes_unref(bytes) }
        var error: UnsafeMutableRawPointer?
        guard let document = ink_poppler_document_new_from_bytes(bytes, &error) else {
            let message = ink_poppler_error_message(error).map { String(cString: $0) } ?? "unknown error"
            if error != nil { ink_poppler_error_free(error) }
            throw PDFError("not a PDF poppler can read (\(message))")
        }
        let count = Int(ink_poppler_document_get_n_pages(document))
        guard count > 0, count <= PDFPages.maxPages else {
            ink_poppler_object_unref(document)
            throw PDFError(count == 0 ? "the PDF has no pages" : "the PDF has \(count) pages, more than \(PDFPages.maxPages)")
        }
        var sizes: [(width: Double, height: Double)] = []
        for index in 0..<count {
            var width = 0.0, height = 0.0
            if let page = ink_poppler_document_get_page(document, Int32(index)) {
                ink_poppler_page_get_size(page, &width, &height)
                ink_poppler_object_unref(page)
            }
            guard width.isFinite, height.isFinite, width >= 1, height >= 1, width <= 14_400, height <= 14_400 else {
                ink_poppler_object_unref(document)
                throw PDFError("page \(index + 1) of the PDF has no usable size (\(width) × \(height) pt)")
            }
            sizes.append((width, height))
        }
        self.document = document
        self.sizes = sizes
    }

    deinit { ink_poppler_object_unref(document) }

    public var pageCount: Int { sizes.count }

    /// Draws page `index` (0 is the first) into the Cairo context `cairo`, its top-left corner at the
    /// context's origin, one unit per PDF point (scale the context first). `printing` draws it as for
    /// print (annotations meant for the screen only left out), which vector outputs want.
    public func draw(page index: Int, into cairo: OpaquePointer, printing: Bool) {
        guard sizes.indices.contains(index) else { return }
        withPage(index) { page in
            let context = UnsafeMutableRawPointer(cairo)
            if printing {
                ink_poppler_page_render_for_printing(page, context)
            } else {
                ink_poppler_page_render(page, context)
            }
        }
    }

    /// `body` on poppler's page `index`, holding the document's lock; nil when poppler has no such page.
    func withPage<T>(_ index: Int, _ body: (UnsafeMutableRawPointer) -> T) -> T? {
        lock.lock()
        defer { lock.unlock() }
        guard let page = ink_poppler_document_get_page(document, Int32(index)) else { return nil }
        defer { ink_poppler_object_unref(page) }
        return body(page)
    }

    /// The name a background document is stored and referred to by: the SHA-256 of its bytes in
    /// lowercase hex (see ``InkCore/PageBackground``), computed by the GLib poppler loads; throws
    /// when poppler cannot be loaded (nothing could be drawn from the PDF then either).
    public static func documentID(of data: Data) throws(PDFError) -> String {
        if let problem = ink_poppler_load() { throw PDFError(String(cString: problem)) }
        let hex = data.withUnsafeBytes { bytes in
            ink_poppler_sha256(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count)
        }
        guard let hex else { throw PDFError("GLib could not compute the PDF's SHA-256") }
        defer { ink_poppler_free(hex) }
        return String(cString: hex)
    }
}

/// The background PDFs of a set of pages, opened on first use and kept: a note's stored documents,
/// or the documents a file being converted holds. A document that cannot be found or opened is
/// nil, and its pages are drawn on plain paper.
public final class BackgroundDocuments: @unchecked Sendable {
    private let load: @Sendable (String) -> Data?
    private let lock = NSLock()
    private var opened: [String: PDFPages?] = [:]
    private var images: [(key: String, bytes: [UInt8])] = []
    /// Images kept by ``image(_:make:)``, the most recently used last.
    private static let keptImages = 16

    /// Documents read by `load`, given a document's ID.
    public init(load: @escaping @Sendable (String) -> Data?) {
        self.load = load
    }

    /// Documents held in memory, by ID.
    public convenience init(_ documents: [String: Data]) {
        self.init { documents[$0] }
    }

    /// No documents: every page on plain paper.
    public static let none = BackgroundDocuments { _ in nil }

    /// The image `key` names (a rendering of a document's page), made by `make` the first time and kept
    /// (the last few used); nil when `make` gives none.
    public func image(_ key: String, make: () -> [UInt8]?) -> [UInt8]? {
        lock.lock()
        if let index = images.firstIndex(where: { $0.key == key }) {
            let hit = images.remove(at: index)
            images.append(hit)
            lock.unlock()
            return hit.bytes
        }
        lock.unlock()
        guard let bytes = make() else { return nil }
        lock.lock()
        defer { lock.unlock() }
        images.append((key, bytes))
        if images.count > BackgroundDocuments.keptImages { images.removeFirst() }
        return bytes
    }

    /// The document `id`, opened; nil when it cannot be found or read.
    public func document(_ id: String) -> PDFPages? {
        lock.lock()
        defer { lock.unlock() }
        if let known = opened[id] { return known }
        let pages = load(id).flatMap { try? PDFPages($0) }
        opened[id] = pages
        return pages
    }
}

extension BackgroundDocuments: Hashable {
    /// The same documents: the same object.
    public static func == (lhs: BackgroundDocuments, rhs: BackgroundDocuments) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
