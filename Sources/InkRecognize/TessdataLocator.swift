import Foundation

/// Finds the folder holding Tesseract's `<language>.traineddata`.
///
/// Order: an explicit folder, then `TESSDATA_PREFIX` (Tesseract 5 takes it to be the `tessdata`
/// folder itself; a parent of `tessdata/` is accepted too), then the usual install locations
/// (Debian/Ubuntu, Fedora, Homebrew, /usr/local).
public enum TessdataLocator {
    public static let standardFolders = [
        "/usr/share/tesseract-ocr/5/tessdata",
        "/usr/share/tesseract-ocr/4.00/tessdata",
        "/usr/share/tessdata",
        "/usr/local/share/tessdata",
        "/opt/homebrew/share/tessdata",
    ]

    /// The folder holding `<language>.traineddata`, or a clear error listing where it looked.
    public static func folder(for language: String, explicit: String? = nil,
                              environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(RecognitionError) -> String {
        var candidates: [String] = []
        if let explicit {
            candidates = [explicit, (explicit as NSString).appendingPathComponent("tessdata")]
        } else {
            if let prefix = environment["TESSDATA_PREFIX"], !prefix.isEmpty {
                candidates += [prefix, (prefix as NSString).appendingPathComponent("tessdata")]
            }
            candidates += standardFolders
        }
        let fileName = language + ".traineddata"
        for folder in candidates {
            var isDirectory: ObjCBool = false
            let file = (folder as NSString).appendingPathComponent(fileName)
            if FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), !isDirectory.boolValue,
               FileManager.default.isReadableFile(atPath: file) {
                return folder
            }
        }
        var searched: [String] = []
        for folder in candidates where !searched.contains(folder) { searched.append(folder) }
        throw .languageDataNotFound(language: language, searched: searched)
    }
}
