// libFuzzer entry point for RnoteDecoder's JSON reading, below gzip (built by scripts/fuzz.sh, not by
// swift build: it has no main of its own). RnoteDecoder reads plain JSON as it is, so inputs that
// start like gzip are refused (returns -1: not added to the corpus) and mutations land in the JSON.
// The checks are in Sources/FuzzSupport/RecordingChecks.swift.
import InkInterchange

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRnote(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    if count >= 2, bytes[0] == 0x1F, bytes[1] == 0x8B { return -1 }
    fuzzDecode(bytes, count, RnoteDecoder.decode)
    return 0
}
