import Foundation
import InkCore
import InkIndex
import InkSamples
import InkStore
import Testing
@testable import InkwellKit

/// What a library says about one note after recognition: its tags, where it was filed, and the text
/// read on each page.
private struct Answer: Equatable, CustomStringConvertible {
    var tags: [String]
    var notebook: String
    var pages: [String]

    var description: String { "tags \(tags) in \(notebook), text \(pages)" }
}

@Suite("Every path gives the same answers", .enabled(if: tesseractAvailable, "needs Tesseract's English model (tesseract-ocr-eng)"))
struct SameAnswersTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-paths-\(UUID().uuidString)")

    /// Generated notes in every style and jitter, written into the Inbox, with their hashtags.
    private func samples() throws -> (files: [URL], hashtags: [String]) {
        var files: [URL] = [], hashtags: [String] = []
        for style in HandwritingStyle.allCases {
            for jitter in [JitterLevel.mild, .strong] {
              for seed in [UInt64(31), 32] {
                var request = SampleRequest()
                request.style = style
                request.jitter = jitter
                request.sentencesPerPage = 3
                request.hashtagsPerPage = 2
                request.seed = seed
                request.notebook = .inbox
                request.title = "\(style) \(jitter) \(seed)"
                for url in try SampleWriter().write(request, to: root.appendingPathComponent("samples")) {
                    if url.lastPathComponent.hasSuffix(".truth.json") {
                        let truth = try JSONDecoder().decode(GroundTruth.self, from: Data(contentsOf: url))
                        hashtags += truth.pages.flatMap(\.hashtags)
                    } else {
                        files.append(url)
                    }
                }
              }
            }
        }
        return (files, hashtags)
    }

    /// A new library with routing rules for some of the hashtags written, so routing is exercised.
    private func library(_ name: String, routing hashtags: [String]) throws -> Workspace {
        let library = try Library.create(at: root.appendingPathComponent(name))
        for tag in Set(hashtags).sorted().prefix(6) {
            _ = try library.addRouteRule(try RouteRule(pattern: "#" + tag, notebook: try NotebookPath("Filed/" + tag)))
        }
        return Workspace(library: library)
    }

    /// Every note's answer, by title (each sample note has its own).
    private func answers(_ workspace: Workspace) throws -> [String: Answer] {
        let index = try workspace.index()
        var answers: [String: Answer] = [:]
        for stored in try workspace.library.notes() {
            let texts = try index.pageTexts(of: stored.note.id)
            answers[stored.note.title] = Answer(tags: stored.note.tags.map(\.name).sorted(), notebook: stored.notebook.description,
                                  pages: stored.note.pages.map { texts[$0] ?? "" })
        }
        return answers
    }

    @Test("import (recognising), import --no-recognize then index, and the drop folder give identical tags, text and routing")
    func identicalOnEveryPath() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let (files, hashtags) = try samples()
        #expect(files.count == 8)

        // 1. import, recognising as the session asks.
        let recognising = try library("recognising", routing: hashtags)
        for file in files {
            let report = recognising.importer(recognize: true, jobs: 2).run([file], replayer: NoteReplayer(), keepGoing: false)
            #expect(report.failures.isEmpty && report.recognitionFailures.isEmpty, "\(report.failures) \(report.recognitionFailures)")
        }

        // 2. import without recognition, then the indexing job.
        let later = try library("later", routing: hashtags)
        for file in files {
            #expect(later.importer(recognize: false, jobs: 2).run([file], replayer: NoteReplayer(), keepGoing: false).failures.isEmpty)
        }
        let indexed = try later.indexer().run(jobs: 2)
        #expect(indexed.failed.isEmpty && indexed.recognised == files.count)

        // 3. the drop folder.
        let dropped = try library("dropped", routing: hashtags)
        let drop = dropped.dropFolder(options: DropFolderOptions(), recognize: true, jobs: 2)
        try FileManager.default.createDirectory(at: drop.folder, withIntermediateDirectories: true)
        for file in files {
            try FileManager.default.copyItem(at: file, to: drop.folder.appendingPathComponent(file.lastPathComponent))
        }
        var events: [DropEvent] = []
        let start = Date()
        try drop.look(now: { start }) { events.append($0) }
        try drop.look(now: { start.addingTimeInterval(10) }) { events.append($0) }
        #expect(events.filter { $0.kind == .imported }.count == files.count, "\(events.map(\.line))")

        let first = try answers(recognising), second = try answers(later), third = try answers(dropped)
        #expect(first.count == files.count)
        #expect(first.values.contains { $0.notebook.hasPrefix("Filed/") }, "no note was routed: \(first)")
        #expect(first.values.allSatisfy { !$0.tags.isEmpty && $0.pages.allSatisfy { !$0.isEmpty } }, "\(first)")
        for file in first.keys.sorted() {
            #expect(second[file] == first[file], "\(file): import then index gave \(second[file].map(\.description) ?? "nothing"), import gave \(first[file].map(\.description) ?? "nothing")")
            #expect(third[file] == first[file], "\(file): the drop folder gave \(third[file].map(\.description) ?? "nothing"), import gave \(first[file].map(\.description) ?? "nothing")")
        }
    }
}
