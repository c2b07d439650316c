#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fast reader for the lines replay logs are made of: flat JSON objects whose values are numbers,
/// `true`/`false` or strings without escapes. Anything else (arrays, escapes, nesting, non-ASCII,
/// malformed JSON) returns nil, and the caller parses the line with Foundation's JSON decoder, which
/// handles the whole grammar and explains errors. Numbers are checked against JSON's grammar before
/// conversion, so `NaN`, `inf` or hex never get through here.
enum ReplayLineScanner {
    static func scan(_ bytes: UnsafeRawBufferPointer) -> ReplayLine? {
        var scanner = Cursor(bytes: bytes)
        var line = ReplayLine()
        scanner.skipSpace()
        guard scanner.take(UInt8(ascii: "{")) else { return nil }
        scanner.skipSpace()
        if scanner.take(UInt8(ascii: "}")) { return scanner.atEndAfterSpace() ? line : nil }
        while true {
            guard let key = scanner.plainString() else { return nil }
            scanner.skipSpace()
            guard scanner.take(UInt8(ascii: ":")) else { return nil }
            scanner.skipSpace()
            guard let value = scanner.value() else { return nil }
            guard line.assign(key, value) else { return nil }
            scanner.skipSpace()
            if scanner.take(UInt8(ascii: ",")) {
                scanner.skipSpace()
                continue
            }
            guard scanner.take(UInt8(ascii: "}")) else { return nil }
            return scanner.atEndAfterSpace() ? line : nil
        }
    }

    enum Value {
        case number(Double)
        case string(String)
        case bool(Bool)
    }

    struct Cursor {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func take(_ byte: UInt8) -> Bool {
            guard current == byte else { return false }
            index += 1
            return true
        }

        mutating func skipSpace() {
            while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0D { index += 1 }
        }

        mutating func atEndAfterSpace() -> Bool {
            skipSpace()
            return index == bytes.count
        }

        /// A string of printable ASCII without escapes.
        mutating func plainString() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            while let byte = current, byte != UInt8(ascii: "\"") {
                guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
                index += 1
            }
            guard current != nil else { return nil }
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            index += 1
            return text
        }

        mutating func value() -> Value? {
            switch current {
            case UInt8(ascii: "\""): return plainString().map(Value.string)
            case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
            default: return number().map(Value.number)
            }
        }

        mutating func literal(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard bytes.count - index >= count else { return false }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
            index += count
            return true
        }

        /// A number in JSON's grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
        mutating func number() -> Double? {
            let start = index
            _ = take(UInt8(ascii: "-"))
            guard let first = current, isDigit(first) else { return nil }
            index += 1
            if first != UInt8(ascii: "0") { skipDigits() }
            if take(UInt8(ascii: ".")) {
                guard let digit = current, isDigit(digit) else { return nil }
                skipDigits()
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                guard let digit = current, isDigit(digit) else { return nil }
                skipDigits()
            }
            let length = index - start
            guard length < 64 else { return nil }
            return withUnsafeTemporaryAllocation(of: CChar.self, capacity: length + 1) { buffer in
                for offset in 0..<length { buffer[offset] = CChar(bitPattern: bytes[start + offset]) }
                buffer[length] = 0
                return strtod(buffer.baseAddress!, nil)
            }
        }

        mutating func skipDigits() {
            while let byte = current, isDigit(byte) { index += 1 }
        }

        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    }
}

extension ReplayLine {
    /// Sets the field named `key`; false when the value has the wrong type (the full decoder explains).
    fileprivate mutating func assign(_ key: String, _ value: ReplayLineScanner.Value) -> Bool {
        switch (key, value) {
        case ("type", .string(let text)): type = text
        case ("t", .number(let n)): t = n
        case ("x", .number(let n)): x = n
        case ("y", .number(let n)): y = n
        case ("p", .number(let n)): p = n
        case ("version", .number(let n)): version = n
        case ("width", .number(let n)): width = n
        case ("height", .number(let n)): height = n
        case ("spacing", .number(let n)): spacing = n
        case ("altitude", .number(let n)): altitude = n
        case ("azimuth", .number(let n)): azimuth = n
        case ("count", .number(let n)): count = n
        case ("title", .string(let text)): title = text
        case ("notebook", .string(let text)): notebook = text
        case ("created", .string(let text)): created = text
        case ("template", .string(let text)): template = text
        case ("paper", .string(let text)): paper = text
        case ("tool", .string(let text)): tool = text
        case ("color", .string(let text)): color = text
        case ("pinned", .bool(let flag)): pinned = flag
        case ("source", .string(let text)): source = text
        case ("type", _), ("t", _), ("x", _), ("y", _), ("p", _), ("version", _), ("width", _), ("height", _),
             ("spacing", _), ("altitude", _), ("azimuth", _), ("count", _), ("title", _), ("notebook", _),
             ("created", _), ("template", _), ("paper", _), ("tool", _), ("color", _), ("pinned", _), ("tags", _), ("source", _):
            return false
        default: break  // unknown keys are ignored, as the format says
        }
        return true
    }
}
