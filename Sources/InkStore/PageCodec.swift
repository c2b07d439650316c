import InkCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One record of a page file: what a chunk means once decoded.
public enum PageRecord: Sendable, Equatable {
    /// The page's size and paper. The last header in a file wins.
    case header(id: PageID, size: PageSize, template: PageTemplate)
    /// A stroke; a later stroke with the same id replaces it.
    case stroke(Stroke)
    /// Strokes removed (erased or undone) since they were written.
    case removal([StrokeID])
}

/// Something found wrong (or merely unknown) while reading a page file.
public struct PageProblem: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The file does not start with the page signature, or has a version this build cannot read.
        case badSignature
        /// A chunk's CRC does not match its bytes: it was skipped.
        case crcMismatch
        /// The file ends inside a chunk (a torn write): the partial chunk was skipped.
        case truncatedChunk
        /// A chunk with a good CRC whose payload could not be decoded: it was skipped.
        case badPayload
        /// Bytes that are no chunk at all were stepped over to reach the next intact chunk.
        case garbage
        /// A chunk type this version does not know: skipped by length, not damage.
        case unknownChunk
    }

    public let kind: Kind
    /// Byte offset of the chunk (or bytes) in the file.
    public let offset: Int
    public let detail: String

    /// Unknown chunks are expected from newer writers; everything else means lost bytes.
    public var isDamage: Bool { kind != .unknownChunk }

    public var description: String { "offset \(offset): \(detail)" }
}

/// The result of reading a page file: every intact record, and what was wrong.
public struct DecodedPage: Sendable, Equatable {
    public var page: Page
    public var problems: [PageProblem]
    /// Chunks read intact.
    public var chunkCount: Int
    /// Strokes written but since removed or replaced: what compaction would reclaim.
    public var deadStrokeCount: Int
    /// The strokes this file's removal records took off the page (erased or undone) and nothing
    /// added back, as they were when removed: what merging two copies of the page needs to apply
    /// each side's erasures to the other's strokes.
    public var removedStrokes: [StrokeID: Stroke] = [:]
    public var isDamaged: Bool { problems.contains(where: \.isDamage) }
}

/// The Inkwell page file format, version 1 (documented in docs/page-format.md).
///
/// A file is an 8-byte signature and a 2-byte version, then chunks of
/// `u32 length, 4-byte type, payload, u32 CRC-32 of type and payload` (big-endian, as in PNG).
public enum PageCodec {
    public static let signature: [UInt8] = [0x89, 0x49, 0x4E, 0x4B, 0x0D, 0x0A, 0x1A, 0x0A]
    public static let version: UInt16 = 1
    /// Signature and version: the bytes every page file starts with.
    public static var fileStart: [UInt8] { signature + [UInt8(version >> 8), UInt8(version & 0xFF)] }

    static let headerType = FourCC("PHDR")
    static let strokeType = FourCC("STRK")
    static let removalType = FourCC("DELS")
    static let printedType = FourCC("PTXT")
    static let layersType = FourCC("LAYR")
    static let backgroundType = FourCC("PBKG")
    static let unitsType = FourCC("UNIT")
    static let fillType = FourCC("FILL")
    static let dashType = FourCC("DASH")
    /// Most printed lines and bytes of text one `PTXT` chunk may hold.
    static let maxPrintedLines = PrintedLine.maxPerPage
    static let maxPrintedBytes = PrintedLine.maxBytes

    /// Coordinates are stored in hundredths of a pixel.
    static let positionScale: Float = 100
    /// Pressure is stored in 1/1024 steps.
    static let pressureScale: Float = 1024
    /// Tilt angles are stored in thousandths of a radian.
    static let angleScale: Float = 1000
    /// Stored coordinates must lie within ±this many pixels.
    public static let coordinateLimit: Float = 1_000_000
    /// Point times (ms) and tilt angles (0.001 rad) must lie within ± these grid values.
    static let timeLimit: Int64 = 1 << 40
    static let angleLimit: Int64 = 1 << 20
    /// A stroke's start (ms since the page's creation) must lie strictly within ± this.
    static let maxStartTime: Double = 1e15

    // MARK: Encoding

    /// Consecutive strokes share a chunk until it holds this many payload bytes.
    static let strokeChunkBytes = 32 * 1024

    /// The chunks for `records`, ready to append to a page file. Consecutive strokes share chunks
    /// (up to ``strokeChunkBytes`` each), so a save of many strokes pays the chunk framing once.
    public static func encode(_ records: [PageRecord]) throws(PageEncodingError) -> [UInt8] {
        var out = ByteWriter(capacity: 64)
        var batch: [Stroke] = []
        var batchBytes = 0
        func flush() throws(PageEncodingError) {
            guard !batch.isEmpty else { return }
            try appendChunk(type: strokeType, payload: encodeStrokes(batch), to: &out)
            let layered = batch.filter { $0.layer != 0 }
            if !layered.isEmpty {
                try appendChunk(type: layersType, payload: encodeLayers(nil, strokes: layered), to: &out)
            }
            let filled = batch.filter { $0.fill != nil }
            if !filled.isEmpty {
                try appendChunk(type: fillType, payload: encodeFills(filled), to: &out)
            }
            let dashed = batch.filter { $0.dash != nil }
            if !dashed.isEmpty {
                try appendChunk(type: dashType, payload: encodeDashes(dashed), to: &out)
            }
            batch.removeAll(keepingCapacity: true)
            batchBytes = 0
        }
        for record in records {
            switch record {
            case .stroke(let stroke):
                batch.append(stroke)
                batchBytes += 16 + stroke.points.count * 6
                if batchBytes >= strokeChunkBytes { try flush() }
            case let .header(id, size, template):
                try flush()
                var payload = ByteWriter()
                try encodeHeader(id: id, size: size, template: template, into: &payload)
                try appendChunk(type: headerType, payload: payload.bytes, to: &out)
                if !template.printed.isEmpty {
                    try appendChunk(type: printedType, payload: encodePrinted(template.printed), to: &out)
                }
                if !template.layers.isEmpty {
                    try appendChunk(type: layersType, payload: encodeLayers(template.layers, strokes: []), to: &out)
                }
                if let background = template.background {
                    try appendChunk(type: backgroundType, payload: encodeBackground(background), to: &out)
                }
                if let units = template.unitsPerInch {
                    guard units.isFinite, units >= PageTemplate.unitsPerInchRange.lowerBound, units <= PageTemplate.unitsPerInchRange.upperBound else {
                        throw PageEncodingError(reason: "\(units) page pixels per inch is not a resolution")
                    }
                    var payload = ByteWriter()
                    payload.f32(units)
                    try appendChunk(type: unitsType, payload: payload.bytes, to: &out)
                }
            case .removal(let ids):
                try flush()
                var payload = ByteWriter()
                payload.varint(UInt64(ids.count))
                for id in ids { payload.varint(id.rawValue) }
                try appendChunk(type: removalType, payload: payload.bytes, to: &out)
            }
        }
        try flush()
        return out.bytes
    }

