// What front ends see besides InkwellKit's own types: values, never the modules that store, index,
// render, export or decode (they are reached through the workspace: docs/architecture.md).
// InkCore's notes, pages, strokes, tags and notebook paths; InkText's typed text (parsed lines,
// counts, checkboxes), which commands print as it is; and the editor session's settings and
// answers, which a front end hands to the live note as they are.
@_exported import InkCore
@_exported import InkText
@_exported import enum InkSession.LeaveAnswer
@_exported import struct InkSession.SessionConfig
