// libFuzzer entry point for XournalDecoder (built by scripts/fuzz.sh, not by swift build: it has no main of its own).
import Foundation
import InkInterchange

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXournal(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    do {
        let recording = try XournalDecoder.decode(data, file: "fuzz")
        // Touch the result so the decoder's work is not optimised away.
        if recording.pointCount < 0 { fatalError("negative point count") }
    } catch {
        // A clean refusal must name the file.
        if error.file != "fuzz" { fatalError("ImportError without the file name: \(error)") }
    }
    return 0
}
