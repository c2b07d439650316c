import Foundation
import InkCore
import InkStore
import InkText

/// How importing a source again brings the note imported from it before up to date (docs/import-formats.md,
/// "Importing again"). The source was imported afresh into a staged note; from it and the note:
/// - a source page with the key and hash it had keeps the note's page as it is (its file untouched);
/// - a changed or new source page takes the staged page (a new page id);
/// - the page a changed source page replaces, and the page of a source page that is gone, are
///   retired (kept in the trash) — unless the user drew on or erased from it in Inkwell since (its
///   file no longer has the hash the import wrote): then it stays in the note, right after the new
///   version, as a page of the user's own, so no stroke of theirs is lost or laid over changed ink;
/// - pages the user added in Inkwell stay, after the page they followed;
/// - title, dates and the source's tags are refreshed: tags it gives now are added (unless removed by
///   hand), tags it gave at the last import and gives no more are removed (``NoteOrigin/tags`` tells
///   them from the tags the note got in Inkwell, which stay);
/// - the typed text becomes the source's new text, unless it was edited in Inkwell since the last
///   import (its hash is not ``NoteOrigin/text``): then it stays, and the update says so;
/// - the id and notebook stay.
struct ImportUpdate {
    let update: NoteUpdate
    /// Pages added or replaced.
    let changedPages: Int
    /// True when the source's typed text changed but the note's was edited in Inkwell, and was kept.
    let keptEditedText: Bool

    /// `origin` recording what the import gives the note besides its pages: the source's `tags` and
    /// the hash of its typed text as written (`text`).
    static func recording(_ origin: NoteOrigin, tags: Set<Tag>, text: TypedText) -> NoteOrigin {
        var origin = origin
        origin.tags = tags.map(\.name).sorted()
        origin.text = FNV1a.hex(text.text.utf8)
        return origin
    }

    /// `origin` with each source page naming the staged page made of it, in order, and the hash of
    /// that page's file. A source whose pages do not line up with the pages the replay made is kept
    /// as the pages made, keyed by number: an update then replaces them all.
    static func mapped(_ origin: NoteOrigin, to staged: StagedNote) -> NoteOrigin {
        var origin = origin
        let pages = staged.note.pages
        if origin.pages.count != pages.count {
            origin.pages = pages.enumerated().map { OriginPage(key: "\($0.offset + 1)", hash: staged.pageFileHash($0.element) ?? FNV1a.hex([])) }
        }
        for index in origin.pages.indices {
            origin.pages[index].page = pages[index]
            origin.pages[index].imported = staged.pageFileHash(pages[index])
        }
        return origin
    }

    /// The staged pages an update takes: those whose source page is new or changed since `before`.
    static func changedPages(_ staged: [PageID], origin: NoteOrigin, before: NoteOrigin?) -> [PageID] {
        guard origin.pages.count == staged.count else { return staged }
        let old = Dictionary((before?.pages ?? []).map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        return zip(origin.pages, staged).filter { page, _ in
            guard let was = old[page.key], was.page != nil else { return true }
            return was.hash != page.hash
        }.map(\.1)
    }

    /// The update of `target` from `staged`, the source imported afresh (`origin`); `created` is the
    /// date the source gives, if any; `tags` and `text` what the source gives besides its pages, and
    /// `currentText` the note's typed text now.
    init(library: Library, target: StoredNote, staged: StagedNote, origin: NoteOrigin, created: Date?,
         tags: Set<Tag>, text: TypedText, currentText: String) {
        let origin = ImportUpdate.recording(ImportUpdate.mapped(origin, to: staged), tags: tags, text: text)
        let before = target.note.origin?.pages ?? []
        let present = Set(target.note.pages)
        let fromSource = Set(before.compactMap(\.page))
        var old: [String: OriginPage] = [:]
        for page in before where old[page.key] == nil { old[page.key] = page }
        // The user's own pages, by the source page they follow (nil: before the first).
        var followers: [PageID?: [PageID]] = [:]
        var last: PageID?
        for id in target.note.pages {
            if fromSource.contains(id) { last = id } else { followers[last, default: []].append(id) }
        }
        func edited(_ page: OriginPage) -> Bool {
            guard let id = page.page else { return false }
            return library.pageFileHash(id, of: target) != page.imported
        }
        var pages = followers[nil] ?? [], retired: [PageID] = [], kept: [OriginPage] = [], changed = 0
        var seen = Set<String>()
        /// The page a source page had: kept after its new version when the user changed it, else retired.
        func leave(_ was: OriginPage) {
            guard let id = was.page, present.contains(id) else { return }
            if edited(was) { pages.append(id) } else { retired.append(id) }
            pages += followers[id] ?? []
        }
        for page in origin.pages {
            seen.insert(page.key)
            let was = old[page.key]
            if let was, let id = was.page, was.hash == page.hash, present.contains(id) {
                pages.append(id)
                kept.append(was)
                pages += followers[id] ?? []
                continue
            }
            pages.append(page.page!)
            kept.append(page)
            changed += 1
            if let was { leave(was) }
        }
        for was in before where !seen.contains(was.key) {
            seen.insert(was.key)
            leave(was)
        }
        var note = target.note
        note.pages = pages
        note.title = staged.note.title
        if let created { note.created = created.wholeSeconds }
        note.modified = Date().wholeSeconds
        // Only a reMarkable document says whether it is pinned; a file's note keeps the user's pin.
        if origin.kind == .remarkable { note.pinned = staged.note.pinned }
        let dropped = Set((target.note.origin?.tags ?? []).compactMap(Tag.init)).subtracting(tags)
        note.drop(tags: dropped)
        note.adopt(hashtags: staged.note.tags)
        // The text as the last import wrote it is the source's to refresh; edited since, it is the user's.
        // A note imported before the text's hash was kept: only an empty text is taken as the source's.
        let known = target.note.origin?.text
        let untouched = known.map { $0 == FNV1a.hex(currentText.utf8) } ?? currentText.isEmpty
        let refresh = text.text != currentText && untouched
        if refresh { note.adopt(hashtags: text.hashtags) }
        keptEditedText = text.text != currentText && !untouched && known != nil
        var refreshed = origin
        refreshed.pages = kept
        // Kept text keeps the hash it had, so that it stays the user's until it is the source's again.
        if text.text != currentText && !untouched { refreshed.text = known }
        note.origin = refreshed
        update = NoteUpdate(expected: target.note, staged: staged, note: note, retired: retired, typedText: refresh ? text : nil)
        changedPages = changed
    }
}
