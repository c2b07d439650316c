import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// One element of a parsed XML document: local name (prefix dropped), attributes, children, text.
final class XMLElement {
    let name: String
    let attributes: [String: String]
    var children: [XMLElement] = []
    /// Character data directly inside the element (kept only for the element names the reader asked for).
    var text = ""
    /// Where the element starts in the file, for error messages.
    let line: Int
    let column: Int

    init(name: String, attributes: [String: String], line: Int, column: Int) {
        self.name = name
        self.attributes = attributes
        self.line = line
        self.column = column
    }

    var position: String { "line \(line), column \(column)" }

    /// An attribute by its name, trying `xml:id`-style prefixed names by their local part too.
    subscript(attribute: String) -> String? {
        if let value = attributes[attribute] { return value }
        for (key, value) in attributes where key.hasSuffix(":" + attribute) { return value }
        return nil
    }

    var id: String? { attributes["xml:id"] ?? attributes["id"] }

    func first(_ name: String) -> XMLElement? { children.first { $0.name == name } }
    func all(_ name: String) -> [XMLElement] { children.filter { $0.name == name } }
}

/// Limits on XML input, beyond the byte limits of the containers.
public enum XMLLimits {
    public static let depth = 256
    /// Elements kept in memory (elements the reader does not ask for are counted by `elementsSeen`).
    public static let elementsKept = 4_000_000
    public static let elementsSeen = 40_000_000
    public static let attributesPerElement = 256
    /// Namespace errors and warnings the parser may report before the document is refused (Foundation
    /// keeps about 80 bytes for each: 8 MB at most).
    public static let reportedProblems = 100_000
}

/// Parses XML with Foundation's `XMLParser` (libxml2), refusing what a recording never needs and an
/// attacker would: document type declarations (and so entities, external or internal — no billion laughs,
/// no network), encodings that would hide markup from that check, nesting past ``XMLLimits/depth``, and
/// more elements than ``XMLLimits`` allow.
enum SafeXML {
    /// Parses `data`. `keep` names the elements (by local name) to keep, in kept parents; `text` those of
    /// them that keep their character data. The root is always kept.
    static func parse(_ data: Data, file: String, keep: Set<String>, text: Set<String>) throws(ImportError) -> XMLElement {
        let utf8 = try utf8Document(data, file: file)
        try refuseDTD(utf8, file: file)
        let builder = TreeBuilder(file: file, keep: keep, text: text)
        // Streamed: libxml2 refuses a single pushed chunk over 10 MB ("huge input lookup"), and a big
        // Xournal++ file with LaTeX or images is larger than that.
        let parser = XMLParser(stream: InputStream(data: utf8))
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        parser.shouldReportNamespacePrefixes = false
        parser.delegate = builder
        let ok = parser.parse()
        if let failure = builder.failure { throw failure }
        if ok, let open = builder.stack.last {
            // The streamed parser does not complain when the input stops inside an element.
            let name = open?.name ?? "an element"
            throw ImportError(file: file, position: "line \(parser.lineNumber), column \(parser.columnNumber)",
                              reason: "the XML ends before <\(name)> is closed (truncated?)")
        }
        guard ok, let root = builder.root else {
            let code = builder.firstError?.code ?? (parser.parserError as NSError?)?.code ?? -1
            let what = wellFormednessErrors[code].map { ": \($0)" } ?? ""
            throw ImportError(file: file, position: builder.firstError?.position ?? "line \(parser.lineNumber), column \(parser.columnNumber)",
                              reason: "not well-formed XML\(what) (libxml2 error \(code))")
        }
        return root
    }

    /// What libxml2's commoner well-formedness errors mean, by code (`xmlParserErrors`), for messages.
    static let wellFormednessErrors: [Int: String] = [
        4: "the document is empty", 5: "something follows the root element", 9: "a character XML does not allow",
        23: "an entity reference without its ';'", 26: "an entity that is not declared",
        38: "'<' inside an attribute value", 39: "an attribute value without quotes",
        40: "an attribute value that is not closed", 41: "an attribute without a value",
        42: "an attribute given twice", 45: "a comment that is not closed", 62: "']]>' in text",
        63: "a CDATA section that is not closed", 65: "a space is missing", 68: "a name is missing",
        73: "'>' is missing", 76: "an end tag that does not match its start tag", 77: "a tag that is not finished",
        80: "'--' inside a comment", 85: "elements that are not balanced", 86: "something follows the root element",
    ]

