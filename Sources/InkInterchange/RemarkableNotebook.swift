import Foundation
import InkCore

/// Reads a reMarkable document as the tablet stores it — `UUID.content` (JSON: the page order, tags,
/// templates), `UUID.metadata` (name, folder, pin, trash, dates), `UUID.pagedata` (older templates) and
/// `UUID/PAGE.rm` beside it — into one note with a page per document page, in the document's order.
/// Pages without a `.rm` file are blank pages; a page that cannot be read is a placeholder page saying
/// why (``placeholder(number:reason:)``), and the rest of the document is imported.
///
/// A backup is a library: the note is filed in the notebook its folders name (``RemarkableMetadata``),
/// titled by `visibleName`, pinned when pinned, marked ``RecordedNote/trashed`` when deleted or in the
/// trash (or in a folder that is), tagged with the document's and its pages' tags, dated by
/// `createdTime` (else `lastModified`); pages take the tablet's templates (``RemarkableTemplates``);
/// highlighted text is quoted in the note's typed text with its page number.
public enum RemarkableNotebook {
    /// Most pages a document may list (deleted pages left out): a `.content` listing more is refused,
    /// naming the count and this limit.
    public static let maxPages = 10_000

    /// True when `data` looks like a document's `.content` file, or a `.metadata` file (which names the
    /// `.content` beside it).
    public static func looksLikeContent(_ data: Data) -> Bool {
        let head = String(decoding: data.prefix(8192), as: UTF8.self)
        guard head.first(where: { !$0.isWhitespace }) == "{" else { return false }
        return head.contains("\"cPages\"") || (head.contains("\"fileType\"") && (head.contains("\"pages\"") || head.contains("\"pageCount\"")))
            || RemarkableMetadata.looksLikeMetadata(data)
    }

