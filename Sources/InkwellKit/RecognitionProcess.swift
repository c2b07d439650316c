import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process-wide setting recognition needs, decided in one place: Tesseract's OpenMP reads
/// `OMP_THREAD_LIMIT` once, when the library loads, and unset, recognition is 2–7× slower on a busy
/// machine (its threads fight the job's own workers). A front end about to recognise calls
/// ``prepare()`` first, which runs the program again with the limit set unless it is set already.
public enum RecognitionProcess {
    /// Sets `OMP_THREAD_LIMIT=1` and re-executes the program with the same arguments; returns (having
    /// done nothing) when the limit is already set or the program cannot be run again (no `/proc`, as
    /// on macOS: recognition works, only slower).
    public static func prepare() {
        guard ProcessInfo.processInfo.environment["OMP_THREAD_LIMIT"] == nil else { return }
        setenv("OMP_THREAD_LIMIT", "1", 1)
        execv("/proc/self/exe", CommandLine.unsafeArgv)
    }
}
