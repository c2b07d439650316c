import InkCore
import InkRecognize
import InkWorkspace

/// The intake's doors: an importer and the drop folder over the workspace's library, recognising in
/// its one context.
extension Workspace {
    /// Recognition during an import or ingest, on `jobs` threads at `quality` with `reader`, keeping what
    /// was read in the index. The context is taken once per import, with the notes imported, before any is committed.
    public func recognition(jobs: Int, quality: RecognitionQuality = .best, reader: RecognitionReader = .both) -> ImportRecognition {
        ImportRecognition(jobs: jobs, context: { [self] importing in
            try recognitionContext(importing: importing, quality: quality, reader: reader)
        }, makeRecognizer: { try $0.makeRecognizer() }, keep: { [self] note, pages in
            try index().record([(note, pages.map { ($0.page, $0.recognition) })], in: library)
        })
    }

    /// An importer into this library, recognising on `jobs` threads unless `recognize` is false.
    public func importer(recognize: Bool, jobs: Int, quality: RecognitionQuality = .best, reader: RecognitionReader = .both) -> Importer {
        var importer = Importer(library: library)
        if recognize { importer.recognition = recognition(jobs: jobs, quality: quality, reader: reader) }
        return importer
    }

    /// The library's drop folder, importing through the same intake as ``importer(recognize:jobs:)``.
    public func dropFolder(options: DropFolderOptions, recognize: Bool, jobs: Int) -> DropFolder {
        let folder = DropFolder(library: library, options: options)
        folder.importer = importer(recognize: recognize, jobs: jobs)
        return folder
    }

}