    /// A complete, compacted file for `page`: signature, header, the strokes.
    public static func encodeFile(_ page: Page) throws(PageEncodingError) -> [UInt8] {
        let records = [PageRecord.header(id: page.id, size: page.size, template: page.template)]
            + page.strokes.map(PageRecord.stroke)
        return fileStart + (try encode(records))
    }

    /// A `LAYR` chunk: `u8 flags` (1: a layer table follows), the table (`varint count`, then per layer
    /// `u8 flags` (1: hidden), `varint length`, UTF-8 name), then `varint count` of (`varint stroke id`,
    /// `varint layer`) for strokes above layer 0. After the header it carries the table; after a `STRK`
    /// chunk, its strokes' layers. Readers that skip it see every stroke on one shown layer.
    static func encodeLayers(_ table: [PageLayer]?, strokes: [Stroke]) throws(PageEncodingError) -> [UInt8] {
        var out = ByteWriter()
        out.u8(table == nil ? 0 : 1)
        if let table {
            guard table.count <= PageLayer.maxPerPage else { throw PageEncodingError(reason: "\(table.count) layers; at most \(PageLayer.maxPerPage)") }
            out.varint(UInt64(table.count))
            for layer in table {
                let name = Array(capped(layer.name, to: PageLayer.maxNameBytes).utf8)
                out.u8(layer.isVisible ? 0 : 1)
                out.varint(UInt64(name.count))
                out.bytes += name
            }
        }
        out.varint(UInt64(strokes.count))
        for stroke in strokes {
            guard Int(stroke.layer) < PageLayer.maxPerPage else { throw PageEncodingError(reason: "stroke on layer \(stroke.layer)") }
            out.varint(stroke.id.rawValue)
            out.varint(UInt64(stroke.layer))
        }
        return out.bytes
    }

    private static func appendChunk(type: FourCC, payload: [UInt8], to out: inout ByteWriter) throws(PageEncodingError) {
        guard payload.count <= Int(UInt32.max) else { throw PageEncodingError(reason: "chunk larger than 4 GiB") }
        out.u32(UInt32(payload.count))
        let typeStart = out.bytes.count
        out.bytes += type.bytes
        out.bytes += payload
        let crc = out.bytes.withUnsafeBytes { crc32(UnsafeRawBufferPointer(rebasing: $0[typeStart...])) }
        out.u32(crc)
    }

    private static func encodeHeader(id: PageID, size: PageSize, template: PageTemplate,
                                     into out: inout ByteWriter) throws(PageEncodingError) {
        for (name, value) in [("width", size.width), ("height", size.height), ("spacing", template.spacing)]
        where !(value.isFinite && value > 0 && value <= coordinateLimit) {
            throw PageEncodingError(reason: "page \(name) \(value) is not a positive size")
        }
        let idBytes = Array(id.rawValue.utf8)
        out.varint(UInt64(idBytes.count))
        out.bytes += idBytes
        out.f32(size.width)
        out.f32(size.height)
        out.u8(template.kind.rawValue)
        out.f32(template.spacing)
        out.bytes += [template.paper.red, template.paper.green, template.paper.blue, template.paper.alpha]
    }

    /// A `PTXT` payload (the text printed on the paper, written after the header when a page is made): a
    /// count, then per line x, baseline and em size (f32), flags (1: bold), RGBA, and its UTF-8 text
    /// (varint length, bytes). Readers that do not know the chunk skip it and draw the ink alone.
    private static func encodePrinted(_ lines: [PrintedLine]) throws(PageEncodingError) -> [UInt8] {
        guard lines.count <= maxPrintedLines else { throw PageEncodingError(reason: "more than \(maxPrintedLines) printed lines") }
        var out = ByteWriter(capacity: lines.reduce(8) { $0 + 24 + $1.text.utf8.count })
        out.varint(UInt64(lines.count))
        for line in lines {
            for value in [line.x, line.baseline] where !(value.isFinite && abs(value) <= coordinateLimit) {
                throw PageEncodingError(reason: "printed text at \(value) is off any page")
            }
            guard line.size.isFinite, line.size > 0, line.size <= coordinateLimit else {
                throw PageEncodingError(reason: "printed text size \(line.size) is not a positive size")
            }
            out.f32(line.x)
            out.f32(line.baseline)
            out.f32(line.size)
            out.u8(line.bold ? 1 : 0)
            out.bytes += [line.color.red, line.color.green, line.color.blue, line.color.alpha]
            let text = Array(capped(line.text).utf8)
            out.varint(UInt64(text.count))
            out.bytes += text
        }
        return out.bytes
    }

