import Testing
import InkCore

@Suite("Text from a C buffer")
struct CStringTests {
    private func buffer(_ bytes: [UInt8]) -> [CChar] { bytes.map { CChar(bitPattern: $0) } }

    @Test("stops at the first NUL, takes all without one, and replaces bytes that are not UTF-8")
    func nulTerminated() {
        #expect(String(nulTerminated: buffer(Array("bad model".utf8) + [0, 0x41, 0x42])) == "bad model")
        #expect(String(nulTerminated: buffer(Array("no end".utf8))) == "no end")
        #expect(String(nulTerminated: buffer([0])) == "")
        #expect(String(nulTerminated: buffer(Array("café".utf8) + [0xFF, 0])) == "café\u{FFFD}")
    }
}
