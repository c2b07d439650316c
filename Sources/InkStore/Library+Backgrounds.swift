import Foundation
import InkCore

/// The PDFs a note's pages are drawn on (``PageTemplate/background``): stored once per note, in the
/// note's folder as `backgrounds/ID.pdf`, ID being the SHA-256 of the bytes (``PageBackground/document``).
/// Like page files, they are written before the note is committed and move with it.
extension Library {
    /// The folder of a note's background PDFs, inside the note's folder.
    public static let backgroundsFolderName = "backgrounds"

    /// Where the background PDF `id` of the note in `noteFolder` is; nil when `id` is not a document ID
    /// (so no name from a file can reach outside the folder).
    public static func backgroundURL(_ id: String, in noteFolder: URL) -> URL? {
        guard PageBackground.isDocumentID(id) else { return nil }
        return noteFolder.appendingPathComponent(backgroundsFolderName).appendingPathComponent(id + ".pdf")
    }

    /// The most bytes a background PDF is read with (a bigger file is treated as missing).
    public static let maxBackgroundBytes = PageBackground.maxDocumentBytes

    /// The bytes of a note's background PDF `id`; nil when the note has no such document (or the name
    /// holds something other than a regular file of at most ``maxBackgroundBytes``).
    public func backgroundData(_ id: String, of stored: StoredNote) -> Data? {
        guard let url = Library.backgroundURL(id, in: stored.folder),
              let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .fileSizeKey]),
              values.isRegularFile == true, (values.fileSize ?? .max) <= Library.maxBackgroundBytes else { return nil }
        return try? Data(contentsOf: url)
    }

    /// The background documents the pages name that are not in the note's folder.
    public func missingBackgrounds(of stored: StoredNote, pages: [Page]) -> [String] {
        let named = Set(pages.compactMap { $0.template.background?.document })
        return named.sorted().filter { id in
            guard let url = Library.backgroundURL(id, in: stored.folder) else { return true }
            return !FileManager.default.fileExists(atPath: url.path)
        }
    }
}

extension StagedNote {
    /// Stores `data`, a PDF the note's pages are drawn on, as document `id` (its content ID, made by
    /// the caller); a document already there is not written again.
    public func addBackground(_ data: Data, id: String) throws {
        guard let url = Library.backgroundURL(id, in: folder) else {
            throw StoreError.io(folder, "\"\(id.prefix(80))\" is not a background document ID (64 hex digits)")
        }
        guard !FileManager.default.fileExists(atPath: url.path) else { return }
        let backgrounds = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: backgrounds, withIntermediateDirectories: true)
        } catch {
            throw StoreError.io(backgrounds, "cannot create: \(error.localizedDescription)")
        }
        try DurableFile.replace(url, with: [UInt8](data))
        try DurableFile.syncFolder(folder)
    }
}