    /// Flags of a stroke in a `STRK` chunk.
    static let hasTiltFlag: UInt8 = 1
    static let hasStyleFlag: UInt8 = 2

    /// A `STRK` payload: a count, then per stroke its flags, id (delta), style (when it differs from the
    /// previous stroke's), start time (delta, ms), point count and points as second-order deltas.
    private static func encodeStrokes(_ strokes: [Stroke]) throws(PageEncodingError) -> [UInt8] {
        var out = ByteWriter(capacity: strokes.reduce(8) { $0 + 16 + $1.points.count * 6 })
        out.varint(UInt64(strokes.count))
        var previous: Stroke?
        for stroke in strokes {
            guard stroke.width.isFinite, stroke.width > 0, stroke.width <= 10_000 else {
                throw PageEncodingError(reason: "stroke \(stroke.id) has width \(stroke.width)")
            }
            guard stroke.startTime.isFinite, abs(stroke.startTime.rounded()) < maxStartTime else {
                throw PageEncodingError(reason: "stroke \(stroke.id) has start time \(stroke.startTime)")
            }
            let hasTilt = stroke.points.contains { $0.tilt != nil }
            let newStyle = previous.map { $0.tool != stroke.tool || $0.color != stroke.color || $0.width != stroke.width } ?? true
            out.u8((hasTilt ? hasTiltFlag : 0) | (newStyle ? hasStyleFlag : 0))
            out.zigzag(Int64(bitPattern: stroke.id.rawValue &- (previous?.id.rawValue ?? 0)))
            if newStyle {
                out.u8(stroke.tool.rawValue)
                out.bytes += [stroke.color.red, stroke.color.green, stroke.color.blue, stroke.color.alpha]
                out.f32(stroke.width)
            }
            out.zigzag(Int64(stroke.startTime.rounded()) &- Int64((previous?.startTime ?? 0).rounded()))
            out.varint(UInt64(stroke.points.count))
            var last = QuantizedPoint.zero, step = QuantizedPoint.zero
            for point in stroke.points {
                let q = try QuantizedPoint(point, strokeID: stroke.id)
                let delta = q - last
                let curve = delta - step
                out.zigzag(curve.x)
                out.zigzag(curve.y)
                out.zigzag(curve.pressure)
                out.zigzag(curve.time)
                if hasTilt {
                    out.zigzag(curve.altitude)
                    out.zigzag(curve.azimuth)
                }
                last = q
                step = delta
            }
            previous = stroke
        }
        return out.bytes
    }

    // MARK: Decoding

    /// Reads every intact record of a page file. Never traps: damage is reported in `problems`.
    public static func decode(_ bytes: UnsafeRawBufferPointer, fallbackID: PageID) -> DecodedPage {
        var problems: [PageProblem] = []
        var assembler = PageAssembler(id: fallbackID)
        let start = fileStart
        guard bytes.count >= start.count, zip(bytes.prefix(start.count), start).allSatisfy({ $0 == $1 }) else {
            problems.append(PageProblem(kind: .badSignature, offset: 0, detail: "not an Inkwell page file (bad signature or version)"))
            return DecodedPage(page: assembler.page, problems: problems, chunkCount: 0, deadStrokeCount: 0)
        }
        var chunkCount = 0
        var offset = start.count
        while offset < bytes.count {
            switch readChunk(bytes, at: offset) {
            case .chunk(let type, let payload, let next):
                chunkCount += 1
                decodeRecord(type: type, payload: payload, bytes: bytes, offset: offset,
                             into: &assembler, problems: &problems)
                offset = next
            case .failure(let kind, let detail):
                problems.append(PageProblem(kind: kind, offset: offset, detail: detail))
                guard let next = nextIntactChunk(bytes, after: offset) else { offset = bytes.count; break }
                if next > offset + 1, kind != .truncatedChunk {
                    problems.append(PageProblem(kind: .garbage, offset: offset,
                                                detail: "skipped \(next - offset) bytes to the next intact chunk"))
                }
                offset = next
            }
        }
        return DecodedPage(page: assembler.page, problems: problems, chunkCount: chunkCount,
                           deadStrokeCount: assembler.deadStrokes, removedStrokes: assembler.removed)
    }

    /// Decodes a whole page file, throwing when it is damaged (for callers that must not lose ink silently).
    public static func decodeStrict(_ bytes: [UInt8], fallbackID: PageID) throws(PageDecodingError) -> Page {
        let decoded = bytes.withUnsafeBytes { decode($0, fallbackID: fallbackID) }
        if let first = decoded.problems.first(where: \.isDamage) { throw PageDecodingError(problem: first) }
        return decoded.page
    }

    /// Where the whole chunks of an open page file of `size` bytes end: the offset a torn append (a
    /// chunk cut off by a crash or a full disk, or one whose bytes never reached the disk) begins
    /// at, or `size` when its tail is whole. Chunk headers are followed to the last chunk, and only
    /// from there on are bytes read and checked, so the cost does not grow with the page. Damage
    /// that intact chunks follow is no torn append: it is left for `check` and salvage.
    static func wholeLength(of fd: Int32, size: Int) -> Int {
        guard size > fileStart.count else { return size }
        var header = [UInt8](repeating: 0, count: 8)
        var offset = fileStart.count
        var last = offset
        while size - offset >= 12, pread(fd, &header, 8, off_t(offset)) == 8 {
            let length = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
            guard length <= size - offset - 12,
                  header.withUnsafeBytes({ FourCC.isPlausible($0, at: 4) }) else { break }
            last = offset
            offset += 12 + length
        }
        var tail = [UInt8](repeating: 0, count: size - last)
        guard pread(fd, &tail, tail.count, off_t(last)) == tail.count else { return size }
        return tail.withUnsafeBytes { bytes in
            var at = 0
            while at < bytes.count {
                guard case .chunk(_, _, let next) = readChunk(bytes, at: at) else {
                    return nextIntactChunk(bytes, after: at) == nil ? last + at : size
                }
                at = next
            }
            return size
        }
    }

