// The export benchmark's library (`scripts/export-bench.sh`): notes of synthetic handwriting from
// InkSamples, written straight into a library (no replay logs in between), plus the first few as
// Xournal++ documents for the peer.
//
//   inkwell-bench make-export-library DIR [--notes N] [--pages P] [--sentences S] [--xopp K]
import Foundation
import InkCore
import InkFont
import InkSamples
import InkStore

/// Handles `make-export-library`; returns false for anything else.
func exportLibraryMain(_ arguments: [String]) throws -> Bool {
    let args = Array(arguments.dropFirst())
    guard args.first == "make-export-library" else { return false }
    guard args.count >= 2 else {
        FileHandle.standardError.write(Data("usage: inkwell-bench make-export-library DIR [--notes N] [--pages P] [--sentences S] [--xopp K]\n".utf8))
        exit(64)
    }
    func value(_ flag: String, _ fallback: Int) -> Int {
        args.firstIndex(of: flag).flatMap { $0 + 1 < args.count ? Int(args[$0 + 1]) : nil } ?? fallback
    }
    let folder = URL(fileURLWithPath: args[1], isDirectory: true)
    var request = SampleRequest()
    request.notes = value("--notes", 2_000)
    request.pages = value("--pages", 3)
    request.sentencesPerPage = value("--sentences", 6)
    let xoppCount = value("--xopp", 20)
    let synthesizer = HandwritingSynthesizer(font: request.style.font)

    let libraryURL = folder.appendingPathComponent("library", isDirectory: true)
    let xoppFolder = folder.appendingPathComponent("xopp", isDirectory: true)
    try? FileManager.default.removeItem(at: libraryURL)
    try? FileManager.default.removeItem(at: xoppFolder)
    try FileManager.default.createDirectory(at: xoppFolder, withIntermediateDirectories: true)
    let library = try Library.create(at: libraryURL)
    let specs = request.specs()
    var pages = 0, points = 0
    var batch: [StagedNote] = []
    for (index, (_, spec)) in specs.enumerated() {
        let note = synthesizer.write(spec)
        var staged = try library.stage(title: spec.title, in: spec.notebook, created: spec.created, source: "bench")
        for page in note.inkPages {
            try staged.apply(PageDelta(pageID: page.id, size: page.size, template: page.template, isNew: true, addedStrokes: page.strokes))
            pages += 1
            points += page.pointCount
        }
        batch.append(staged)
        if batch.count == 100 || index == specs.count - 1 {
            try library.commit(batch)
            batch = []
        }
        if index < xoppCount {
            try Data(DensePages.xopp(note.inkPages).utf8).write(to: xoppFolder.appendingPathComponent(String(format: "%04d.xopp", index)))
        }
    }
    print("wrote \(libraryURL.path): \(specs.count) notes, \(pages) pages, \(points) points; \(min(xoppCount, specs.count)) of them as \(xoppFolder.path)/NNNN.xopp")
    return true
}
