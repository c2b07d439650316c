// libFuzzer entry point for XournalDecoder's XML reading, below the gzip and zip layers (built by
// scripts/fuzz.sh, not by swift build: it has no main of its own).
//
// XournalDecoder.decode reads plain XML as it is, so this target calls the same public function but
// refuses (returns -1: not added to the corpus) any input that starts like gzip or zip. Mutations then
// land in the XML itself instead of in deflate streams that no longer inflate, and no input pays for
// zlib or libzip. The gzip and zip layers stay covered by the `xournal` target.
import InkInterchange

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXournalXML(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    if count >= 2, (bytes[0] == 0x1F && bytes[1] == 0x8B) || (bytes[0] == 0x50 && bytes[1] == 0x4B) { return -1 }
    fuzzDecode(bytes, count) { (data, file) throws(ImportError) in try XournalDecoder.decode(data, file: file, readingBeside: false) }
    return 0
}