    private enum ChunkRead {
        case chunk(type: FourCC, payload: Range<Int>, next: Int)
        case failure(PageProblem.Kind, String)
    }

    private static func readChunk(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> ChunkRead {
        guard bytes.count - offset >= 12 else {
            return .failure(.truncatedChunk, "file ends inside a chunk header (\(bytes.count - offset) bytes left)")
        }
        var reader = ByteReader(bytes, start: offset)
        let length = Int((try? reader.u32()) ?? 0)
        let typeStart = offset + 4
        guard length <= bytes.count - offset - 12 else {
            if FourCC.isPlausible(bytes, at: typeStart) {
                return .failure(.truncatedChunk, "chunk of \(length) bytes is cut off at the end of the file")
            }
            return .failure(.crcMismatch, "chunk length \(length) runs past the end of the file")
        }
        let type = FourCC(bytes, at: typeStart)
        let payloadStart = typeStart + 4
        let payloadEnd = payloadStart + length
        let storedCRC = UInt32(bytes[payloadEnd]) << 24 | UInt32(bytes[payloadEnd + 1]) << 16
            | UInt32(bytes[payloadEnd + 2]) << 8 | UInt32(bytes[payloadEnd + 3])
        let actualCRC = crc32(UnsafeRawBufferPointer(rebasing: bytes[typeStart..<payloadEnd]))
        guard storedCRC == actualCRC, FourCC.isPlausible(bytes, at: typeStart) else {
            return .failure(.crcMismatch, "chunk '\(type)' fails its CRC check")
        }
        return .chunk(type: type, payload: payloadStart..<payloadEnd, next: payloadEnd + 4)
    }

    /// Resynchronises after damage: the first offset past `offset` where an intact chunk starts.
    private static func nextIntactChunk(_ bytes: UnsafeRawBufferPointer, after offset: Int) -> Int? {
        var candidate = offset + 1
        while candidate + 12 <= bytes.count {
            if FourCC.isPlausible(bytes, at: candidate + 4), case .chunk = readChunk(bytes, at: candidate) {
                return candidate
            }
            candidate += 1
        }
        return nil
    }

    private static func decodeRecord(type: FourCC, payload: Range<Int>, bytes: UnsafeRawBufferPointer, offset: Int,
                                     into assembler: inout PageAssembler, problems: inout [PageProblem]) {
        var reader = ByteReader(bytes, start: payload.lowerBound, end: payload.upperBound)
        do throws(DecodeFailure) {
            switch type {
            case headerType: try assembler.apply(decodeHeader(&reader))
            case strokeType: try decodeStrokes(&reader) { assembler.apply(.stroke($0)) }
            case printedType: assembler.print(try decodePrinted(&reader))
            case layersType: try decodeLayers(&reader, into: &assembler)
            case backgroundType: assembler.background(try decodeBackground(&reader))
            case unitsType:
                let units = try reader.f32()
                guard units.isFinite, PageTemplate.unitsPerInchRange.contains(units) else { throw .malformed("\(units) page pixels per inch") }
                assembler.units(units)
            case fillType: try decodeFills(&reader, into: &assembler)
            case dashType: try decodeDashes(&reader, into: &assembler)
            case removalType:
                let count = try reader.varint()
                guard count <= UInt64(reader.remaining) else { throw .malformed("removal count \(count) exceeds the chunk") }
                var ids: [StrokeID] = []
                ids.reserveCapacity(Int(count))
                for _ in 0..<count { ids.append(StrokeID(try reader.varint())) }
                assembler.apply(.removal(ids))
            default:
                problems.append(PageProblem(kind: .unknownChunk, offset: offset,
                                            detail: "unknown chunk type '\(type)' (\(payload.count) bytes) skipped"))
                return
            }
            guard reader.isAtEnd else { throw .malformed("\(reader.remaining) unexpected bytes at the end") }
        } catch {
            problems.append(PageProblem(kind: .badPayload, offset: offset, detail: "chunk '\(type)' \(error.reason)"))
        }
    }

    private static func decodeHeader(_ reader: inout ByteReader) throws(DecodeFailure) -> PageRecord {
        let idLength = try reader.varint()
        guard idLength <= 64 else { throw .malformed("page id of \(idLength) bytes") }
        let idBytes = try reader.bytes(Int(idLength))
        let id = PageID(rawValue: String(decoding: idBytes, as: UTF8.self))
        let width = try reader.f32(), height = try reader.f32()
        let kindRaw = try reader.u8()
        let spacing = try reader.f32()
        let paper = RGBA(red: try reader.u8(), green: try reader.u8(), blue: try reader.u8(), alpha: try reader.u8())
        for value in [width, height, spacing] where !(value.isFinite && value > 0 && value <= coordinateLimit) {
            throw .malformed("page dimension \(value) out of range")
        }
        guard PageID.isWellFormed(id.rawValue) else { throw .malformed("malformed page id") }
        let kind = TemplateKind(rawValue: kindRaw) ?? .blank
        return .header(id: id, size: PageSize(width: width, height: height),
                       template: PageTemplate(kind: kind, spacing: spacing, paper: paper))
    }

    /// `text` cut at a character boundary to at most `limit` bytes of UTF-8.
    static func capped(_ text: String, to limit: Int = maxPrintedBytes) -> String {
        guard text.utf8.count > limit else { return text }
        var out = "", bytes = 0
        for character in text {
            bytes += character.utf8.count
            guard bytes <= limit else { break }
            out.append(character)
        }
        return out
    }

    /// A `PBKG` payload (the PDF page under the ink, after the header): the document's SHA-256 as 32
    /// bytes, then `varint page` (0 is the first). Readers that skip it draw the page on plain paper.
    static func encodeBackground(_ background: PageBackground) throws(PageEncodingError) -> [UInt8] {
        guard PageBackground.isDocumentID(background.document) else {
            throw PageEncodingError(reason: "background document \"\(background.document.prefix(80))\" is not 64 hex digits")
        }
        guard background.page >= 0, background.page < PageBackground.maxPage else {
            throw PageEncodingError(reason: "background page \(background.page) out of range")
        }
        var payload = ByteWriter()
        let digits = Array(background.document.utf8)
        func value(_ c: UInt8) -> UInt8 { c <= 0x39 ? c - 0x30 : c - 0x61 + 10 }
        for i in stride(from: 0, to: 64, by: 2) { payload.u8(value(digits[i]) << 4 | value(digits[i + 1])) }
        payload.varint(UInt64(background.page))
        return payload.bytes
    }

    /// A `FILL` payload (after a `STRK` chunk holding filled strokes): `varint count`, then per stroke
    /// `varint id, u8 opacity` (1…255). Readers that skip it draw the outlines alone.
    static func encodeFills(_ strokes: [Stroke]) throws(PageEncodingError) -> [UInt8] {
        var out = ByteWriter()
        out.varint(UInt64(strokes.count))
        for stroke in strokes {
            guard let fill = stroke.fill, fill > 0 else { throw PageEncodingError(reason: "stroke \(stroke.id) has fill opacity 0") }
            out.varint(stroke.id.rawValue)
            out.u8(fill)
        }
        return out.bytes
    }

    /// A `DASH` payload (after a `STRK` chunk holding dashed strokes): `varint count`, then per stroke
    /// `varint id, u8 n, f32 length × n` (``Stroke/isValidDash(_:)``). Readers that skip it draw solid lines.
    static func encodeDashes(_ strokes: [Stroke]) throws(PageEncodingError) -> [UInt8] {
        var out = ByteWriter()
        out.varint(UInt64(strokes.count))
        for stroke in strokes {
            guard let dash = stroke.dash, Stroke.isValidDash(dash) else { throw PageEncodingError(reason: "stroke \(stroke.id) has a dash pattern Inkwell does not take") }
            out.varint(stroke.id.rawValue)
            out.u8(UInt8(dash.count))
            for length in dash { out.f32(length) }
        }
        return out.bytes
    }

    private static func decodeDashes(_ reader: inout ByteReader, into assembler: inout PageAssembler) throws(DecodeFailure) {
        let count = try reader.varint()
        guard count <= UInt64(reader.remaining / 6) else { throw .malformed("dash count \(count)") }
        var dashes: [(StrokeID, [Float])] = []
        for _ in 0..<count {
            let id = StrokeID(try reader.varint())
            let n = Int(try reader.u8())
            var dash: [Float] = []
            for _ in 0..<n { dash.append(try reader.f32()) }
            guard Stroke.isValidDash(dash) else { throw .malformed("a dash pattern of \(n) lengths that is not valid") }
            dashes.append((id, dash))
        }
        for (id, dash) in dashes { assembler.dash(id, dash) }
    }

    private static func decodeFills(_ reader: inout ByteReader, into assembler: inout PageAssembler) throws(DecodeFailure) {
        let count = try reader.varint()
        guard count <= UInt64(reader.remaining / 2) else { throw .malformed("fill count \(count)") }
        var fills: [(StrokeID, UInt8)] = []
        for _ in 0..<count {
            let id = StrokeID(try reader.varint())
            let opacity = try reader.u8()
            guard opacity > 0 else { throw .malformed("fill opacity 0") }
            fills.append((id, opacity))
        }
        // All or nothing, as every chunk.
        for (id, opacity) in fills { assembler.fill(id, opacity: opacity) }
    }

    private static func decodeBackground(_ reader: inout ByteReader) throws(DecodeFailure) -> PageBackground {
        let digest = try reader.bytes(32)
        let page = try reader.varint()
        guard page < UInt64(PageBackground.maxPage) else { throw .malformed("background page \(page)") }
        let hex = Array("0123456789abcdef".utf8)
        var digits: [UInt8] = []
        for byte in digest { digits += [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]] }
        return PageBackground(document: String(decoding: digits, as: UTF8.self), page: Int(page))
    }

