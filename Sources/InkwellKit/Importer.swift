import Foundation
import InkCore
import InkInterchange
import InkStore

/// What one imported note became.
public struct ImportedNote: Sendable, Codable, Equatable {
    public var id: NoteID
    public var title: String
    public var notebook: String
    public var pages: Int
    public var strokes: Int
    public var points: Int
}

/// What an import did: the files imported and, for each file that was not, why.
public struct ImportReport: Sendable, Codable, Equatable {
    public var imported: [ImportedFile] = []
    public var failures: [String] = []
}

/// What one file became.
public struct ImportedFile: Sendable, Codable, Equatable {
    public var file: String
    public var format: String
    public var notes: [ImportedNote]
    /// What the file held that could not be kept (text boxes, images…), one line each.
    public var warnings: [String] = []
}

/// Imports recordings into a library: decode every file, replay each note, then commit them all at once.
/// A file that fails to decode or replay leaves the library exactly as it was.
public struct Importer {
    public let library: Library
    /// The notebook for notes whose recording names none.
    public var notebook: NotebookPath = .inbox
    /// The title for notes whose recording names none (default: the file's name).
    public var title: String?
    /// The source the imported notes keep (default: ``source(ofFormat:)``, e.g. `import:rm`).
    public var source: String?

    public init(library: Library) { self.library = library }

    /// The files to import for `paths`: files as given, folders searched for known extensions.
    public static func expand(_ paths: [URL]) throws -> [URL] {
        var files: [URL] = []
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path.path, isDirectory: &isFolder) else {
                throw ImportError(file: path.path, reason: "no such file or folder")
            }
            guard isFolder.boolValue else {
                files.append(path)
                continue
            }
            let walker = FileManager.default.enumerator(at: path, includingPropertiesForKeys: [.isRegularFileKey])
            var found: [URL] = []
            while let url = walker?.nextObject() as? URL {
                if RecordingFormat.knownExtensions.contains(url.pathExtension.lowercased()) { found.append(url) }
            }
            files += RecordingFormat.importable(found.sorted { $0.path < $1.path })
        }
        return files
    }

    /// Decodes one file into a recording, naming the file in every error.
    public static func decode(_ url: URL) throws(ImportError) -> Recording {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ImportError(file: url.path, reason: "cannot read: \(error.localizedDescription)")
        }
        guard let format = RecordingFormat.detect(data) else {
            throw ImportError(file: url.path, reason: "not a recording Inkwell can read (expected an Inkwell replay log, InkML, a reMarkable v6 .rm page or notebook .content, or a Xournal++ .xopp / .xoj file)")
        }
        return try format.decode(data, file: url.path)
    }

    /// Imports `files`: decodes all of them first, then replays and commits each file's notes together.
    /// Unless `keepGoing`, one bad file means nothing is imported. `progress` hears (done, total) while decoding.
    public func run(_ files: [URL], replayer: NoteReplayer, keepGoing: Bool,
                    progress: (Int, Int) -> Void = { _, _ in }) -> ImportReport {
        var report = ImportReport()
        var decoded: [(URL, Recording)] = []
        for (index, file) in files.enumerated() {
            do {
                decoded.append((file, try Importer.decode(file)))
            } catch {
                report.failures.append(error.description)
            }
            progress(index + 1, files.count)
        }
        guard report.failures.isEmpty || keepGoing else { return report }
        for (file, recording) in decoded {
            do {
                let staged = try stage(recording, from: file, replayer: replayer)
                let stored = try library.commit(staged)
                report.imported.append(ImportedFile(file: file.path, format: recording.format,
                                                    notes: try stored.map(summary), warnings: recording.warnings))
            } catch {
                report.failures.append("\(file.path): \(error)")
                if !keepGoing { break }
            }
        }
        return report
    }

    /// The source of a note imported from a file in `format`: `import:replay` for replay logs,
    /// `import:FORMAT` otherwise (`import:inkml`, `import:rm`, `import:xopp`).
    public static func source(ofFormat format: String) -> String {
        "import:" + (format == RecordingFormat.replayLog.rawValue ? "replay" : format)
    }

    private func summary(of stored: StoredNote) throws -> ImportedNote {
        let pages = try library.pages(of: stored)
        return ImportedNote(id: stored.note.id, title: stored.note.title, notebook: stored.notebook.description,
                            pages: pages.count, strokes: pages.reduce(0) { $0 + $1.strokes.count },
                            points: pages.reduce(0) { $0 + $1.pointCount })
    }

    /// Replays every note of `recording` into staged notes (not yet visible in the library).
    public func stage(_ recording: Recording, from url: URL, replayer: NoteReplayer) throws -> [StagedNote] {
        var staged: [StagedNote] = []
        do {
            for (index, recorded) in recording.notes.enumerated() {
                let fallback = title ?? url.deletingPathExtension().lastPathComponent
                let name = recorded.title ?? (index == 0 ? fallback : "\(fallback) (\(index + 1))")
                var note = try library.stage(title: name, in: recorded.notebook ?? notebook,
                                             created: recorded.created ?? Date(), tags: Set(recorded.tags),
                                             pinned: recorded.pinned, source: source ?? Importer.source(ofFormat: recording.format))
                staged.append(note)
                try replayer.replay(recorded, into: &note)
                staged[staged.count - 1] = note
            }
            return staged
        } catch {
            library.discard(staged)
            throw error
        }
    }
}
