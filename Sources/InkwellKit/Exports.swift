// What front ends see besides InkwellKit's own types: values, never the modules that store, index,
// render, export or decode (they are reached through the workspace: docs/architecture.md).
// InkCore's notes, pages, strokes, tags and notebook paths; InkText's typed text (parsed lines,
// counts, checkboxes), which commands print as it is; and the editor session's settings and
// answers, which a front end hands to the live note as they are.
@_exported import InkCore
@_exported import InkText
// The application layer's rooms, whose public API is the door's too (package what the adapters need).
@_exported import InkWorkspace
@_exported import InkIntake
@_exported import InkLive
@_exported import InkIndexing
@_exported import enum InkSession.LeaveAnswer
@_exported import struct InkSession.SessionConfig
// The plain values the workspace answers with, by name: front ends print and encode them as they are
// (no wrapper re-stating their fields), and see nothing else of the modules that make them.
@_exported import struct InkStore.LibraryStats
@_exported import struct InkStore.LibraryUpgrade
@_exported import struct InkStore.TrashItem
@_exported import struct InkIndex.SearchHit
@_exported import struct InkIndex.QueueStatus
@_exported import struct InkExport.ExportReport
@_exported import struct InkObsidian.ObsidianPushReport
@_exported import struct InkStore.RoutedNote
@_exported import struct InkRecognize.RecognitionOptions