    /// The document as UTF-8: UTF-8 and ASCII-compatible 8-bit encodings pass unchanged (with a BOM
    /// dropped); UTF-16 is transcoded. Anything else is refused, since markup in it could hide from the
    /// DTD check below.
    static func utf8Document(_ data: Data, file: String) throws(ImportError) -> Data {
        let bytes = data.prefix(4)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return try checkedDeclaration(Data(data.dropFirst(3)), file: file) }
        if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00])
            || bytes.starts(with: [0x00, 0x00, 0x00, 0x3C]) || bytes.starts(with: [0x3C, 0x00, 0x00, 0x00]) {
            throw ImportError(file: file, position: "byte 0", reason: "UTF-32 XML is not supported")
        }
        let bigEndian = bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0x00, 0x3C])
        let littleEndian = bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0x3C, 0x00])
        if bigEndian || littleEndian {
            guard data.count % 2 == 0,
                  let text = String(data: data, encoding: bigEndian ? .utf16BigEndian : .utf16LittleEndian) else {
                throw ImportError(file: file, position: "byte 0", reason: "damaged UTF-16 XML")
            }
            var body = Substring(text)
            if body.first == "\u{FEFF}" { body = body.dropFirst() }
            // Drop the XML declaration, which names UTF-16, now that the bytes are UTF-8.
            if body.hasPrefix("<?xml"), let end = body.range(of: "?>") { body = body[end.upperBound...] }
            return Data(body.utf8)
        }
        return try checkedDeclaration(data, file: file)
    }

    /// Checks the XML declaration's encoding: UTF-8 (or ASCII) must be valid UTF-8 — Foundation's parser traps
    /// on names that are not — and Latin-1 / Windows-1252 is transcoded to UTF-8. Others are refused.
    private static func checkedDeclaration(_ data: Data, file: String) throws(ImportError) -> Data {
        var name = "utf-8"
        var declarationEnd = data.startIndex
        if data.starts(with: Array("<?xml".utf8)) {
            let head = data.prefix(256)
            if let end = head.firstRange(of: Array("?>".utf8)) {
                declarationEnd = end.upperBound
                let declaration = String(decoding: head[head.startIndex..<end.lowerBound], as: UTF8.self).lowercased()
                if let range = declaration.range(of: "encoding") {
                    let rest = declaration[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\"" || $0 == "'" || $0 == "\t" }
                    name = String(rest.prefix { $0 != "\"" && $0 != "'" && $0 != " " && $0 != "?" })
                }
            }
        }
        switch name {
        case "utf-8", "utf8", "us-ascii", "ascii":
            if let offset = firstInvalidUTF8(data) {
                let line = data.prefix(offset).reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
                throw ImportError(file: file, position: "line \(line), byte \(offset)", reason: "the XML is not valid UTF-8")
            }
            return data
        case "iso-8859-1", "latin1", "iso-latin-1", "iso-8859-15", "windows-1252", "cp1252":
            let body = data[declarationEnd...]
            guard let text = String(data: body, encoding: name.hasSuffix("1252") ? .windowsCP1252 : .isoLatin1) else {
                throw ImportError(file: file, position: "line 1", reason: "the XML is not valid \(name)")
            }
            return Data(text.utf8)
        default:
            throw ImportError(file: file, position: "line 1", reason: "XML in encoding \"\(name)\" is not supported (UTF-8, UTF-16 or Latin-1)")
        }
    }

    /// The offset of the first byte that breaks UTF-8 (overlongs, surrogates and values past U+10FFFF
    /// included), or nil when it is all valid. NUL is refused too: XML cannot hold it.
    static func firstInvalidUTF8(_ data: Data) -> Int? {
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Int? in
            let p = raw.bindMemory(to: UInt8.self)
            let n = p.count
            var i = 0
            while i < n {
                let c = p[i]
                if c < 0x80 {
                    if c == 0 { return i }
                    i += 1
                    continue
                }
                var need = 0
                var minimum: UInt32 = 0
                var value: UInt32 = 0
                switch c {
                case 0xC2...0xDF: need = 1; minimum = 0x80; value = UInt32(c & 0x1F)
                case 0xE0...0xEF: need = 2; minimum = 0x800; value = UInt32(c & 0x0F)
                case 0xF0...0xF4: need = 3; minimum = 0x10000; value = UInt32(c & 0x07)
                default: return i
                }
                guard i + need < n else { return i }
                for k in 1...need {
                    let b = p[i + k]
                    guard b & 0xC0 == 0x80 else { return i }
                    value = value << 6 | UInt32(b & 0x3F)
                }
                if value < minimum || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF) { return i }
                i += need + 1
            }
            return nil
        }
    }

    /// Refuses any `<!DOCTYPE` or `<!ENTITY` (in any letter case): recordings never need them. Refuses a
    /// processing instruction without data too (`<?name?>`): Foundation's parser crashes on it (it passes
    /// libxml2's NULL data to strlen).
    static func refuseDTD(_ data: Data, file: String) throws(ImportError) {
        var emptyInstruction = false
        let found: Int? = data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Int? in
            let count = raw.count
            guard count >= 4, let base = raw.bindMemory(to: UInt8.self).baseAddress else { return nil }
            var index = 0
            while index + 2 < count {
                guard let hit = memchr(base + index, 0x3C, count - index) else { return nil }
                let at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                if at + 1 < count, base[at + 1] == 0x3F { // <?
                    var end = at + 2
                    while end < count, !(base[end] == 0x20 || base[end] == 0x09 || base[end] == 0x0A || base[end] == 0x0D
                                         || base[end] == 0x3F || base[end] == 0x3C) { end += 1 }
                    if end + 1 < count, base[end] == 0x3F, base[end + 1] == 0x3E {
                        emptyInstruction = true
                        return at
                    }
                }
                if at + 2 < count, base[at + 1] == 0x21 {
                    let c = base[at + 2] | 0x20
                    if c == 0x64 || c == 0x65 { // d(octype) or e(ntity)
                        let word = c == 0x64 ? Array("doctype".utf8) : Array("entity".utf8)
                        if at + 2 + word.count <= count,
                           (0..<word.count).allSatisfy({ base[at + 2 + $0] | 0x20 == word[$0] }) { return at }
                    }
                }
                index = at + 1
            }
            return nil
        }
        if let found {
            let line = data.prefix(found).reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
            throw ImportError(file: file, position: "line \(line)",
                              reason: emptyInstruction ? "XML processing instruction without data is refused"
                                  : "XML with a document type declaration (DTD or entities) is refused")
        }
    }
}