    /// Decodes the document whose `.content` file (or `.metadata` file) is `data`, read from `file` (its
    /// pages are found beside it).
    public static func decode(_ data: Data, file: String) throws(ImportError) -> Recording {
        if RemarkableMetadata.looksLikeMetadata(data) { return try decode(metadata: data, file: file) }
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
        let besides = RemarkableMetadata.beside(url)
        if let besides, besides.isFolder {
            throw ImportError(file: file, reason: "a reMarkable folder (CollectionType), not a document: import the backup's folder to bring in what it holds")
        }
        let pageIDs = try pageOrder(object, file: file)
        var pages: [ImportedPage] = []
        var layouts: [RemarkablePDFLayout] = []
        var originPages: [OriginPage] = []
        // What is not kept, in the order it is met: the document's own items name the .content, a page's
        // its .rm file and the page.
        var notKept: [NotKept] = []
        func warn(_ line: String) { notKept.append(NotKept(warning: line, file: file)) }
        var typedText: [String] = []
        var quotes: [String] = []
        let type = object["fileType"] as? String ?? "notebook"
        let annotates = type == "pdf" || type == "epub"
        // A PDF document keeps its PDF: every page, on its PDF page (placed by the importer, which knows
        // the PDF's page sizes); an EPUB, or a PDF that is not beside the .content, only its handwriting.
        let pdf = type == "pdf" ? PDFFile.read(url.deletingPathExtension().appendingPathExtension("pdf")) : nil
        let pdfPages = pdf == nil ? [:] : pdfPageIndices(object)
        if type == "epub" {
            warn("\(file): the document annotates an EPUB, which the tablet lays out itself (its font, size and margins); Inkwell cannot lay it out the same way, so only the handwritten pages are imported, on blank pages of the tablet's size, with the highlighted text quoted")
        } else if annotates, pdf == nil {
            warn("\(file): the document annotates a PDF that is not beside it; only its handwritten pages are imported, on blank paper")
        }
        let pagedata = try? Data(contentsOf: url.deletingPathExtension().appendingPathExtension("pagedata"))
        let templateNames = RemarkableTemplates.names(object, pagedata: pagedata)
        var unknownTemplates: [String: Int] = [:]
        for id in pageIDs {
            let pageURL = folder.appendingPathComponent(id + ".rm")
            let onPDF = pdfPages[id].map { PageBackground(document: RecordedNote.backgroundDocument, page: $0) }
            var template = PageTemplate(background: onPDF)
            template.unitsPerInch = RemarkableDecoder.remarkableUnitsPerInch
            if let name = templateNames[id] {
                if let known = RemarkableTemplates.template(named: name) {
                    template.kind = known.kind
                    template.spacing = known.spacing
                } else {
                    unknownTemplates[name, default: 0] += 1
                }
            }
            guard FileManager.default.fileExists(atPath: pageURL.path) else {
                // A notebook's empty page is a blank page, a PDF's page its PDF page; a document's page
                // without handwriting is otherwise left out.
                if !annotates || pdf != nil {
                    pages.append(ImportedPage(size: .remarkable, template: template))
                    originPages.append(OriginPage(key: id, hash: FNV1a.hex([])))
                }
                continue
            }
            // A page that cannot be read costs that page: a placeholder saying why takes its place.
            let bytes: Data
            do {
                bytes = try Data(contentsOf: pageURL)
            } catch {
                let reason = "cannot read the file (\(error.localizedDescription))"
                pages.append(placeholder(number: pages.count + 1, reason: reason, template: template))
                originPages.append(OriginPage(key: id, hash: FNV1a.hex([])))
                notKept.append(NotKept(file: pageURL.path, page: pages.count, reason: "could not be read (\(reason)); a placeholder page says so"))
                continue
            }
            originPages.append(OriginPage(key: id, hash: FNV1a.hex(bytes)))
            let decoded: RemarkableDecoder.Page
            do {
                decoded = try RemarkableDecoder.decodePage(bytes, file: pageURL.path, growing: pdf == nil)
            } catch {
                let reason = ([error.position].compactMap { $0 } + [error.reason]).joined(separator: ": ")
                pages.append(placeholder(number: pages.count + 1, reason: reason, template: template))
                notKept.append(NotKept(file: pageURL.path, page: pages.count, reason: "could not be read (\(reason)); a placeholder page says so"))
                continue
            }
            var page = decoded.page
            page.template.background = onPDF
            page.template.kind = template.kind
            page.template.spacing = template.spacing
            // The layout of the page's own place in the list: blank and placeholder pages before it are
            // true size (they hold no ink to place).
            layouts += Array(repeating: .trueSize, count: pages.count - layouts.count) + [decoded.layout]
            pages.append(page)
            if !decoded.typedText.isEmpty { typedText.append(decoded.typedText) }
            quotes += RemarkableDecoder.quotes(decoded.highlights, page: pages.count)
            notKept += decoded.warnings.map { NotKept(warning: $0, file: pageURL.path, page: pages.count) }
        }
        for (name, count) in unknownTemplates.sorted(by: { $0.key < $1.key }) {
            warn("\(file): template \"\(name)\" (\(count) page\(count == 1 ? "" : "s")) is not one Inkwell draws; those pages are blank")
        }
        guard !pages.isEmpty else {
            throw ImportError(file: file, reason: annotates ? "the \(type.uppercased()) has no handwritten pages" : "the notebook lists no pages")
        }
        var note = RecordedNote(events: ImportedPage.events(pages), typedText: (typedText + quotes).joined(separator: "\n\n"), background: pdf)
        if layouts.contains(.fittedToScreen) { note.pdfLayouts = layouts }
        // The document's identity is its UUID (the .content file's name) with its pages'. The hash of
        // the whole document is the importer's (SourceIdentity, which reads the files beside it once,
        // before deciding whether to decode at all).
        note.origin = NoteOrigin(kind: .remarkable, key: url.deletingPathExtension().lastPathComponent, hash: "", pages: originPages)
        var tagWarnings: [String] = []
        note.tags = tags(object, file: file, warnings: &tagWarnings)
        tagWarnings.forEach(warn)
        if let fields = besides {
            note.title = fields.name
            note.created = fields.created ?? fields.modified
            note.pinned = fields.pinned
            let backup = url.deletingLastPathComponent()
            note.trashed = fields.trashed || RemarkableMetadata.inTrashedFolder(parent: fields.parent, in: backup)
            let place = RemarkableMetadata.notebook(parent: fields.parent, in: backup)
            note.notebook = place.path
            if let warning = place.warning { warn("\(file): \(warning)") }
        }
        var recording = Recording(notes: [note], format: "rm")
        recording.notKept = notKept
        return recording
    }

