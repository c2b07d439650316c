import Foundation

/// PDFs for tests to draw on.
public enum TestPDF {
    /// A small vector PDF written by hand: per page, its size in points, a line of Helvetica text at
    /// (72, 72) from the top left and a black 100 × 50 pt box whose top left corner is at (100, 100).
    public static func vector(_ pages: [(width: Int, height: Int, text: String)]) -> Data {
        var objects: [String] = ["<< /Type /Catalog /Pages 2 0 R >>", "", "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
        var kids: [String] = []
        for page in pages {
            let content = "BT /F1 24 Tf 72 \(page.height - 72) Td (\(page.text)) Tj ET 0 0 0 rg 100 \(page.height - 150) 100 50 re f"
            objects.append("<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream")
            objects.append("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 \(page.width) \(page.height)] /Contents \(objects.count) 0 R /Resources << /Font << /F1 3 0 R >> >> >>")
            kids.append("\(objects.count) 0 R")
        }
        objects[1] = "<< /Type /Pages /Kids [\(kids.joined(separator: " "))] /Count \(pages.count) >>"
        var out = "%PDF-1.4\n"
        var offsets: [Int] = []
        for (index, object) in objects.enumerated() {
            offsets.append(out.utf8.count)
            out += "\(index + 1) 0 obj\n\(object)\nendobj\n"
        }
        let xref = out.utf8.count
        out += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for offset in offsets { out += String(format: "%010d 00000 n \n", offset) }
        out += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        return Data(out.utf8)
    }
}
