import Foundation
import Testing
@testable import InkInterchange

@Suite("What a file says wrote it")
struct ClaimedSourceTests {
    @Test("InkML names its inkSource, Xournal++ its creator, a replay log its header's source")
    func claims() throws {
        let inkml = """
            <ink xmlns="http://www.w3.org/2003/InkML">
              <definitions><inkSource xml:id="pen" manufacturer="Wacom" model="One"/></definitions>
              <trace>10 10, 20 20, 30 25</trace>
            </ink>
            """
        #expect(try InkMLDecoder.decode(Data(inkml.utf8), file: "a.inkml").claimedSource == "Wacom One")
        let plain = #"<ink xmlns="http://www.w3.org/2003/InkML"><trace>10 10, 20 20</trace></ink>"#
        #expect(try InkMLDecoder.decode(Data(plain.utf8), file: "b.inkml").claimedSource == nil)

        let xopp = """
            <?xml version="1.0" standalone="no"?>
            <xournal creator="xournalpp 1.1.3" fileversion="4">
              <page width="595" height="842"><background type="solid" color="#ffffffff" style="plain"/>
                <layer><stroke tool="pen" color="#000000ff" width="1.4">10 10 20 20 30 30</stroke></layer></page>
            </xournal>
            """
        #expect(try XournalDecoder.decode(Data(xopp.utf8), file: "c.xopp").claimedSource == "xournalpp 1.1.3")

        // A claim is printed in warnings: control characters go, and it is kept short.
        let log = #"{"type":"header","version":1,"source":"Acme\u0007 Scanner \#(String(repeating: "x", count: 200))"}"# + "\n"
            + #"{"type":"down","t":0,"x":1,"y":1}"# + "\n" + #"{"type":"up","t":0.1,"x":2,"y":2}"# + "\n"
        let claim = try ReplayLogDecoder.decode(Data(log.utf8), file: "d.jsonl").claimedSource
        #expect(claim?.hasPrefix("Acme Scanner xxx") == true && claim?.count == 100)
    }
}