    private static func decodeLayers(_ reader: inout ByteReader, into assembler: inout PageAssembler) throws(DecodeFailure) {
        let flags = try reader.u8()
        guard flags <= 1 else { throw .malformed("layer flags \(flags)") }
        var table: [PageLayer]?
        if flags == 1 {
            let count = try reader.varint()
            guard count <= UInt64(min(PageLayer.maxPerPage, reader.remaining / 2)) else { throw .malformed("layer count \(count)") }
            var layers: [PageLayer] = []
            for _ in 0..<count {
                let hidden = try reader.u8()
                guard hidden <= 1 else { throw .malformed("layer flags \(hidden)") }
                let length = try reader.varint()
                guard length <= UInt64(min(PageLayer.maxNameBytes, reader.remaining)) else { throw .malformed("layer name of \(length) bytes") }
                let name = capped(String(decoding: try reader.bytes(Int(length)), as: UTF8.self), to: PageLayer.maxNameBytes)
                layers.append(PageLayer(name: name, isVisible: hidden == 0))
            }
            table = layers
        }
        let count = try reader.varint()
        guard count <= UInt64(reader.remaining / 2) else { throw .malformed("layer assignment count \(count)") }
        var assignments: [(StrokeID, UInt16)] = []
        for _ in 0..<count {
            let id = StrokeID(try reader.varint())
            let layer = try reader.varint()
            guard layer < UInt64(PageLayer.maxPerPage) else { throw .malformed("stroke on layer \(layer)") }
            assignments.append((id, UInt16(layer)))
        }
        // All or nothing, as every chunk.
        if let table { assembler.layers(table) }
        for (id, layer) in assignments { assembler.assign(id, to: layer) }
    }