/// Builds the element tree from parser events, enforcing the limits.
final class TreeBuilder: NSObject, XMLParserDelegate {
    let file: String
    let keep: Set<String>
    let wantsText: Set<String>
    var root: XMLElement?
    /// The open elements; nil for those not kept.
    var stack: [XMLElement?] = []
    var kept = 0
    var seen = 0
    var reportedProblems = 0
    var failure: ImportError?
    /// The first error that breaks well-formedness, and where libxml2 reported it, for the message.
    var firstError: (code: Int, position: String)?
    /// Set by an error report; the next event stops the parse (see `parser(_:parseErrorOccurred:)`).
    private var stopRequested = false

    init(file: String, keep: Set<String>, text: Set<String>) {
        self.file = file
        self.keep = keep
        self.wantsText = text
    }

    private func fail(_ parser: XMLParser, _ reason: String) {
        guard failure == nil else { return }
        failure = ImportError(file: file, position: "line \(parser.lineNumber), column \(parser.columnNumber)", reason: reason)
        parser.abortParsing()
    }

    /// Whether the parse is over: a failure, or an error report that asked to stop, which stops it here,
    /// at an event, where libxml2 expects to be stopped.
    private func ended(_ parser: XMLParser) -> Bool {
        if stopRequested {
            stopRequested = false
            parser.abortParsing()
            return true
        }
        return failure != nil
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        guard !ended(parser) else { return }
        seen += 1
        guard stack.count < XMLLimits.depth else { return fail(parser, "XML nested more than \(XMLLimits.depth) deep") }
        guard seen <= XMLLimits.elementsSeen else { return fail(parser, "more than \(XMLLimits.elementsSeen) XML elements") }
        guard attributeDict.count <= XMLLimits.attributesPerElement else {
            return fail(parser, "an element with more than \(XMLLimits.attributesPerElement) attributes")
        }
        let local = elementName.split(separator: ":").last.map(String.init) ?? elementName
        var parentKept = true
        if let top = stack.last { parentKept = top != nil }
        guard parentKept && (stack.isEmpty || keep.contains(local)) else {
            stack.append(nil)
            return
        }
        kept += 1
        guard kept <= XMLLimits.elementsKept else { return fail(parser, "more than \(XMLLimits.elementsKept) XML elements") }
        let element = XMLElement(name: local, attributes: attributeDict, line: parser.lineNumber, column: parser.columnNumber)
        if let parent = stack.last { parent?.children.append(element) } else { root = element }
        stack.append(element)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        guard !ended(parser), !stack.isEmpty else { return }
        stack.removeLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard !ended(parser), let open = stack.last, let element = open, wantsText.contains(element.name) else { return }
        element.text += string
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard !ended(parser), let open = stack.last, let element = open, wantsText.contains(element.name) else { return }
        element.text += String(decoding: CDATABlock, as: UTF8.self)
    }

