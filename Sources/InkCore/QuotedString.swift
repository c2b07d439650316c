extension String {
    /// This text as a double-quoted string literal that is both valid JSON and a valid YAML
    /// double-quoted scalar: quotes and backslashes escaped, control characters (C0, DEL, C1) as
    /// `\uXXXX`, so any text, however hostile, stays one string on one line.
    public var quotedLiteral: String {
        var out = "\""
        for scalar in unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