    private static func decodePrinted(_ reader: inout ByteReader) throws(DecodeFailure) -> [PrintedLine] {
        let count = try reader.varint()
        guard count <= UInt64(min(maxPrintedLines, reader.remaining / 18)) else { throw .malformed("printed line count \(count) exceeds the chunk") }
        var lines: [PrintedLine] = []
        for _ in 0..<count {
            let x = try reader.f32(), baseline = try reader.f32(), size = try reader.f32()
            let flags = try reader.u8()
            let color = RGBA(red: try reader.u8(), green: try reader.u8(), blue: try reader.u8(), alpha: try reader.u8())
            let length = try reader.varint()
            guard length <= UInt64(min(maxPrintedBytes, reader.remaining)) else { throw .malformed("printed text of \(length) bytes") }
            // Bytes that are not UTF-8 read as U+FFFD (3 bytes each): capped again, so what is read is what writes back.
            let text = capped(String(decoding: try reader.bytes(Int(length)), as: UTF8.self))
            for value in [x, baseline] where !(value.isFinite && abs(value) <= coordinateLimit) {
                throw .malformed("printed text at \(value)")
            }
            guard size.isFinite, size > 0, size <= coordinateLimit else { throw .malformed("printed text size \(size)") }
            lines.append(PrintedLine(text: text, x: x, baseline: baseline, size: size, bold: flags & 1 != 0, color: color))
        }
        return lines
    }

    private static func decodeStrokes(_ reader: inout ByteReader, _ emit: (Stroke) -> Void) throws(DecodeFailure) {
        let count = try reader.varint()
        guard count <= UInt64(reader.remaining / 4) else { throw .malformed("stroke count \(count) exceeds the chunk") }
        var decoded: [Stroke] = []
        decoded.reserveCapacity(Int(count))
        var previous: StrokeStyle?
        for _ in 0..<count {
            let stroke = try decodeStroke(&reader, after: previous)
            decoded.append(stroke)
            previous = StrokeStyle(stroke)
        }
        // A chunk is all or nothing: its strokes are applied only once every one of them decoded.
        decoded.forEach(emit)
    }

    /// What a stroke in a `STRK` chunk inherits from the one before it.
    private struct StrokeStyle {
        let id: UInt64, tool: Tool, color: RGBA, width: Float, startTime: Int64
        init(_ stroke: Stroke) {
            id = stroke.id.rawValue
            tool = stroke.tool
            color = stroke.color
            width = stroke.width
            startTime = Int64(stroke.startTime)
        }
    }

    private static func decodeStroke(_ reader: inout ByteReader, after previous: StrokeStyle?) throws(DecodeFailure) -> Stroke {
        let flags = try reader.u8()
        let hasTilt = flags & hasTiltFlag != 0
        let id = StrokeID((previous?.id ?? 0) &+ UInt64(bitPattern: try reader.zigzag()))
        var tool = previous?.tool ?? .pen, color = previous?.color ?? .black, width = previous?.width ?? 1
        if flags & hasStyleFlag != 0 {
            let toolRaw = try reader.u8()
            guard let known = Tool(rawValue: toolRaw) else { throw .malformed("unknown tool \(toolRaw)") }
            tool = known
            color = RGBA(red: try reader.u8(), green: try reader.u8(), blue: try reader.u8(), alpha: try reader.u8())
            width = try reader.f32()
            guard width.isFinite, width > 0, width <= 10_000 else { throw .malformed("stroke width \(width)") }
        } else if previous == nil {
            throw .malformed("first stroke of a chunk has no style")
        }
        let startTime = (previous?.startTime ?? 0) &+ (try reader.zigzag())
        // Not abs(): hostile bytes can make it Int64.min, whose magnitude traps.
        guard startTime > -Int64(maxStartTime), startTime < Int64(maxStartTime) else { throw .malformed("start time \(startTime)") }
        let count = try reader.varint()
        guard count <= UInt64(reader.remaining / (hasTilt ? 6 : 4)) else {
            throw .malformed("point count \(count) exceeds the chunk")
        }
        let points = try decodePoints(&reader, count: Int(count), hasTilt: hasTilt)
        return Stroke(id: id, tool: tool, color: color, width: width, startTime: Double(startTime), points: points)
    }
}