    // A DTD that slipped past the byte check (it cannot: this is a second lock) stops the parse.
    func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?) {
        fail(parser, "XML entity declarations are refused")
    }

    func parser(_ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?, systemID: String?) {
        fail(parser, "XML entity declarations are refused")
    }

    func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? {
        fail(parser, "external XML entities are refused")
        return nil
    }

    /// The first error that makes the document not well-formed ends the parse: the document is refused
    /// with it anyway. Left running, libxml2 (which Foundation runs in recover mode) reports error after
    /// error to the end of a damaged file, and Foundation's parser leaks a string for each report (about
    /// 2 KB a damaged input in fuzzing, by heaptrack). The parse stops at the next event rather than in
    /// the report: stopping frees libxml2's input, which the function reporting the error may still use.
    /// Warnings and namespace errors, which leave a document readable, are let through up to
    /// ``XMLLimits/reportedProblems``; a code missing from ``toleratedProblems`` would refuse a readable
    /// document, one too many only costs memory, so the list errs towards letting through. The
    /// "document end" error (the input stops inside an element, or goes on after the root) ends the parse
    /// by itself, and ``SafeXML/parse(_:file:keep:text:)`` names a truncated file from the elements left open.
    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        let code = (parseError as NSError).code
        if code == Self.documentEnd { return }
        if Self.toleratedProblems.contains(code) {
            reportedProblems += 1
            guard reportedProblems > XMLLimits.reportedProblems, failure == nil else { return }
            failure = ImportError(file: file, position: "line \(parser.lineNumber), column \(parser.columnNumber)",
                                  reason: "more than \(XMLLimits.reportedProblems) XML namespace errors or warnings")
        } else if firstError == nil {
            firstError = (code, "line \(parser.lineNumber), column \(parser.columnNumber)")
        }
        stopRequested = true
    }

    /// libxml2's codes (2.9) for problems that leave a document well-formed: its warnings (`XML_WAR_*`),
    /// namespace errors (`XML_NS_ERR_*`, 200–205), and two `XML_ERR_*` codes it sends as warnings: 64, a
    /// processing instruction named `xml…` (`<?xml-foo?>`), and 104, entity processing.
    static let toleratedProblems: Set<Int> = [27, 64, 93, 97, 98, 99, 100, 102, 104, 106, 107, 200, 201, 202, 203, 204, 205]
    /// `XML_ERR_DOCUMENT_END`: the input ended early, or something follows the root element.
    static let documentEnd = 5
}
