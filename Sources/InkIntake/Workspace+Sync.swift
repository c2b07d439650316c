import Foundation
import InkCore
import InkInterchange
import InkStore
import InkWorkspace

/// What `inkwell sync DIR` does, or would do with `--dry-run`: each source in DIR is new, changed
/// (its note is updated), unchanged, or its note is in the trash (left there); each note imported from DIR
/// whose source is gone goes to the trash.
public struct SyncPlan: Sendable, Codable, Equatable {
    /// One source and the note it is, where it has one.
    public struct Entry: Sendable, Codable, Equatable {
        public var file: String
        public var id: NoteID?
        public var title: String?
    }

    /// Sources in DIR no note came from.
    public var new: [Entry] = []
    /// Sources whose notes are updated (their hash changed).
    public var changed: [Entry] = []
    /// Sources whose notes are up to date.
    public var unchanged: [Entry] = []
    /// Sources whose notes the user has in the trash: left there, as an import leaves them (`inkwell
    /// trash restore` brings one back; the next sync then keeps it in step).
    public var inTrash: [Entry] = []
    /// Notes imported from DIR whose source is no longer there: `file` is where it was.
    public var removed: [Entry] = []
    /// Sources that could not be read, and why.
    public var failures: [String] = []
    /// What the plan was worked out from, for ``Workspace/sync(_:plan:importer:replayer:dryRun:keepGoing:progress:shouldStop:)``
    /// to go on with rather than read again; not part of what the plan says.
    var basis: SyncBasis?

    enum CodingKeys: String, CodingKey { case new, changed, unchanged, inTrash, removed, failures }

    public static func == (a: SyncPlan, b: SyncPlan) -> Bool {
        (a.new, a.changed, a.unchanged, a.inTrash, a.removed, a.failures) == (b.new, b.changed, b.unchanged, b.inTrash, b.removed, b.failures)
    }
}

/// The library's origins and the sources' identities as a ``SyncPlan`` found them. A sync that goes on
/// with them after the library changed meanwhile is still safe: an update refuses a note that changed
/// since (``Library/applyUpdate(_:)``), and a source that changed since is imported as read then, its
/// new bytes making it `changed` again next time.
final class SyncBasis: Sendable {
    let origins: OriginIndex
    /// By file path.
    let identities: [String: NoteOrigin]
    /// The sources' hashes, written back by a sync (never by a plan alone: a dry run changes nothing).
    let hashes: SourceHashes

    init(origins: OriginIndex, identities: [String: NoteOrigin], hashes: SourceHashes) {
        self.origins = origins
        self.identities = identities
        self.hashes = hashes
    }
}

/// What a sync did: its plan, the import of the new and changed sources, and the notes trashed.
public struct SyncReport: Sendable, Codable {
    public var folder: String
    public var dryRun: Bool
    public var plan: SyncPlan
    /// The import of the new and changed sources (absent on a dry run).
    public var imported: ImportReport?
    /// The trash entries of the notes whose source is gone (restorable with `inkwell trash restore`).
    public var trashed: [String] = []
    /// Notes that could not be trashed, and why.
    public var failures: [String] = []
    /// True when the sync was asked to stop part way: the sources not reached are left for the
    /// next sync, and nothing is trashed; absent otherwise.
    public var stopped: Bool?
}

