import InkCore
import InkSession
import InkStore

/// The one interpreter of the editor session's effects, shared by every shell that runs a session:
/// the import's replay in virtual time (``NoteReplayer``, also under the drop folder) and the live
/// note on a clock (``LiveNote``). It owns the ``Session`` and the rules of carrying its effects out
/// that must not differ by path:
///
/// - effects are carried out in order, and an event a shell answers with at once (a save that
///   completed in virtual time, an answer to `confirmLeave`) is sent before the next effect, its own
///   effects queued behind;
/// - a save's and a recognition's outcome go back as the same events (``saved(_:_:at:)``,
///   ``recognised(_:_:at:)``);
/// - `updateTags` is written to the stored note by one tag rule, ``applyTags(_:to:)``, which the
///   indexing job uses for the hashtags it finds too;
/// - recognition runs in the one ``RecognitionContext`` of the library.
///
/// What differs is only where the work is done: the shell's `carryOut` writes the staged note at
/// once, or hands the work to ``BlockingExecutor`` and answers later with ``send(_:_:)``.
package struct SessionRunner {
    package private(set) var session: Session

    package init(config: SessionConfig = SessionConfig()) {
        session = Session(config: config)
    }

    package var state: SessionState { session.state }

    /// Sends `event`, then carries out each effect with `carryOut(effect, now)` in order; an event
    /// `carryOut` returns is sent at once and its effects carried out after those already queued.
    package mutating func send(_ event: SessionEvent, _ carryOut: (SessionEffect, _ now: Double) throws -> SessionEvent?) rethrows {
        var queue = session.send(event)[...]
        while let effect = queue.popFirst() {
            let now = session.state.clock ?? event.at
            if let answer = try carryOut(effect, now) { queue += session.send(answer) }
        }
    }

    /// Sends a `tick` at every deadline up to `time`, earliest first (virtual time: nothing sleeps).
    package mutating func fireTimers(until time: Double, _ carryOut: (SessionEffect, _ now: Double) throws -> SessionEvent?) rethrows {
        while let deadline = session.state.nextDeadline, deadline <= time {
            try send(.tick(at: deadline), carryOut)
        }
    }

    /// The event that tells the session how a save went.
    package static func saved(_ request: SaveRequestID, _ outcome: Result<Void, any Error>, at now: Double) -> SessionEvent {
        switch outcome {
        case .success: .saveFinished(request, at: now)
        case .failure(let error): .saveFailed(request, reason: "\(error)", at: now)
        }
    }

    /// The event that tells the session how a page's recognition went: the hashtags found, or why not.
    package static func recognized(_ page: PageID, _ outcome: Result<[Tag], any Error>, at now: Double) -> SessionEvent {
        switch outcome {
        case .success(let hashtags): .recognitionFinished(page, hashtags: hashtags, at: now)
        case .failure(let error): .recognitionFailed(page, reason: "\(error)", at: now)
        }
    }

    /// The tag rule of every path: the session's tags (or the hashtags found) are adopted by the
    /// stored note (``Note/adopt(hashtags:)``), never one removed by hand, and tags the note got
    /// meanwhile stay. Returns the tags added.
    @discardableResult
    package static func applyTags(_ tags: some Sequence<Tag>, to note: inout Note) -> Set<Tag> {
        note.adopt(hashtags: tags)
    }
}