    /// Decodes the document a `.metadata` file (`data`, read from `file`) describes: its `.content` beside it.
    static func decode(metadata data: Data, file: String) throws(ImportError) -> Recording {
        guard let metadata = RemarkableMetadata(data) else {
            throw ImportError(file: file, reason: "not valid JSON (a reMarkable .metadata file)")
        }
        guard !metadata.isFolder else {
            throw ImportError(file: file, reason: "a reMarkable folder (CollectionType), not a document: import the backup's folder to bring in what it holds")
        }
        let content = URL(fileURLWithPath: file).deletingPathExtension().appendingPathExtension("content")
        guard let contentData = try? Data(contentsOf: content) else {
            throw ImportError(file: file, reason: "the document's .content file (\(content.lastPathComponent)) is not beside it")
        }
        guard !RemarkableMetadata.looksLikeMetadata(contentData) else {
            throw ImportError(file: content.path, reason: "a .metadata file where the document's .content should be")
        }
        return try decode(contentData, file: content.path)
    }

    /// A page that could not be read: blank paper (its template and PDF page kept) with "page N could
    /// not be read: REASON" printed on it, so that render, export and `note show` say what was lost.
    static func placeholder(number: Int, reason: String, template: PageTemplate) -> ImportedPage {
        var page = ImportedPage(size: .remarkable, template: template)
        let size: Float = 36
        // Wrapped at about 60 characters a line (the tablet's width at this size, with margins).
        var lines: [String] = []
        for word in PageTemplate.unreadableNotice(page: number, reason: reason).split(separator: " ") {
            if let last = lines.last, last.count + word.count < 60 {
                lines[lines.count - 1] += " " + word
            } else {
                lines.append(String(word.prefix(PrintedLine.maxBytes / 4)))
            }
        }
        page.template.printed = lines.prefix(40).enumerated().map { index, line in
            PrintedLine(text: line, x: 100, baseline: 200 + Float(index) * size * 1.4, size: size, color: RGBA(red: 160, green: 0, blue: 0))
        }
        return page
    }

    /// The document's tags (`.content` `tags`) and its pages' (`pageTags`), as Inkwell tags: spaces
    /// become `-`; a name that is still not a tag is named in a warning.
    static func tags(_ object: [String: Any], file: String, warnings: inout [String]) -> [Tag] {
        var names: [String] = []
        for key in ["tags", "pageTags"] {
            for entry in (object[key] as? [Any] ?? []).prefix(10_000) {
                if let name = (entry as? [String: Any])?["name"] as? String { names.append(name) }
                else if let name = entry as? String { names.append(name) }
            }
        }
        var tags: [Tag] = []
        var refused: [String] = []
        for name in names {
            let joined = name.split(whereSeparator: \.isWhitespace).joined(separator: "-")
            if let tag = Tag(joined) {
                if !tags.contains(tag) { tags.append(tag) }
            } else if !refused.contains(name) {
                refused.append(name)
            }
        }
        if !refused.isEmpty {
            let shown = refused.prefix(5).map { "\"\($0.prefix(60))\"" }.joined(separator: ", ")
            warnings.append("\(file): \(refused.count) tag\(refused.count == 1 ? "" : "s") left out (a tag is letters, digits, -, _ and /): \(shown)")
        }
        return tags
    }

