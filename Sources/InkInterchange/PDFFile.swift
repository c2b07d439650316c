import Foundation
import InkCore

/// Recognising and reading the PDFs importers meet beside or inside the files they read (a Xournal++
/// document's background, a reMarkable document's `UUID.pdf`) and PDFs imported to write on.
public enum PDFFile {
    /// The largest PDF read from beside a file.
    public static let maxBytes = PageBackground.maxDocumentBytes

    /// Whether `data` starts like a PDF: `%PDF-` within its first 1,024 bytes, as PDF readers accept.
    public static func looksLikePDF(_ data: Data) -> Bool {
        data.prefix(1024).firstRange(of: Data("%PDF-".utf8)) != nil
    }

    /// The bytes of a regular file (symbolic links followed) of at most ``maxBytes`` that starts like a
    /// PDF; nil otherwise (missing, a folder, a device or FIFO, too large, not a PDF).
    static func read(_ url: URL) -> Data? {
        guard let values = try? url.resolvingSymlinksInPath().resourceValues(forKeys: [.isRegularFileKey, .fileSizeKey]),
              values.isRegularFile == true, let size = values.fileSize, size <= maxBytes,
              let data = try? Data(contentsOf: url), looksLikePDF(data) else { return nil }
        return data
    }
}
