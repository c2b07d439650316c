// libFuzzer entry point for ReplayLogDecoder (built by scripts/fuzz.sh, not by swift build: it has no main of its own).
// The checks are in Sources/FuzzSupport/RecordingChecks.swift.
import InkInterchange

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReplay(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    fuzzDecode(bytes, count, ReplayLogDecoder.decode)
    return 0
}
