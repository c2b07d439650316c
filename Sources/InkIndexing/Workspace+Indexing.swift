import Foundation
import InkCore
import InkIndex
import InkRecognize
import InkWorkspace

/// The indexing job as front ends run it.
extension Workspace {
    /// The indexing job over this library, recognising at `quality` with `reader` in the library's
    /// context as it is when the first page is recognised (the notes to read are in it already).
    public func indexer(quality: RecognitionQuality = .best, reader: RecognitionReader = .both) throws -> Indexer {
        let index = try index()
        // Made only when a page is to be recognised: a run with nothing new reads no typed text.
        let context = Once<RecognitionContext>()
        return Indexer(library: library, index: index) { [self] in
            try context.get { try recognitionContext(quality: quality, reader: reader) }.makeRecognizer()
        }
    }

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

    /// The text recognised on each page of `note`, from the index.
    public func recognizedText(of note: NoteID) throws -> [PageID: String] { try index().pageTexts(of: note) }
}

extension RecognitionQuality {
    /// The default: `best`, each line drawn seven ways and the readings voted.
    public static var standard: RecognitionQuality { .best }
}
