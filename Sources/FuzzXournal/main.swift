// libFuzzer entry point for XournalDecoder (built by scripts/fuzz.sh, not by swift build: it has no main of its own).
// The checks are in Sources/FuzzSupport/RecordingChecks.swift.
import InkInterchange

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXournal(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    fuzzDecode(bytes, count) { (data, file) throws(ImportError) in try XournalDecoder.decode(data, file: file, readingBeside: false) }
    return 0
}
