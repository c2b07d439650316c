// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Inkwell",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "inkwell", targets: ["inkwell"]),
        .library(name: "InkCore", targets: ["InkCore"]),
        .library(name: "InkStore", targets: ["InkStore"]),
        .library(name: "InkSession", targets: ["InkSession"]),
        .library(name: "InkInterchange", targets: ["InkInterchange"]),
        .library(name: "InkSamples", targets: ["InkSamples"]),
        .library(name: "InkwellKit", targets: ["InkwellKit"]),
        .library(name: "InkGeometry", targets: ["InkGeometry"]),
        .library(name: "InkRender", targets: ["InkRender"]),
        .library(name: "InkExport", targets: ["InkExport"]),
        .library(name: "InkObsidian", targets: ["InkObsidian"]),
        .library(name: "InkRecognize", targets: ["InkRecognize"]),
        .library(name: "InkIndex", targets: ["InkIndex"]),
        .library(name: "InkIndexPostgres", targets: ["InkIndexPostgres"]),
        .library(name: "InkFont", targets: ["InkFont"]),
        .library(name: "InkText", targets: ["InkText"]),
        .library(name: "InkServe", targets: ["InkServe"]),
        .library(name: "InkPDF", targets: ["InkPDF"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        // InkServe builds responses from NIO's byte buffers and HTTP field names, and closes sockets with NIO's codes, beside Hummingbird.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.3.0"),
        // WSCore (already under hummingbird-websocket): the WebSocket sessions of the web notebook's test client.
        .package(url: "https://github.com/hummingbird-project/swift-websocket.git", from: "1.0.0"),
        // Hummingbird's own service runner: `inkwell serve` triggers its graceful shutdown itself, once open notes are saved.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.6.0"),
    ],
    targets: [
        // zlib, for CRC-32 (found with pkg-config on Linux).
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        // libzip's header, for zip-packaged Xournal++ files and ZIP export: not linked (CZipOnUse below), so
        // not found with pkg-config, which would link it.
        .systemLibrary(name: "CZip"),
        // Cairo's headers (image and PDF surfaces), from libcairo2-dev: not linked (CCairoOnUse below), so
        // not found with pkg-config, which would link it; on macOS build with -Xcc -I$(brew --prefix)/include.
        .systemLibrary(name: "CCairo"),
        // libpng, found with pkg-config.
        .systemLibrary(name: "CLibPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),
        // What the libraries loaded on first use share: the first of a list of names dlopen can load, and
        // a table of function pointers filled with dlsym (the targets below).
        .target(name: "CLoadOnUse", linkerSettings: [.linkedLibrary("dl")]),
        // Tesseract's C API, loaded with dlopen when recognition starts (not linked: it and what it
        // pulls in cost every command ~13 ms at start-up). Needs libtesseract5 and tesseract-ocr-eng at run time.
        .target(name: "CTesseract", dependencies: ["CLoadOnUse"]),
        // poppler-glib's C API (PDF pages drawn into Cairo), loaded with dlopen when a PDF is first opened, as
        // Tesseract is. Needs libpoppler-glib8 at run time.
        .target(name: "CPoppler", dependencies: ["CLoadOnUse"]),
        // libpq's C API (the PostgreSQL index), loaded with dlopen when a `postgres://` index is first opened,
        // as poppler is: no TLS library or database client is linked into every command. Needs libpq5 at run time.
        .target(name: "CPostgres", dependencies: ["CLoadOnUse"]),
        // Cairo's functions, each forwarding to libcairo loaded with dlopen on the first call (it and the 22
        // libraries it pulls in cost every command ~2.5 ms at start-up; scripts/forwarders.py writes them).
        // Needs libcairo2 at run time.
        .target(name: "CCairoOnUse", dependencies: ["CCairo", "CLoadOnUse"]),
        // libzip's functions, forwarding to libzip loaded on the first call, as Cairo's. Needs libzip4 at run time.
        .target(name: "CZipOnUse", dependencies: ["CZip", "CLoadOnUse"]),
        // ONNX Runtime's C API (the neural line reader's models), loaded with dlopen when recognition first
        // reads a line, as Tesseract is; absent, recognition is Tesseract's alone. From PyPI's onnxruntime
        // wheel (scripts/install-deps.sh), installed under lib/inkwell/.
        .target(name: "COnnxRuntime", linkerSettings: [.linkedLibrary("dl")]),
        // A small PNG encoder over libpng's classic API (setjmp lives in C).
        .target(name: "CPNGWriter", dependencies: ["CLibPNG"]),
        // Value types every layer shares: points, strokes, pages, notes (with the tag rules), notebooks,
        // tags, page changes, recognition results and the recogniser protocol. Foundation only.
        .target(name: "InkCore"),
        // Typed text: the Markdown line parser of a note's body, its counts, hashtags and checkboxes. Pure.
        .target(name: "InkText", dependencies: ["InkCore"]),
        // Hershey stroke fonts: the `.jhf` reader, and Roman and Script Simplex from fonts/ compiled in (symlinks).
        .target(name: "InkFont", dependencies: ["InkCore"], resources: [.embedInCode("Fonts/rowmans.jhf"), .embedInCode("Fonts/scripts.jhf")]),
        // The page file (binary chunks) and the library folder on disk (with each note's typed text).
        .target(name: "InkStore", dependencies: ["InkCore", "InkText", "CZlib"]),
        // The editor session: a pure state machine and the effects it asks for.
        .target(name: "InkSession", dependencies: ["InkCore"]),
        // Synthetic handwriting with known text, from the Hershey stroke fonts (samples, tests, benchmarks).
        .target(name: "InkSamples", dependencies: ["InkCore", "InkFont"]),
        // Stroke geometry, pure Swift: pressure curves and stroke styles, outlines, erasing, contours.
        // What both rendering and recognition need.
        .target(name: "InkGeometry", dependencies: ["InkCore"]),
        // PDFs under the ink: opened with poppler, their pages' sizes, pages drawn into Cairo, background
        // documents named by content (SHA-256, from the GLib that poppler-glib loads).
        .target(name: "InkPDF", dependencies: ["CPoppler"]),
        // Rendering backends: PNG (Cairo + libpng), PDF and SVG; tools' looks, templates; typed text
        // set in a Hershey font for PDFs.
        .target(name: "InkRender", dependencies: ["InkCore", "InkGeometry", "InkText", "InkFont", "InkPDF", "CCairo", "CCairoOnUse", "CPNGWriter"]),
        // Handwriting recognition through Tesseract and a neural line reader (PP-OCR on ONNX Runtime) voting
        // together: the recogniser of InkCore's protocol (rasterised for OCR with Cairo).
        .target(name: "InkRecognize", dependencies: ["InkCore", "InkGeometry", "CCairo", "CCairoOnUse", "CTesseract", "COnnxRuntime"]),
        // The search index (SQLite FTS5 via GRDB): titles, tags, typed and recognised text, page status.
        .target(
            name: "InkIndex",
            dependencies: ["InkCore", "InkStore", "InkText", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // The index on PostgreSQL (through libpq): the same searches as InkIndex's SQLite index, and a work
        // queue that workers on many machines claim pages from.
        .target(name: "InkIndexPostgres", dependencies: ["InkCore", "InkStore", "InkText", "InkIndex", "CPostgres"]),
        // Export: file names, PDF/PNG/SVG/Markdown/InkML outputs (typed text in PDF and Markdown), ZIP archives (libzip), conflicts, the catalog.
        .target(
            name: "InkExport",
            dependencies: ["InkCore", "InkStore", "InkText", "InkIndex", "InkRender", "InkPDF", "InkInterchange", "CZip", "CZipOnUse"]
        ),
        // Pushing notes into an Obsidian vault's daily notes, once each.
        .target(name: "InkObsidian", dependencies: ["InkCore", "InkStore", "InkText", "InkIndex", "InkRender", "InkExport"]),
        // Decoders of recorded pen input and format detection: replay log, InkML, reMarkable .rm, Xournal++ (gzip via zlib, zip via libzip);
        // InkFont measures a reMarkable page's typed text to wrap it at its column, in the font it is printed in.
        .target(name: "InkInterchange", dependencies: ["InkCore", "InkFont", "CZlib", "CZip", "CZipOnUse"]),
        // The application layer, in rooms behind one door. The workspace: one library with its index, the
        // recognition context every path reads in, the after-change policy (tags → routes → index), the
        // session runner both session shells share.
        .target(
            name: "InkWorkspace",
            dependencies: ["InkCore", "InkText", "InkStore", "InkSession", "InkRecognize", "InkIndex", "InkIndexPostgres"]
        ),
        // Intake: import, conversion, sync and the drop folder (decode, replay through the session in virtual time, commit).
        .target(
            name: "InkIntake",
            dependencies: ["InkWorkspace", "InkCore", "InkText", "InkStore", "InkSession", "InkInterchange", "InkPDF", "InkRender",
                           "InkExport", "InkRecognize"]
        ),
        // The live note: the session on a real clock for the web notebook, its journal and confirmations.
        .target(
            name: "InkLive",
            dependencies: ["InkWorkspace", "InkCore", "InkStore", "InkSession", "InkGeometry", "InkPDF", "InkRecognize", "InkIndex", "InkExport"]
        ),
        // The indexing job: pages recognised into the index, on one machine or from PostgreSQL's shared queue.
        .target(
            name: "InkIndexing",
            dependencies: ["InkWorkspace", "InkCore", "InkText", "InkStore", "InkRecognize", "InkIndex"]
        ),
        // The door, the only thing front ends call: the workspace's use cases over the rooms, and the values
        // front ends see.
        .target(
            name: "InkwellKit",
            dependencies: ["InkWorkspace", "InkIntake", "InkLive", "InkIndexing",
                           "InkCore", "InkText", "InkFont", "InkStore", "InkSession", "InkInterchange", "InkGeometry", "InkRender", "InkPDF",
                           "InkRecognize", "InkIndex", "InkExport", "InkObsidian", "InkSamples"]
        ),
        // The web notebook (`inkwell serve`): HTTP routes and a WebSocket per open note over InkwellKit's
        // live editor, and the browser's HTML/CSS/JS as plain files.
        .target(
            name: "InkServe",
            dependencies: ["InkwellKit",
                           .product(name: "Hummingbird", package: "hummingbird"),
                           .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                           .product(name: "NIOCore", package: "swift-nio"),
                           .product(name: "NIOWebSocket", package: "swift-nio"),
                           .product(name: "HTTPTypes", package: "swift-http-types"),
                           .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                           .product(name: "Logging", package: "swift-log")],
            resources: ["library.html", "note.html", "style.css", "library.js", "note.js", "api.js",
                        "note-state.js", "note-connection.js", "note-messages.js", "note-canvas.js", "ink-geometry.js", "note-input.js",
                        "note-navigation.js", "note-toolbar.js", "note-replay.js", "note-download.js", "note-last-pages.js",
                        "offline-app.js", "sw.js", "manifest.webmanifest", "icon.svg"].map { .embedInCode("Web/\($0)") },
            // Front ends reach only the members of InkwellKit and the values it re-exports, not those of the modules behind it.
            swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]
        ),
        // The command line: argument parsing and output only.
        .executableTarget(
            name: "inkwell",
            dependencies: ["InkwellKit", "InkServe", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                           .product(name: "Logging", package: "swift-log")],
            swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]
        ),
        // Release-build benchmarks of the store, the session, the indexing job and search (`make bench`),
        // and the data for the rendering and export benchmarks (scripts/render-bench.sh, scripts/export-bench.sh).
        .executableTarget(
            name: "inkwell-bench",
            dependencies: ["InkCore", "InkStore", "InkSession", "InkInterchange", "InkwellKit", "InkGeometry", "InkRender", "InkFont",
                           "InkSamples", "InkRecognize", "InkIndex", "InkIndexPostgres", "CCairo", "CPNGWriter"]
        ),
        // Release-build benchmark of recognition against the tesseract CLI (scripts/recognition-bench.sh), and on
        // the corpus's real pages imported and searched as `inkwell import` and `inkwell search` do (scripts/real-bench.sh).
        .executableTarget(
            name: "recognition-bench",
            dependencies: ["InkCore", "InkFont", "InkSamples", "InkGeometry", "InkRender", "InkRecognize", "InkInterchange",
                           "InkStore", "InkIndex", "InkwellKit"]
        ),
        // What several test targets share: the throwaway PostgreSQL server.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // What the web notebook's tests share: the server run on a port of its own, and a small HTTP/1.1 and
        // WebSocket client over the NIO pieces the server is built on (not HummingbirdTesting and WSClient,
        // which bring BoringSSL, AsyncHTTPClient and HTTP/2 into every test build).
        .target(
            name: "ServeTestSupport",
            dependencies: [.product(name: "Hummingbird", package: "hummingbird"),
                           .product(name: "HummingbirdCore", package: "hummingbird"),
                           .product(name: "HTTPTypes", package: "swift-http-types"),
                           .product(name: "Logging", package: "swift-log"),
                           .product(name: "NIOCore", package: "swift-nio"),
                           .product(name: "NIOPosix", package: "swift-nio"),
                           .product(name: "NIOHTTP1", package: "swift-nio"),
                           .product(name: "NIOWebSocket", package: "swift-nio"),
                           .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                           .product(name: "WSCore", package: "swift-websocket")],
            path: "Tests/ServeTestSupport"
        ),
        .testTarget(
            name: "InkCoreTests",
            dependencies: ["InkCore"]
        ),
        .testTarget(
            name: "InkTextTests",
            dependencies: ["InkCore", "InkText"]
        ),
        .testTarget(
            name: "InkFontTests",
            dependencies: ["InkCore", "InkFont", "InkSamples"]
        ),
        .testTarget(
            name: "InkStoreTests",
            dependencies: ["InkCore", "InkStore", "InkText", "InkSamples", .product(name: "PropertyBased", package: "swift-property-based")],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "InkSessionTests",
            dependencies: ["InkCore", "InkSession", "InkSamples"]
        ),
        .testTarget(
            name: "InkSamplesTests",
            dependencies: ["InkCore", "InkSamples", "InkFont"]
        ),
        .testTarget(
            name: "InkRenderTests",
            dependencies: ["InkCore", "InkRender", "InkGeometry", "InkSamples", "InkFont", "InkText", "InkPDF", "CCairo", "TestSupport"],
            exclude: ["Goldens"]
        ),
        .testTarget(
            name: "InkExportTests",
            dependencies: ["InkCore", "InkExport", "InkStore", "InkIndex", "InkRender", "InkwellKit", "TestSupport"]
        ),
        .testTarget(
            name: "InkObsidianTests",
            dependencies: ["InkCore", "InkObsidian", "InkExport", "InkStore", "InkIndex", "InkwellKit", "TestSupport"]
        ),
        .testTarget(
            name: "InkRecognizeTests",
            dependencies: ["InkRecognize", "InkSamples", "InkFont", "InkCore"]
        ),
        .testTarget(
            name: "InkIndexTests",
            dependencies: ["InkCore", "InkIndex", "InkIndexPostgres", "InkStore", "InkwellKit", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "InkInterchangeTests",
            dependencies: ["InkCore", "InkFont", "InkInterchange", "InkSamples", "CZlib", .product(name: "PropertyBased", package: "swift-property-based")],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "InkwellKitTests",
            dependencies: ["InkwellKit", "InkWorkspace", "InkIntake", "InkLive", "InkIndexing", "InkCore", "InkStore", "InkInterchange", "InkRecognize", "InkIndex", "InkSamples", "InkRender", "InkGeometry",
                           "TestSupport"]
        ),
        .testTarget(
            name: "InkServeTests",
            dependencies: ["InkServe", "InkwellKit", "InkStore", "InkRender", "ServeTestSupport", "TestSupport",
                           .product(name: "Hummingbird", package: "hummingbird"),
                           .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                           .product(name: "NIOCore", package: "swift-nio"),
                           .product(name: "HTTPTypes", package: "swift-http-types"),
                           .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(
            name: "InkwellCLITests",
            dependencies: ["inkwell", "InkwellKit", "InkStore", "InkInterchange", "InkPDF", "TestSupport", "ServeTestSupport", "CCairo",
                           .product(name: "ArgumentParser", package: "swift-argument-parser"),
                           .product(name: "Logging", package: "swift-log")]
        ),
    ]
)
