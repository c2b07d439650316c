import Foundation
import InkCore
import InkInterchange
import InkStore
import InkWorkspace

/// Keeps a library in step with a folder of sources as it changes (`inkwell watch --source DIR`): the
/// folder is looked at again and again, and once none of its files has been added, removed or
/// changed (size, modification time) for ``settle`` seconds, and it is not as it was at the last
/// sync, it is synced (``Workspace/sync(_:plan:importer:replayer:dryRun:keepGoing:progress:shouldStop:)``).
///
/// The drop folder's settle rule, applied to the whole folder rather than file by file: a backup tool
/// writes a reMarkable document's files one after the other, and a sync in the middle would update
/// its note from half a document, then again. A folder that holds no file at all is not synced
/// (an unmounted drive's mount point looks like that, and a sync would trash every note from it).
public final class SourceFolderWatch {
    public let workspace: Workspace
    public let folder: URL
    /// Seconds the folder must stay unchanged before it is synced.
    public let settle: TimeInterval
    /// Imports the new and changed sources (recognition, notebook), as for `inkwell sync`.
    public var importer: Importer
    public var replayer = NoteReplayer()
    /// The folder's files as last seen, and since when they have been so.
    private var observed: (files: [String: FileSignature], since: Date)?
    /// The folder's files as they were when it was last synced (nil: not synced yet).
    private var synced: [String: FileSignature]?

    public init(workspace: Workspace, folder: URL, settle: TimeInterval, importer: Importer) {
        self.workspace = workspace
        self.folder = folder.standardizedFileURL
        self.settle = settle
        self.importer = importer
    }

    /// What one look did.
    public enum Outcome: Sendable {
        /// The folder changed within the last ``settle`` seconds, or is as it was at the last sync.
        case waiting
        /// The folder holds no file: not synced.
        case empty
        /// The folder was synced.
        case synced(SyncReport)
    }

    /// Looks at the folder once, syncing it when it has settled and changed since the last sync.
    /// `shouldStop` is asked between sources (a sync stopped part way trashes nothing, and the next
    /// look syncs again). Throws when the folder cannot be read or the library cannot be synced.
    public func look(now: () -> Date = Date.init, keepGoing: Bool = true, shouldStop: @escaping () -> Bool = { false }) throws -> Outcome {
        let files = try signatures()
        let time = now()
        guard let seen = observed, seen.files == files else {
            observed = (files, time)
            return .waiting
        }
        guard time.timeIntervalSince(seen.since) >= settle, files != synced else { return .waiting }
        guard !files.isEmpty else { return .empty }
        let report = try workspace.sync(folder, importer: importer, replayer: replayer, dryRun: false, keepGoing: keepGoing,
                                        shouldStop: shouldStop)
        // A sync that stopped part way is tried again at the next look; one with failures only once
        // the folder changes again (a bad source is not read again every look).
        if report.stopped != true { synced = files }
        return .synced(report)
    }

    /// Every file in the folder (at any depth) and its signature.
    private func signatures() throws -> [String: FileSignature] {
        guard RawPath.kind(of: folder) == .folder else {
            throw ImportError(file: folder.path, reason: "not a folder (watch --source keeps a library in step with a folder of sources)")
        }
        var files: [String: FileSignature] = [:]
        for file in RawPath.files(under: folder) {
            if let signature = FileSignature.of(file) { files[file.path] = signature }
        }
        return files
    }
}
