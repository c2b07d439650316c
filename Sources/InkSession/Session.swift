/// The editor session: a pure state machine. Each event gives a new state and the effects to apply;
/// there are no clocks, threads, randomness or I/O inside, so the same events always give the same result.
///
/// ```swift
/// var session = Session()
/// for effect in session.send(.enterNote(noteID, at: 0)) { shell.apply(effect) }
/// ```
public struct Session: Sendable, Equatable {
    /// The rules' timings, fixed for the session's life.
    public let config: SessionConfig
    /// Everything the session knows; read it to render.
    public private(set) var state = SessionState()

    public init(config: SessionConfig = SessionConfig()) {
        self.config = config
    }

    /// Handles `event`: first fires every timer due at its time, then the event itself, then any timer
    /// or save the event unblocked. Returns the effects to apply, in order.
    public mutating func send(_ event: SessionEvent) -> [SessionEffect] {
        var step = Step(now: state.advanceClock(to: event.at), config: config)
        state.fireDueTimers(&step)
        state.handle(event, &step)
        state.settle(&step)
        return step.effects
    }
}

/// One event's handling: its time, the rules, and the effects emitted so far.
struct Step {
    let now: Double
    let config: SessionConfig
    var effects: [SessionEffect] = []
}
