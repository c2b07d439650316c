import Foundation

/// Fast, allocation-free reading of decimal numbers from UTF-8 bytes (the bulk of every XML ink format).
enum NumberScanner {
    private static let powers: [Double] = (0...22).map { pow(10, Double($0)) }

    /// Reads an unsigned decimal (`12`, `1.5`, `.5`, `5.`, `1e-3`) at `index`, moving past it.
    /// Nil (index unchanged) when no digit is there. `comma` accepts `,` as the decimal point.
    @inline(__always)
    static func unsignedNumber(_ p: UnsafeBufferPointer<UInt8>, _ index: inout Int, comma: Bool = false) -> Double? {
        let count = p.count
        let start = index
        var i = index
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        var sawDigit = false
        while i < count, p[i] &- 0x30 < 10 {
            sawDigit = true
            if digits < 19 {
                mantissa = mantissa &* 10 &+ UInt64(p[i] &- 0x30)
                if mantissa != 0 { digits += 1 }
            } else {
                exponent += 1
            }
            i += 1
        }
        if i < count, p[i] == 0x2E || (comma && p[i] == 0x2C) {
            var j = i + 1
            var fractionDigits = false
            while j < count, p[j] &- 0x30 < 10 {
                fractionDigits = true
                if digits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(p[j] &- 0x30)
                    if mantissa != 0 { digits += 1 }
                    exponent -= 1
                }
                j += 1
            }
            if sawDigit || fractionDigits {
                sawDigit = true
                i = j
            }
        }
        guard sawDigit else { return nil }
        if i < count, p[i] | 0x20 == 0x65 { // e / E
            var j = i + 1
            var negative = false
            if j < count, p[j] == 0x2D || p[j] == 0x2B {
                negative = p[j] == 0x2D
                j += 1
            }
            if j < count, p[j] &- 0x30 < 10 {
                var value = 0
                while j < count, p[j] &- 0x30 < 10 {
                    if value < 100_000 { value = value * 10 + Int(p[j] &- 0x30) }
                    j += 1
                }
                exponent += negative ? -value : value
                i = j
            }
        }
        index = i
        if mantissa == 0 { return 0 }
        if mantissa < 1 << 53, exponent >= -22, exponent <= 22 {
            let m = Double(mantissa)
            return exponent >= 0 ? m * powers[exponent] : m / powers[-exponent]
        }
        // Rare: long mantissas or large exponents. Let strtod round exactly.
        var text = String(decoding: UnsafeBufferPointer(rebasing: p[start..<i]), as: UTF8.self)
        if comma { text = text.replacingOccurrences(of: ",", with: ".") }
        return Double(text) ?? .infinity
    }

    /// Every number in a whitespace-separated list (`"1.5 2 -3e2"`); nil with the offending byte offset
    /// when something else is there. `comma` treats `,` as a decimal point (old Xournal++ in some locales).
    static func list(_ text: String, comma: Bool = false, limit: Int) -> (values: [Double], badOffset: Int?) {
        var text = text
        return text.withUTF8 { p in
            var values: [Double] = []
            var i = 0
            let count = p.count
            while i < count {
                let c = p[i]
                if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 {
                    i += 1
                    continue
                }
                var negative = false
                if c == 0x2D || c == 0x2B {
                    negative = c == 0x2D
                    i += 1
                }
                guard let value = unsignedNumber(p, &i, comma: comma) else { return (values, i) }
                if i < count, !(p[i] == 0x20 || p[i] == 0x0A || p[i] == 0x0D || p[i] == 0x09) { return (values, i) }
                values.append(negative ? -value : value)
                if values.count > limit { return (values, i) }
            }
            return (values, nil)
        }
    }

    /// A lenient single number (attributes): surrounding space ignored, trailing junk like `ll` ignored.
    static func leading(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { p -> Double? in
            var i = 0
            while i < p.count, p[i] == 0x20 || p[i] == 0x09 || p[i] == 0x0A || p[i] == 0x0D { i += 1 }
            var negative = false
            if i < p.count, p[i] == 0x2D || p[i] == 0x2B {
                negative = p[i] == 0x2D
                i += 1
            }
            guard let value = unsignedNumber(p, &i) else { return nil }
            return negative ? -value : value
        }
    }
}