extension PageCodec {
    /// The hot loop of reading a page: second-order deltas back to points, written straight into the array.
    /// While at least 60 bytes remain (six varints of at most 10 bytes), bytes are read without bounds
    /// checks; the last points of a chunk go through the checked reader.
    @inline(__always)
    fileprivate static func decodePoints(_ reader: inout ByteReader, count: Int, hasTilt: Bool) throws(DecodeFailure) -> [InkPoint] {
        var failure: DecodeFailure?
        let limit = Int64(coordinateLimit * positionScale)
        let points = [InkPoint](unsafeUninitializedCapacity: count) { buffer, initialized in
            var r = reader
            var done = 0
            guard let base = buffer.baseAddress else { return }
            let bytes = r.base.assumingMemoryBound(to: UInt8.self)
            var x: Int64 = 0, y: Int64 = 0, p: Int64 = 0, t: Int64 = 0, alt: Int64 = 0, azi: Int64 = 0
            var dx: Int64 = 0, dy: Int64 = 0, dp: Int64 = 0, dt: Int64 = 0, dalt: Int64 = 0, dazi: Int64 = 0
            do throws(DecodeFailure) {
                for i in 0..<count {
                    if r.remaining >= 60 {
                        var offset = r.offset
                        dx &+= fastZigzag(bytes, &offset)
                        dy &+= fastZigzag(bytes, &offset)
                        dp &+= fastZigzag(bytes, &offset)
                        dt &+= fastZigzag(bytes, &offset)
                        if hasTilt {
                            dalt &+= fastZigzag(bytes, &offset)
                            dazi &+= fastZigzag(bytes, &offset)
                        }
                        r.skip(to: offset)
                    } else {
                        dx &+= try r.zigzag()
                        dy &+= try r.zigzag()
                        dp &+= try r.zigzag()
                        dt &+= try r.zigzag()
                        if hasTilt {
                            dalt &+= try r.zigzag()
                            dazi &+= try r.zigzag()
                        }
                    }
                    x &+= dx
                    y &+= dy
                    p &+= dp
                    t &+= dt
                    // Wrapped arithmetic on hostile input lands here as an out-of-range value.
                    guard within(x, limit), within(y, limit), UInt64(bitPattern: p) <= 1024, within(t, timeLimit) else {
                        throw .malformed("point out of range")
                    }
                    var tilt: Tilt?
                    if hasTilt {
                        alt &+= dalt
                        azi &+= dazi
                        guard within(alt, angleLimit), within(azi, angleLimit) else { throw .malformed("tilt out of range") }
                        tilt = Tilt(altitude: Float(alt) * angleStep, azimuth: Float(azi) * angleStep)
                    }
                    (base + i).initialize(to: InkPoint(
                        x: Float(x) * positionStep, y: Float(y) * positionStep,
                        pressure: Float(p) * pressureStep, time: Float(t), tilt: tilt))
                    done = i + 1
                }
            } catch {
                failure = error
            }
            initialized = done
            reader = r
        }
        if let failure { throw failure }
        return points
    }

    /// |value| ≤ limit, in one comparison.
    @inline(__always)
    private static func within(_ value: Int64, _ limit: Int64) -> Bool {
        UInt64(bitPattern: value &+ limit) <= UInt64(bitPattern: 2 &* limit)
    }

    /// A zigzag varint read without bounds checks (the caller guarantees 10 readable bytes). Values of
    /// one or two bytes, nearly all of them, decode without a branch (so without mispredictions);
    /// longer ones take a loop. A varint longer than 10 bytes is cut at 10; range checks catch it.
    @inline(__always)
    private static func fastZigzag(_ bytes: UnsafePointer<UInt8>, _ offset: inout Int) -> Int64 {
        let b0 = bytes[offset], b1 = bytes[offset + 1]
        let continues = b0 >> 7
        let secondByte = UInt64(0) &- UInt64(continues)
        var raw = UInt64(b0 & 0x7F) | (UInt64(b1 & 0x7F) << 7 & secondByte)
        offset += 1 + Int(continues)
        if continues & b1 >> 7 != 0 {
            var shift: UInt64 = 14
            var byte: UInt8
            repeat {
                byte = bytes[offset]
                raw |= UInt64(byte & 0x7F) << shift
                offset += 1
                shift += 7
            } while byte >= 0x80 && shift < 70
        }
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    static let positionStep: Float = 1 / positionScale
    static let pressureStep: Float = 1 / pressureScale
    static let angleStep: Float = 1 / angleScale
}

/// A point on the storage grid: the integers the format stores.
struct QuantizedPoint {
    var x: Int64, y: Int64, pressure: Int64, time: Int64, altitude: Int64, azimuth: Int64
    static let zero = QuantizedPoint(x: 0, y: 0, pressure: 0, time: 0, altitude: 0, azimuth: 0)

    init(x: Int64, y: Int64, pressure: Int64, time: Int64, altitude: Int64, azimuth: Int64) {
        self.x = x
        self.y = y
        self.pressure = pressure
        self.time = time
        self.altitude = altitude
        self.azimuth = azimuth
    }

    init(_ p: InkPoint, strokeID: StrokeID) throws(PageEncodingError) {
        let limit = PageCodec.coordinateLimit
        guard p.x.isFinite, p.y.isFinite, abs(p.x) <= limit, abs(p.y) <= limit else {
            throw PageEncodingError(reason: "stroke \(strokeID) has a point at (\(p.x), \(p.y)), beyond ±\(Int(limit)) px")
        }
        guard p.pressure.isFinite, p.pressure >= 0, p.pressure <= 1 else {
            throw PageEncodingError(reason: "stroke \(strokeID) has pressure \(p.pressure), outside 0…1")
        }
        // The format's ranges (docs/page-format.md), checked on the grid values: whatever reads, writes.
        guard p.time.isFinite, abs(p.time.rounded()) <= Float(PageCodec.timeLimit) else {
            throw PageEncodingError(reason: "stroke \(strokeID) has point time \(p.time)")
        }
        x = Int64((p.x * PageCodec.positionScale).rounded())
        y = Int64((p.y * PageCodec.positionScale).rounded())
        pressure = Int64((p.pressure * PageCodec.pressureScale).rounded())
        time = Int64(p.time.rounded())
        if let tilt = p.tilt {
            let a = (tilt.altitude * PageCodec.angleScale).rounded(), b = (tilt.azimuth * PageCodec.angleScale).rounded()
            let limit = Float(PageCodec.angleLimit)
            guard a.isFinite, b.isFinite, abs(a) <= limit, abs(b) <= limit else {
                throw PageEncodingError(reason: "stroke \(strokeID) has tilt \(tilt)")
            }
            altitude = Int64(a)
            azimuth = Int64(b)
        } else {
            altitude = 0
            azimuth = 0
        }
    }

