import Dispatch
import Foundation
import InkwellKit

/// How `inkwell serve` stopped (``WebServer/run(logger:onRunning:onStopping:)``).
public struct ServeStop: Sendable, Equatable {
    public enum How: Sendable, Equatable {
        /// Every open note was saved and let go, and the server closed.
        case stopped
        /// ``ServeOptions/stopWithin`` passed first.
        case timedOut
        /// A second signal came first.
        case interrupted
    }

    public var how: How
    /// Notes that were open and not saved yet: their confirmed strokes are in their journals, which
    /// the next `inkwell serve` (or `inkwell check`) applies.
    public var unsaved: [NoteID]
}

/// Hears SIGINT and SIGTERM instead of letting them end the process (until ``cancel()``): each one
/// calls `handler`, on a queue of its own.
final class StopSignals: @unchecked Sendable {
    private let sources: [any DispatchSourceSignal]

    init(_ signals: [Int32] = [SIGINT, SIGTERM], handler: @escaping @Sendable () -> Void) {
        let queue = DispatchQueue(label: "inkwell.serve.signals")
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler(handler: handler)
            source.resume()
            return source
        }
    }

    /// Hands the signals back to their default action (ending the process).
    func cancel() {
        for source in sources {
            source.cancel()
            signal(Int32(source.handle), SIG_DFL)
        }
    }
}
