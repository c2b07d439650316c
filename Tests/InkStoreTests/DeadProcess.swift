// Shared by InkStoreTests and InkIndexTests (a symlink there).
import Foundation

/// The pid of a process that ran on this machine and has exited.
func deadProcessID() throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/true")
    try process.run()
    process.waitUntilExit()
    return process.processIdentifier
}
