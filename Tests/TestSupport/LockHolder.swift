import Foundation

/// Another process holding a library's lock (InkStore's `LibraryLock`: `flock` on `LIBRARY/.lock`)
/// until the test lets it go: `flock(1)` running a shell that waits on its standard input.
public final class LockHolder {
    private let process = Process()
    private let input = Pipe()

    /// Starts the holder on `library`'s lock; returns once it holds it.
    public init(library: URL) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        process.arguments = [library.appendingPathComponent(".lock").path, "-c", "echo held; read -r _"]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        guard output.fileHandleForReading.availableData.starts(with: Array("held".utf8)) else {
            throw CocoaError(.fileLocking, userInfo: [NSLocalizedDescriptionKey: "flock did not take \(library.path)/.lock"])
        }
    }

    /// True while the lock is held.
    public var isHolding: Bool { process.isRunning }

    /// Lets the lock go; returns once the holder has exited.
    public func release() throws {
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    deinit { if process.isRunning { process.terminate() } }
}
