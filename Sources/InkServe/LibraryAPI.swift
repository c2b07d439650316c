import Hummingbird
import HummingbirdWebSocket

/// The library over HTTP (JSON): listing, search, create, rename, move, pin, tag, delete and
/// restore, thumbnails and exports, each through the same Workspace calls as the CLI. One file per
/// resource: NoteRoutes, NotebookRoutes, TrashRoutes, SearchRoutes, PageRoutes, UploadRoutes,
/// DownloadRoutes.
extension WebServer {
    func addLibraryAPI(to router: Router<BasicWebSocketRequestContext>) {
        addNoteRoutes(to: router)
        addSearchRoutes(to: router)
        addUploadRoutes(to: router)
        addNotebookRoutes(to: router)
        addTrashRoutes(to: router)
        addPageRoutes(to: router)
        addDownloadRoutes(to: router)
    }
}
