import Foundation
import InkCore

/// Why a library operation failed. Every case names what it was about.
public enum StoreError: Error, CustomStringConvertible, Equatable {
    /// A file operation failed.
    case io(URL, String)
    /// A page file is damaged beyond what the operation may ignore.
    case damagedPage(URL, PageProblem)
    /// A value could not be encoded.
    case encoding(URL, String)
    /// Metadata could not be read.
    case badMetadata(URL, String)
    /// A note's typed text could not be read or written (not UTF-8, too large).
    case badText(URL, String)
    /// The folder is not an Inkwell library.
    case notALibrary(URL)
    /// A library this build must not read or write (its marker is unreadable or newer).
    case unsupportedLibrary(URL, String)
    /// Another process holds the library's lock.
    case locked(URL)
    case noSuchNotebook(NotebookPath)
    case notebookExists(NotebookPath)
    case noSuchNote(String)
    case ambiguousNote(String, [Note])
    /// The same note id in several folders (synced copies merged): which one is meant is unknown.
    case duplicateNote(NoteID, [URL])
    case noSuchTrashItem(String)
    /// A server holds the note open for writing (its lease, ``Library/leaseNote(_:)``): deleting,
    /// trashing or rewriting it elsewhere would take its confirmed strokes with it.
    case noteOpen(NoteID, String, pid: Int32)
    case invalid(String)

    /// True for failures that may pass if the operation is tried again later: the disk, permissions,
    /// or another process holding the library's lock.
    /// A library this build may not write (older: `inkwell upgrade`; or newer).
    public var isUnsupportedLibrary: Bool {
        if case .unsupportedLibrary = self { true } else { false }
    }

    public var isTransient: Bool {
        switch self {
        case .io, .locked: true
        default: false
        }
    }

    public var description: String {
        switch self {
        case let .io(url, reason): "\(url.path): \(reason)"
        case let .damagedPage(url, problem): "\(url.path): damaged page file at \(problem)"
        case let .encoding(url, reason): "\(url.path): \(reason)"
        case let .badMetadata(url, reason): "\(url.path): \(reason)"
        case let .badText(url, reason): "\(url.path): \(reason)"
        case .notALibrary(let url): "\(url.path): not an Inkwell library (run `inkwell init` to create one)"
        case let .unsupportedLibrary(url, reason): "\(url.path): \(reason)"
        case .locked(let url): "\(url.path): the library is locked by another inkwell process; try again"
        case .noSuchNotebook(let path): "no notebook \"\(path)\""
        case .notebookExists(let path): "notebook \"\(path)\" already exists"
        case .noSuchNote(let ref): "no note matches \"\(ref)\""
        case let .ambiguousNote(ref, notes):
            "\"\(ref)\" matches \(notes.count) notes: " + notes.prefix(5).map { "\($0.id) \"\($0.title)\"" }.joined(separator: ", ")
        case let .duplicateNote(id, folders):
            "note \(id) is in \(folders.count) folders (" + folders.map(\.path).joined(separator: ", ")
                + "): two synced copies; run `inkwell check --repair` to give the younger copy its own id"
        case .noSuchTrashItem(let ref): "nothing in the trash matches \"\(ref)\""
        case let .noteOpen(id, title, pid):
            "note \(id) \"\(title)\" is open for writing in serve, pid \(pid); close it or use --force"
        case .invalid(let reason): reason
        }
    }
}
