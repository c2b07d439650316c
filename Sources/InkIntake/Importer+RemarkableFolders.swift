import Foundation
import InkCore
import InkInterchange
import InkStore

extension Importer {
    /// The notebooks the reMarkable folders in the backup folders among `paths` stand for (a folder of the
    /// tablet's library, trashed ones left out), outermost first; none for paths that are files.
    public static func remarkableFolders(in paths: [URL]) -> [NotebookPath] {
        var metadata: [URL] = []
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path.path, isDirectory: &isFolder), isFolder.boolValue else { continue }
            let walker = FileManager.default.enumerator(at: path, includingPropertiesForKeys: [.isRegularFileKey])
            while let url = walker?.nextObject() as? URL {
                if url.pathExtension.lowercased() == "metadata" { metadata.append(url) }
            }
        }
        return RemarkableNotebook.folderNotebooks(metadata)
    }

    /// Creates those of `folders` the library does not have yet (a folder holding documents is made by
    /// their import; an empty one only here), so a backup's empty folders are notebooks too. Returns
    /// the notebooks made.
    public func createNotebooks(_ folders: [NotebookPath]) throws -> [NotebookPath] {
        var existing = Set(try library.notebooks())
        var made: [NotebookPath] = []
        for folder in folders where !existing.contains(folder) {
            try library.createNotebook(folder)
            existing.insert(folder)
            made.append(folder)
        }
        return made
    }
}