    static func - (a: QuantizedPoint, b: QuantizedPoint) -> QuantizedPoint {
        QuantizedPoint(x: a.x &- b.x, y: a.y &- b.y, pressure: a.pressure &- b.pressure, time: a.time &- b.time,
                       altitude: a.altitude &- b.altitude, azimuth: a.azimuth &- b.azimuth)
    }

}

/// Builds a page from records in file order.
struct PageAssembler {
    private var assembled: Page
    /// Each stroke's position by id, built only once a record needs it (a replacement or a removal):
    /// strokes normally arrive with increasing ids and are simply appended.
    private var positions: [StrokeID: Int]?
    private var highestID: StrokeID?
    private(set) var deadStrokes = 0
    /// Strokes removed and not added back, as they were when removed.
    private(set) var removed: [StrokeID: Stroke] = [:]

    init(id: PageID) { assembled = Page(id: id) }

    /// The page with its strokes in drawing order, which is increasing id order (an undone erasure
    /// re-adds a stroke later in the file, but it belongs where it was drawn).
    var page: Page {
        var page = assembled
        let inOrder = zip(page.strokes, page.strokes.dropFirst()).allSatisfy { $0.id < $1.id }
        if !inOrder { page.strokes.sort { $0.id < $1.id } }
        return page
    }

    /// The text printed on the paper (a `PTXT` chunk, which follows the header).
    mutating func print(_ lines: [PrintedLine]) {
        assembled.template.printed = lines
    }

    /// A stroke's dash pattern (a `DASH` chunk after its `STRK` chunk); unknown ids are ignored.
    mutating func dash(_ id: StrokeID, _ dash: [Float]) {
        if let at = indexed()[id] { assembled.strokes[at].dash = dash }
    }

    /// A stroke's fill (a `FILL` chunk after its `STRK` chunk); unknown ids are ignored.
    mutating func fill(_ id: StrokeID, opacity: UInt8) {
        if let at = indexed()[id] { assembled.strokes[at].fill = opacity }
    }

    /// The PDF page under the ink (a `PBKG` chunk after the header).
    mutating func background(_ background: PageBackground) {
        assembled.template.background = background
    }

    /// The page pixels per inch (a `UNIT` chunk after the header).
    mutating func units(_ unitsPerInch: Float) {
        assembled.template.unitsPerInch = unitsPerInch
    }

    /// The page's layers (a `LAYR` chunk after the header).
    mutating func layers(_ table: [PageLayer]) {
        assembled.template.layers = table
    }

    /// A stroke's layer (a `LAYR` chunk after its `STRK` chunk); unknown ids are ignored.
    mutating func assign(_ id: StrokeID, to layer: UInt16) {
        if let at = indexed()[id] { assembled.strokes[at].layer = layer }
    }

    mutating func apply(_ record: PageRecord) {
        switch record {
        case let .header(id, size, template):
            assembled.id = id
            assembled.size = size
            assembled.template = template
        case .stroke(let stroke):
            if !removed.isEmpty { removed[stroke.id] = nil }
            if let highestID, stroke.id <= highestID, let at = indexed()[stroke.id] {
                assembled.strokes[at] = stroke
                deadStrokes += 1
            } else {
                positions?[stroke.id] = assembled.strokes.count
                assembled.strokes.append(stroke)
                highestID = max(highestID ?? stroke.id, stroke.id)
            }
        case .removal(let ids):
            let known = indexed()
            let doomed = Set(ids.filter { known[$0] != nil })
            guard !doomed.isEmpty else { return }
            for id in doomed { removed[id] = assembled.strokes[known[id]!] }
            assembled.strokes.removeAll { doomed.contains($0.id) }
            deadStrokes += doomed.count
            positions = nil
        }
    }

    private mutating func indexed() -> [StrokeID: Int] {
        if let positions { return positions }
        let built = Dictionary(assembled.strokes.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { $1 })
        positions = built
        return built
    }
}

/// A chunk type: four ASCII letters, kept as their big-endian 32-bit value.
struct FourCC: Equatable, CustomStringConvertible {
    let value: UInt32
    init(_ text: StaticString) {
        value = (0..<4).reduce(0) { $0 << 8 | UInt32(text.utf8Start[$1]) }
    }
    init(_ buffer: UnsafeRawBufferPointer, at offset: Int) {
        value = (0..<4).reduce(0) { $0 << 8 | UInt32(buffer[offset + $1]) }
    }

    var bytes: [UInt8] { (0..<4).map { UInt8(value >> (24 - 8 * $0) & 0xFF) } }

    var description: String {
        String(decoding: bytes.map { (0x20...0x7E).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }

    /// Chunk types are letters only; anything else is not a chunk start.
    static func isPlausible(_ buffer: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        guard offset + 4 <= buffer.count else { return false }
        return buffer[offset..<offset + 4].allSatisfy { (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
    }
}

/// A value could not be written to a page file.
public struct PageEncodingError: Error, CustomStringConvertible, Sendable {
    public let reason: String
    public var description: String { reason }
}

/// A page file is damaged and a strict read was asked for.
public struct PageDecodingError: Error, CustomStringConvertible, Sendable {
    public let problem: PageProblem
    public var description: String { problem.description }
}
