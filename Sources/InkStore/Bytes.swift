import CZlib

/// CRC-32 (ISO-HDLC, as in PNG and zip) through zlib.
func crc32(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return crc }
    return UInt32(CZlib.crc32(UInt(crc), base.assumingMemoryBound(to: Bytef.self), uInt(bytes.count)))
}

/// Appends the primitive encodings of the page format to a byte array.
struct ByteWriter {
    var bytes: [UInt8] = []

    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    mutating func u8(_ value: UInt8) { bytes.append(value) }

    mutating func u32(_ value: UInt32) {
        bytes.append(UInt8(value >> 24))
        bytes.append(UInt8(value >> 16 & 0xFF))
        bytes.append(UInt8(value >> 8 & 0xFF))
        bytes.append(UInt8(value & 0xFF))
    }

    mutating func f32(_ value: Float) { u32(value.bitPattern) }

    /// LEB128: seven bits a byte, low bits first, high bit set on all but the last byte.
    mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    /// Zigzag maps small negative and positive numbers to small unsigned ones (0, -1, 1, -2 → 0, 1, 2, 3).
    mutating func zigzag(_ value: Int64) {
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }
}

/// Reads the primitive encodings of the page format, bounds-checked: malformed bytes throw, never trap.
struct ByteReader {
    let base: UnsafeRawPointer
    private(set) var offset: Int
    let end: Int

    /// Reads `bytes` from `start` up to `end` (exclusive).
    init(_ bytes: UnsafeRawBufferPointer, start: Int = 0, end: Int? = nil) {
        base = bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
        offset = start
        self.end = end ?? bytes.count
    }

    var remaining: Int { end - offset }
    var isAtEnd: Bool { offset >= end }

    mutating func u8() throws(DecodeFailure) -> UInt8 {
        guard offset < end else { throw .truncated }
        defer { offset += 1 }
        return base.load(fromByteOffset: offset, as: UInt8.self)
    }

    mutating func u32() throws(DecodeFailure) -> UInt32 {
        guard remaining >= 4 else { throw .truncated }
        var value: UInt32 = 0
        for i in 0..<4 { value = value << 8 | UInt32(base.load(fromByteOffset: offset + i, as: UInt8.self)) }
        offset += 4
        return value
    }

    mutating func f32() throws(DecodeFailure) -> Float { Float(bitPattern: try u32()) }

    mutating func bytes(_ count: Int) throws(DecodeFailure) -> UnsafeRawBufferPointer {
        guard count >= 0, remaining >= count else { throw .truncated }
        defer { offset += count }
        return UnsafeRawBufferPointer(start: base + offset, count: count)
    }

    @inline(__always)
    mutating func varint() throws(DecodeFailure) -> UInt64 {
        guard offset < end else { throw .truncated }
        let first = base.load(fromByteOffset: offset, as: UInt8.self)
        if first < 0x80 {
            offset += 1
            return UInt64(first)
        }
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < end else { throw .truncated }
            let byte = base.load(fromByteOffset: offset, as: UInt8.self)
            offset += 1
            if shift == 63 && byte > 1 { throw .malformed("varint longer than 64 bits") }
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
            if shift > 63 { throw .malformed("varint longer than 64 bits") }
        }
    }

    /// Moves to `offset`, after the caller read up to there itself (never past `end`).
    @inline(__always)
    mutating func skip(to newOffset: Int) {
        offset = min(newOffset, end)
    }

    @inline(__always)
    mutating func zigzag() throws(DecodeFailure) -> Int64 {
        let raw = try varint()
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }
}

/// Why bytes could not be decoded.
enum DecodeFailure: Error, Equatable {
    case truncated
    case malformed(String)

    var reason: String {
        switch self {
        case .truncated: "ends early"
        case .malformed(let why): why
        }
    }
}
