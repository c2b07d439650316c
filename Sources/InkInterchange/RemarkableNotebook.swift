import Foundation
import InkCore

/// Reads a reMarkable notebook as the tablet stores it — `UUID.content` (JSON: the page order),
/// `UUID.metadata` (the visible name) and `UUID/PAGE.rm` beside it — into one note with a page per
/// notebook page, in the notebook's order. Pages without a `.rm` file are blank pages.
public enum RemarkableNotebook {
    /// Most pages read from one notebook.
    public static let maxPages = 10_000

    /// True when `data` looks like a notebook's `.content` file.
    public static func looksLikeContent(_ data: Data) -> Bool {
        let head = String(decoding: data.prefix(8192), as: UTF8.self)
        guard head.first(where: { !$0.isWhitespace }) == "{" else { return false }
        return head.contains("\"cPages\"") || (head.contains("\"fileType\"") && (head.contains("\"pages\"") || head.contains("\"pageCount\"")))
    }

    /// Decodes the notebook whose `.content` file is `data`, read from `file` (its pages are found beside it).
    public static func decode(_ data: Data, file: String) throws(ImportError) -> Recording {
        let object: [String: Any]
        do {
            guard let parsed = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw ImportError(file: file, reason: "a reMarkable .content file is a JSON object")
            }
            object = parsed
        } catch let error as ImportError {
            throw error
        } catch {
            throw ImportError(file: file, reason: "not valid JSON (a reMarkable .content file)")
        }
        let url = URL(fileURLWithPath: file)
        let folder = url.deletingPathExtension()
        let pageIDs = try pageOrder(object, file: file)
        var pages: [ImportedPage] = []
        var originPages: [OriginPage] = []
        var warnings: [String] = []
        var typedText: [String] = []
        let type = object["fileType"] as? String ?? "notebook"
        let annotates = type == "pdf" || type == "epub"
        // A PDF document keeps its PDF: every page, on its PDF page (placed by the importer, which knows
        // the PDF's page sizes); an EPUB, or a PDF that is not beside the .content, only its handwriting.
        let pdf = type == "pdf" ? PDFFile.read(url.deletingPathExtension().appendingPathExtension("pdf")) : nil
        let pdfPages = pdf == nil ? [:] : pdfPageIndices(object)
        if annotates, pdf == nil {
            warnings.append("\(file): the notebook annotates a \(type.uppercased())\(type == "pdf" ? " that is not beside it" : ""); only its handwritten pages are imported, on blank paper")
        }
        for (number, id) in pageIDs.enumerated() {
            let pageURL = folder.appendingPathComponent(id + ".rm")
            let onPDF = pdfPages[id].map { PageBackground(document: RecordedNote.backgroundDocument, page: $0) }
            guard FileManager.default.fileExists(atPath: pageURL.path) else {
                // A notebook's empty page is a blank page, a PDF's page its PDF page; a document's page
                // without handwriting is otherwise left out.
                if !annotates || pdf != nil {
                    pages.append(ImportedPage(size: .remarkable, template: PageTemplate(background: onPDF)))
                    originPages.append(OriginPage(key: id, hash: FNV1a.hex([])))
                }
                continue
            }
            let bytes: Data
            do {
                bytes = try Data(contentsOf: pageURL)
            } catch {
                throw ImportError(file: pageURL.path, reason: "cannot read page \(number + 1) of the notebook: \(error.localizedDescription)")
            }
            let decoded = try RemarkableDecoder.decodePage(bytes, file: pageURL.path, growing: pdf == nil)
            var page = decoded.page
            page.template.background = onPDF
            pages.append(page)
            originPages.append(OriginPage(key: id, hash: FNV1a.hex(bytes)))
            if !decoded.typedText.isEmpty { typedText.append(decoded.typedText) }
            warnings += decoded.warnings
        }
        guard !pages.isEmpty else {
            throw ImportError(file: file, reason: annotates ? "the \(type.uppercased()) has no handwritten pages" : "the notebook lists no pages")
        }
        var note = RecordedNote(events: ImportedPage.events(pages), typedText: typedText.joined(separator: "\n\n"), background: pdf)
        let metadataURL = url.deletingPathExtension().appendingPathExtension("metadata")
        let metadata = try? Data(contentsOf: metadataURL)
        // The document's identity is its UUID (the .content file's name); it changes when the
        // .content, the .metadata, a page or the PDF changes.
        let documentHash = FNV1a.hex(Array(data) + Array(metadata ?? Data()) + originPages.flatMap { Array($0.hash.utf8) } + Array(pdf ?? Data()))
        note.origin = NoteOrigin(kind: .remarkable, key: url.deletingPathExtension().lastPathComponent, hash: documentHash, pages: originPages)
        if let metadata, metadata.count < 1 << 20,
           let fields = try? JSONSerialization.jsonObject(with: metadata) as? [String: Any] {
            if let name = fields["visibleName"] as? String, !name.isEmpty { note.title = String(name.prefix(200)) }
            let created = (fields["createdTime"] as? String).flatMap(Double.init) ?? (fields["lastModified"] as? String).flatMap(Double.init)
            if let ms = created, ms > 0, ms < 1e14 { note.created = Date(timeIntervalSince1970: ms / 1000) }
        }
        var recording = Recording(notes: [note], format: "rm")
        recording.warnings = warnings
        return recording
    }

    /// Which PDF page each page shows (0 is the first), by page id: `cPages.pages[].redir.value`, or the
    /// older `redirectionPageMap` beside `pages`. Pages added on the tablet (-1, or none) show no PDF page.
    static func pdfPageIndices(_ object: [String: Any]) -> [String: Int] {
        var indices: [String: Int] = [:]
        func valid(_ value: Any?) -> Int? {
            guard let number = (value as? NSNumber)?.intValue, number >= 0, number < PageBackground.maxPage else { return nil }
            return number
        }
        if let cPages = object["cPages"] as? [String: Any], let list = cPages["pages"] as? [[String: Any]] {
            for page in list {
                guard let id = page["id"] as? String, let index = valid((page["redir"] as? [String: Any])?["value"]) else { continue }
                indices[id] = index
            }
        } else if let ids = object["pages"] as? [String], let map = object["redirectionPageMap"] as? [Any] {
            for (id, value) in zip(ids, map) { if let index = valid(value) { indices[id] = index } }
        }
        return indices
    }

    /// Page ids in notebook order: `cPages.pages` sorted by `idx.value` (deleted pages left out), or the
    /// older `pages` list.
    static func pageOrder(_ object: [String: Any], file: String) throws(ImportError) -> [String] {
        var ids: [String] = []
        if let cPages = object["cPages"] as? [String: Any], let list = cPages["pages"] as? [[String: Any]] {
            var ordered: [(String, String)] = []
            for page in list {
                guard let id = page["id"] as? String else { continue }
                if page["deleted"] != nil { continue }
                let index = (page["idx"] as? [String: Any])?["value"] as? String ?? ""
                ordered.append((index, id))
            }
            ids = ordered.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map { $0.element.1 }
        } else if let list = object["pages"] as? [String] {
            ids = list
        } else {
            throw ImportError(file: file, reason: "a reMarkable .content file without \"cPages\" or \"pages\"")
        }
        guard ids.count <= maxPages else { throw ImportError(file: file, reason: "the notebook lists more than \(maxPages) pages") }
        for id in ids where id.isEmpty || id.contains("/") || id.contains("\\") || id.contains("..") || id.utf8.contains(0) {
            throw ImportError(file: file, reason: "page id \"\(id.prefix(60))\" is not a plain file name")
        }
        return ids
    }

    /// From files found in a folder, drops the `.rm` pages that belong to a notebook whose `.content` file
    /// is among them (the notebook imports them as one note).
    public static func withoutNotebookPages(_ files: [URL]) -> [URL] {
        let notebooks = Set(files.filter { $0.pathExtension.lowercased() == "content" }.map { $0.deletingPathExtension().standardizedFileURL.path })
        guard !notebooks.isEmpty else { return files }
        return files.filter { file in
            guard file.pathExtension.lowercased() == "rm" else { return true }
            return !notebooks.contains(file.deletingLastPathComponent().standardizedFileURL.path)
        }
    }
}
