import Hummingbird

/// The browser's files (plain HTML, CSS and JavaScript modules, compiled into the program), by name; `rules.js`
/// is written when the server starts (``WebRules``).
enum WebAssets {
    private static let files: [String: (bytes: [UInt8], type: String)] = [
        "library.html": (PackageResources.library_html, "text/html; charset=utf-8"),
        "note.html": (PackageResources.note_html, "text/html; charset=utf-8"),
        "style.css": (PackageResources.style_css, "text/css; charset=utf-8"),
        "library.js": (PackageResources.library_js, "text/javascript; charset=utf-8"),
        "note.js": (PackageResources.note_js, "text/javascript; charset=utf-8"),
        "note-state.js": (PackageResources.note_state_js, "text/javascript; charset=utf-8"),
        "note-connection.js": (PackageResources.note_connection_js, "text/javascript; charset=utf-8"),
        "note-messages.js": (PackageResources.note_messages_js, "text/javascript; charset=utf-8"),
        "note-canvas.js": (PackageResources.note_canvas_js, "text/javascript; charset=utf-8"),
        "ink-geometry.js": (PackageResources.ink_geometry_js, "text/javascript; charset=utf-8"),
        "note-input.js": (PackageResources.note_input_js, "text/javascript; charset=utf-8"),
        "note-navigation.js": (PackageResources.note_navigation_js, "text/javascript; charset=utf-8"),
        "note-toolbar.js": (PackageResources.note_toolbar_js, "text/javascript; charset=utf-8"),
        "note-replay.js": (PackageResources.note_replay_js, "text/javascript; charset=utf-8"),
        "note-download.js": (PackageResources.note_download_js, "text/javascript; charset=utf-8"),
        "api.js": (PackageResources.api_js, "text/javascript; charset=utf-8"),
        "note-last-pages.js": (PackageResources.note_last_pages_js, "text/javascript; charset=utf-8"),
        "offline-app.js": (PackageResources.offline_app_js, "text/javascript; charset=utf-8"),
        "icon.svg": (PackageResources.icon_svg, "image/svg+xml"),
        "manifest.webmanifest": (PackageResources.manifest_webmanifest, "application/manifest+json"),
    ]

    static func contains(_ name: String) -> Bool { files[name] != nil }

    /// Every file's name, in order.
    static var names: [String] { files.keys.sorted() }

    /// The bytes of the file `name` (empty when there is none).
    static func bytes(_ name: String) -> [UInt8] { files[name]?.bytes ?? [] }

    static func response(named name: String) -> Response {
        guard let file = files[name] else { return Response(status: .notFound) }
        return Response(status: .ok, headers: [.contentType: file.type, .cacheControl: "no-cache"],
                        body: .init(byteBuffer: ByteBuffer(bytes: file.bytes)))
    }
}
