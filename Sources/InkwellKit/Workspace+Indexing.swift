import Foundation
import InkCore
import InkIndex
import InkRecognize

/// The indexing job as front ends run it.
extension Workspace {
    /// Recognises every page that changed and fills the index, on `jobs` threads at `quality` with `reader`: on a
    /// PostgreSQL index through its shared queue (holding claims for `lease` seconds; a `worker` leaves the
    /// library unwritten, its tags to a later run, and rides out the database going away by `reconnect`),
    /// else the pages of `shard`. `progress` hears (done, total).
    public func runIndexing(jobs: Int, quality: RecognitionQuality, reader: RecognitionReader = .both, lease: TimeInterval, worker: Bool,
                            shard: Shard, reconnect: Reconnector = .never,
                            progress: @escaping @Sendable (Int, Int) -> Void) throws -> IndexingReport {
        let indexer = try indexer(quality: quality, reader: reader)
        if let queue = indexer.index as? any PageQueue {
            return try indexer.work(queue, jobs: jobs, lease: lease, adoptTags: !worker, reconnect: reconnect, progress: progress)
        }
        return try indexer.run(jobs: jobs, shard: shard, progress: progress)
    }

    /// Forgets every result in the index, so that the next run recognises every page again.
    public func clearIndex() throws { try index().clear() }

    /// Progress across every worker: from the queue on PostgreSQL, from the page states on SQLite.
    public func indexProgress() throws -> QueueStatus {
        if let queue = try index() as? any PageQueue { return try queue.status() }
        let counts = PageState.counts(try recognitionStates().states.values)
        return QueueStatus(done: counts[.recognized] ?? 0, leased: counts[.processing] ?? 0,
                           pending: counts[.pending] ?? 0, failed: counts[.failed] ?? 0, pagesPerSecond: 0, workers: 0)
    }

    /// The text recognised on each page of `note`, from the index.
    public func recognizedText(of note: NoteID) throws -> [PageID: String] { try index().pageTexts(of: note) }
}

extension RecognitionQuality {
    /// The default: `best`, each line drawn seven ways and the readings voted.
    public static var standard: RecognitionQuality { .best }
}
