/// Everything the session knows. Read it to render; only ``Session/send(_:)`` changes it.
public struct SessionState: Sendable, Equatable {
    /// The latest event time seen, in seconds; nil before the first event.
    public internal(set) var clock: Double?
    /// Whether a note is open: the session's phase.
    var phase: Phase = .noNote
    /// Set while the app is in the background.
    public internal(set) var background: Background?
    var nextRequestID: UInt64 = 1

    /// The session's phases.
    enum Phase: Sendable, Equatable {
        case noNote
        case open(OpenNote)
    }

    /// The open note, or nil when none is open.
    public var note: OpenNote? {
        if case .open(let note) = phase { note } else { nil }
    }

    /// Runs `body` on the open note and returns what it returns; nil, running nothing, when none is open.
    @discardableResult
    mutating func withNote<Result>(_ body: (inout OpenNote) -> Result) -> Result? {
        guard case .open(var note) = phase else { return nil }
        phase = .noNote  // so the note is changed in place, not copied
        defer { phase = .open(note) }
        return body(&note)
    }

    /// The next time after ``clock`` at which a timer is due. A real-time shell sends
    /// ``SessionEvent/tick(at:)`` then; a virtual-time shell may instead let the next event fire it.
    public var nextDeadline: Double? {
        guard let clock else { return nil }
        let deadlines = if let background {
            [background.draftDeadline]
        } else {
            note.map { [$0.deadlines.autosave, $0.deadlines.navigationHide, $0.deadlines.retry, $0.deadlines.strokeStall] } ?? []
        }
        return deadlines.compactMap { $0 }.filter { $0 > clock }.min()
    }
}

/// The app's stay in the background.
public struct Background: Sendable, Equatable {
    /// When the app went to the background.
    public let since: Double
    /// When the draft will be finalised; nil once it has been, or when no note was open.
    public internal(set) var draftDeadline: Double?
    /// True once the draft has been finalised: coming back re-enters the note clean.
    public internal(set) var isDraftFinalized = false
}
