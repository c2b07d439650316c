// libFuzzer entry point for RemarkableDecoder (built by scripts/fuzz.sh, not by swift build: it has no main of its own).
// The checks are in Sources/FuzzSupport/RecordingChecks.swift.
import InkInterchange

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRemarkable(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    fuzzDecode(bytes, count, RemarkableDecoder.decode)
    return 0
}
