// libFuzzer entry point for InkMLDecoder (built by scripts/fuzz.sh, not by swift build: it has no main of its own).
// The checks are in Sources/FuzzSupport/RecordingChecks.swift.
import InkInterchange

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInkML(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    fuzzDecode(bytes, count, InkMLDecoder.decode)
    return 0
}
