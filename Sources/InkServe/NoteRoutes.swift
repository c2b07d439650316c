import Foundation
import Hummingbird
import HummingbirdWebSocket
import InkwellKit

/// The library view's notes: the listing, creating a note, changing one, deleting one.
extension WebServer {
    func addNoteRoutes(to router: Router<BasicWebSocketRequestContext>) {
        let workspace = workspace
        let rooms = rooms

        router.get("/api/library") { _, _ in
            try await Self.blocking { try JSON.response(LibraryListing.make(workspace)) }
        }

        router.post("/api/notes") { request, _ in
            let body = try await Self.body(NewNote.self, of: request)
            return try await Self.blocking {
                let notebook = try body.notebook.map(NotebookPath.init) ?? .inbox
                let entry = try workspace.createNote(title: body.title, in: notebook)
                return try JSON.response(LibraryNote(entry, states: .unknown), status: .created)
            }
        }

        router.patch("/api/notes/:id") { request, context in
            let id = try noteID(context)
            let change = try await Self.body(NoteChange.self, of: request)
            // Checked before anything changes: a note open for writing stays in its notebook.
            if change.notebook != nil, await rooms.openNote(id) != nil {
                throw HTTPError(.conflict, message: "the note is open for writing; close it before moving it to another notebook")
            }
            return try await Self.blocking {
                _ = try workspace.note(id: id)
                // Everything is checked before anything is written: a bad field changes nothing.
                let title = try change.title.map(Workspace.validTitle)
                let add = try Set((change.addTags ?? []).map(Self.tag)), remove = try Set((change.removeTags ?? []).map(Self.tag))
                let notebook = try change.notebook.map(NotebookPath.init)
                if let notebook, change.createNotebook != true, let near = try workspace.notebookSuggestions(for: notebook) {
                    let hint = near.isEmpty ? "" : "; did you mean " + near.map { "\"\($0)\"" }.joined(separator: " or ") + "?"
                    throw HTTPError(.unprocessableContent, message: "no notebook \"\(notebook)\"\(hint)")
                }
                let place = try change.place.map(Self.placement)
                if title != nil || change.pinned != nil { _ = try workspace.updateNote(id, title: title, pinned: change.pinned) }
                if !add.isEmpty || !remove.isEmpty { _ = try workspace.tagNote(id, add: add, remove: remove) }
                if notebook != nil || place != nil { _ = try workspace.moveNote(id, to: notebook, place: place) }
                return try JSON.response(LibraryNote(try workspace.note(id: id), states: .unknown))
            }
        }

        router.delete("/api/notes/:id") { _, context in
            let id = try noteID(context)
            if await rooms.openNote(id) != nil {
                throw HTTPError(.conflict, message: "the note is open for writing; close it first")
            }
            return try await Self.blocking {
                _ = try workspace.note(id: id)
                return try JSON.response(try workspace.deleteNote(id))
            }
        }
    }
}