    /// Which PDF page each page shows (0 is the first), by page id: `cPages.pages[].redir.value`, or the
    /// older `redirectionPageMap` beside `pages`, or, in a `.content` with only `pages` (software before
    /// 3.0, where a page could not be inserted into a PDF), page N on PDF page N. Pages added on the
    /// tablet (-1, or none) show no PDF page.
    static func pdfPageIndices(_ object: [String: Any]) -> [String: Int] {
        var indices: [String: Int] = [:]
        func valid(_ value: Any?) -> Int? {
            guard let number = (value as? Int) ?? (value as? NSNumber)?.intValue, number >= 0, number < PageBackground.maxPage else { return nil }
            return number
        }
        if let cPages = object["cPages"] as? [String: Any], let list = cPages["pages"] as? [[String: Any]] {
            for page in list {
                guard let id = page["id"] as? String, let index = valid((page["redir"] as? [String: Any])?["value"]) else { continue }
                indices[id] = index
            }
        } else if let ids = object["pages"] as? [String] {
            let map = object["redirectionPageMap"] as? [Any] ?? Array(ids.indices)
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
        guard ids.count <= maxPages else {
            throw ImportError(file: file, reason: "the document lists \(ids.count) pages, more than the \(maxPages) a document may have")
        }
        for id in ids where id.isEmpty || id.contains("/") || id.contains("\\") || id.contains("..") || id.utf8.contains(0) {
            throw ImportError(file: file, reason: "page id \"\(id.prefix(60))\" is not a plain file name")
        }
        return ids
    }

    /// The notebooks the folders (`CollectionType`) of a backup stand for, from its `.metadata` files:
    /// each folder's path (``RemarkableMetadata/notebook(parent:in:)`` and its own name), outermost first;
    /// folders in the tablet's trash are left out.
    public static func folderNotebooks(_ metadataFiles: [URL]) -> [NotebookPath] {
        var paths: Set<NotebookPath> = []
        for file in metadataFiles where file.pathExtension.lowercased() == "metadata" {
            guard let entry = RemarkableMetadata.beside(file), entry.isFolder, !entry.trashed else { continue }
            let backup = file.deletingLastPathComponent()
            guard !RemarkableMetadata.inTrashedFolder(parent: entry.parent, in: backup) else { continue }
            let id = file.deletingPathExtension().lastPathComponent
            let above = RemarkableMetadata.notebook(parent: entry.parent, in: backup).path ?? .root
            if let path = try? above.appending(RemarkableMetadata.notebookName(entry.name, id: id)) { paths.insert(path) }
        }
        return paths.sorted { ($0.components.count, $0) < ($1.components.count, $1) }
    }

    /// From files named or found, drops the parts of a reMarkable document whose `.content` file is among
    /// them: `UUID.metadata`, `UUID.pagedata`, `UUID.pdf`, `UUID.epub` beside it and anything in `UUID/`,
    /// `UUID.thumbnails/`, `UUID.highlights/` or `UUID.textconversion/` (the `.content` reads what it needs).
    public static func withoutDocumentParts(_ files: [URL]) -> [URL] {
        // Worked on as path strings: a URL works its path out again at each call, and a backup has
        // thousands of files.
        let paths = files.map { $0.standardizedFileURL.path }
        let contents = paths.filter { hasExtension($0, "content") }
        let documents = Set(contents.map { String($0.dropLast(".content".count)) })
        guard !documents.isEmpty else { return files }
        let kept = Set(contents)
        return zip(files, paths).filter { _, path in
            if kept.contains(path) { return true }
            // The file and each folder above it, without its extension, is not a document's name.
            var current = Substring(path)
            while let slash = current.lastIndex(of: "/") {
                let name = current[current.index(after: slash)...]
                let stem = name.lastIndex(of: ".").map { $0 > name.startIndex ? current[..<$0] : current } ?? current
                if documents.contains(String(stem)) { return false }
                if slash == current.startIndex { break }
                current = current[..<slash]
            }
            return true
        }.map(\.0)
    }

    public static func withoutFolders(_ files: [URL]) -> [URL] {
        files.filter { file in
            guard file.pathExtension.lowercased() == "content" else { return true }
            return RemarkableMetadata.beside(file)?.isFolder != true
        }
    }

    /// From files found in a folder, drops the `.rm` pages that belong to a notebook whose `.content` file
    /// is among them (the notebook imports them as one note).
    public static func withoutNotebookPages(_ files: [URL]) -> [URL] {
        let paths = files.map { $0.standardizedFileURL.path }
        let notebooks = Set(paths.filter { hasExtension($0, "content") }.map { String($0.dropLast(".content".count)) })
        guard !notebooks.isEmpty else { return files }
        return zip(files, paths).filter { _, path in
            guard hasExtension(path, "rm"), let slash = path.lastIndex(of: "/") else { return true }
            return !notebooks.contains(String(path[..<slash]))
        }.map(\.0)
    }

    /// Whether the last name of `path` ends in `.EXTENSION` (`extension` in lowercase ASCII; any case
    /// matches) after at least one other character, as `URL.pathExtension` reads it.
    static func hasExtension(_ path: String, _ extension: String) -> Bool {
        let tail = path.utf8.suffix(`extension`.utf8.count + 2)
        guard tail.count == `extension`.utf8.count + 2 else { return false }
        let bytes = Array(tail)
        guard bytes[0] != UInt8(ascii: "/"), bytes[1] == UInt8(ascii: ".") else { return false }
        return zip(bytes.dropFirst(2), `extension`.utf8).allSatisfy { ($0 | 0x20) == $1 }
    }
}