extension Workspace {
    /// What syncing the library with the sources in `folder` would do, reading nothing but their bytes.
    public func syncPlan(_ folder: URL) throws -> SyncPlan {
        let folder = folder.standardizedFileURL
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw ImportError(file: folder.path, reason: "not a folder (sync keeps a library in step with a folder of sources)")
        }
        let origins = try OriginIndex(library)
        var plan = SyncPlan()
        var present = Set<String>()
        // Hashing is all an unchanged source costs, and a file whose stamp is the one kept from the
        // last time is not read again (SourceHashes); the others are hashed on every core at once.
        let files = try Importer.expand([folder])
        let hashes = SourceHashes(library: library)
        let identities = Locked([Result<NoteOrigin, ImportError>?](repeating: nil, count: files.count))
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            let result = Result { () throws(ImportError) -> NoteOrigin in try SourceIdentity.of(files[index], hashes: hashes) }
            identities.withLock { $0[index] = result }
        }
        var found: [String: NoteOrigin] = [:]
        for (file, result) in zip(files, identities.withLock { $0 }) {
            let identity: NoteOrigin
            switch result {
            case .success(let success)?: identity = success
            case .failure(let error)?:
                // There, but not readable now: not gone (its note must not go to the trash for it).
                plan.failures.append(error.description)
                present.insert(file.standardizedFileURL.path)
                continue
            case nil: continue
            }
            found[file.path] = identity
            present.insert("\(identity.kind.rawValue):\(identity.key)")
            present.insert(identity.location ?? file.path)
            let known = origins.notes(forFile: identity)
            let entry = SyncPlan.Entry(file: file.path, id: known.first?.note.id, title: known.first?.note.title)
            if known.isEmpty, let trashed = origins.trashed(identity) {
                // Its note is in the trash: left there, as an import leaves it.
                plan.inTrash.append(SyncPlan.Entry(file: file.path, id: trashed.noteID, title: trashed.name))
            } else if known.isEmpty {
                plan.new.append(entry)
            } else if known.allSatisfy({ $0.note.origin?.hash == identity.hash }) {
                plan.unchanged.append(entry)
            } else {
                plan.changed.append(entry)
            }
        }
        for stored in origins.notes(under: folder.path) {
            guard let origin = stored.note.origin else { continue }
            // A file's note with a number (`path#2`) is gone when its file is.
            let fileKey = origin.kind == .file ? String(origin.key.split(separator: "#", maxSplits: 1).first ?? "") : origin.key
            guard !present.contains("\(origin.kind.rawValue):\(fileKey)"), !present.contains(origin.location ?? "") else { continue }
            plan.removed.append(SyncPlan.Entry(file: origin.location ?? origin.key, id: stored.note.id, title: stored.note.title))
        }
        plan.basis = SyncBasis(origins: origins, identities: found, hashes: hashes)
        return plan
    }

    /// Keeps the library in step with `folder`: imports its new sources, updates the notes of its
    /// changed ones (as ``Importer`` does for a source imported before), and moves the notes whose
    /// source is gone from it to the trash. With `dryRun`, only the plan. `importer` is set up as
    /// for `inkwell import` (recognition, notebook); `plan` is ``syncPlan(_:)``'s, if taken already;
    /// `progress` hears (files done, files); `shouldStop` is asked between sources (once it says yes,
    /// the rest wait for the next sync and nothing is trashed).
    public func sync(_ folder: URL, plan: SyncPlan? = nil, importer: Importer, replayer: NoteReplayer, dryRun: Bool, keepGoing: Bool,
                     progress: (Int, Int) -> Void = { _, _ in }, shouldStop: () -> Bool = { false }) throws -> SyncReport {
        let plan = try plan ?? syncPlan(folder)
        var report = SyncReport(folder: folder.standardizedFileURL.path, dryRun: dryRun, plan: plan)
        guard !dryRun else { return report }
        var importer = importer
        importer.asNew = false
        importer.basis = plan.basis
        let files = (plan.new + plan.changed).map { URL(fileURLWithPath: $0.file) }
        // Nothing new or changed: nothing to read again (not even the library's notes).
        report.imported = files.isEmpty ? ImportReport()
            : importer.run(files, replayer: replayer, keepGoing: keepGoing, progress: progress, shouldStop: shouldStop)
        if shouldStop() {
            report.stopped = true
            return report
        }
        // A run that stopped at a bad source trashes nothing: what is gone is decided on a good run.
        // Nor does it keep the sources' hashes: a failed sync leaves the library as it was.
        guard report.imported?.failures.isEmpty ?? true || keepGoing, plan.failures.isEmpty || keepGoing else { return report }
        plan.basis?.hashes.save(pruning: folder)
        for entry in plan.removed {
            guard let id = entry.id else { continue }
            do {
                report.trashed.append(try library.deleteNote(id).id)
            } catch {
                report.failures.append("note \(id) \"\(entry.title ?? "")\": not moved to the trash: \(error)")
            }
        }
        return report
    }
}
