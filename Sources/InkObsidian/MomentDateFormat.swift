import Foundation
import InkExport

/// The date part of a moment.js format string, as Obsidian's daily notes use it (`YYYY-MM-DD`,
/// `YYYY/MM/YYYY-MM-DD dddd`, `[Journal] Do MMMM YYYY` …), in moment's default English locale.
///
/// Supported: `YYYY YY Y`, `Q Qo`, `MMMM MMM MM M Mo`, `DDDD DDDo DDD DD D Do`, `dddd ddd dd d do
/// e E`, ISO weeks `WW W Wo GGGG`, English weeks `ww w wo gggg`, `[literal text]` and `\x`. Letters
/// that are no token are copied, as moment does. Time tokens (`HH`, `mm` …) and the locale formats
/// (`L`, `LL` …) make no sense in a daily note's name and are refused.
public struct MomentDateFormat: Sendable, Equatable {
    enum Piece: Sendable, Equatable {
        case literal(String)
        case token(Token)
    }

    /// The tokens we format, longest first within each family (moment's own matching order).
    enum Token: String, CaseIterable, Sendable {
        case YYYY, YY, Y, Qo, Q, MMMM, MMM, Mo, MM, M, DDDD, DDDo, DDD, Do, DD, D
        case dddd, ddd, dd, do_ = "do", d, e, E, WW, Wo, W, GGGG, ww, wo, w, gggg
    }

    public let pattern: String
    let pieces: [Piece]

    /// Letters that start a moment token we do not format.
    static let unsupportedLetters: Set<Character> = ["H", "h", "k", "m", "s", "S", "a", "A", "x", "X",
                                                     "z", "Z", "N", "y", "g", "G", "L", "l"]

    /// Parses `pattern`; throws naming the token it cannot format.
    public init(_ pattern: String) throws(MomentFormatError) {
        self.pattern = pattern
        var pieces: [Piece] = []
        let characters = Array(pattern)
        var i = 0
        func appendLiteral(_ text: String) {
            if case .literal(let previous) = pieces.last {
                pieces[pieces.count - 1] = .literal(previous + text)
            } else {
                pieces.append(.literal(text))
            }
        }
        while i < characters.count {
            let rest = characters[i...]
            if characters[i] == "[", let close = rest.dropFirst().firstIndex(of: "]"),
               !characters[(i + 1)..<close].contains("[") {
                appendLiteral(String(characters[(i + 1)..<close]))
                i = close + 1
            } else if characters[i] == "\\", i + 1 < characters.count {
                appendLiteral(String(characters[i + 1]))
                i += 2
            } else if let token = Token.allCases.first(where: { rest.starts(with: $0.rawValue) }) {
                pieces.append(.token(token))
                i += token.rawValue.count
            } else if MomentDateFormat.unsupportedLetters.contains(characters[i]) {
                throw MomentFormatError(pattern: pattern, position: i,
                                        reason: "\"\(characters[i])\" is a time or locale token, which a daily note's name cannot use")
            } else {
                appendLiteral(String(characters[i]))
                i += 1
            }
        }
        self.pieces = pieces
    }

    /// `date` formatted in `timeZone`.
    public func string(from date: Date, timeZone: TimeZone) -> String {
        var gregorian = Calendar(identifier: .gregorian)
        gregorian.timeZone = timeZone
        var iso = Calendar(identifier: .iso8601)
        iso.timeZone = timeZone
        // moment's English locale: weeks start on Sunday and week 1 holds 1 January.
        var english = Calendar(identifier: .gregorian)
        english.timeZone = timeZone
        english.firstWeekday = 1
        english.minimumDaysInFirstWeek = 1
        let parts = gregorian.dateComponents([.year, .month, .day, .weekday], from: date)
        let year = parts.year ?? 1970, month = parts.month ?? 1, day = parts.day ?? 1
        let weekday = (parts.weekday ?? 1) - 1  // 0 = Sunday
        let dayOfYear = gregorian.ordinality(of: .day, in: .year, for: date) ?? 1
        let isoWeek = iso.dateComponents([.weekOfYear, .yearForWeekOfYear], from: date)
        let englishWeek = english.dateComponents([.weekOfYear, .yearForWeekOfYear], from: date)
        let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                      "October", "November", "December"]
        let days = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(abs(value))
            return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        var out = ""
        for piece in pieces {
            switch piece {
            case .literal(let text): out += text
            case .token(let token):
                switch token {
                case .YYYY, .Y: out += pad(year, 4)
                case .YY: out += pad(((year % 100) + 100) % 100, 2)
                case .Q: out += String((month - 1) / 3 + 1)
                case .Qo: out += MomentDateFormat.ordinal((month - 1) / 3 + 1)
                case .MMMM: out += months[month - 1]
                case .MMM: out += String(months[month - 1].prefix(3))
                case .MM: out += pad(month, 2)
                case .M: out += String(month)
                case .Mo: out += MomentDateFormat.ordinal(month)
                case .DDDD: out += pad(dayOfYear, 3)
                case .DDD: out += String(dayOfYear)
                case .DDDo: out += MomentDateFormat.ordinal(dayOfYear)
                case .DD: out += pad(day, 2)
                case .D: out += String(day)
                case .Do: out += MomentDateFormat.ordinal(day)
                case .dddd: out += days[weekday]
                case .ddd: out += String(days[weekday].prefix(3))
                case .dd: out += String(days[weekday].prefix(2))
                case .d, .e: out += String(weekday)
                case .do_: out += MomentDateFormat.ordinal(weekday)
                case .E: out += String(weekday == 0 ? 7 : weekday)
                case .WW: out += pad(isoWeek.weekOfYear ?? 1, 2)
                case .W: out += String(isoWeek.weekOfYear ?? 1)
                case .Wo: out += MomentDateFormat.ordinal(isoWeek.weekOfYear ?? 1)
                case .GGGG: out += pad(isoWeek.yearForWeekOfYear ?? year, 4)
                case .ww: out += pad(englishWeek.weekOfYear ?? 1, 2)
                case .w: out += String(englishWeek.weekOfYear ?? 1)
                case .wo: out += MomentDateFormat.ordinal(englishWeek.weekOfYear ?? 1)
                case .gggg: out += pad(englishWeek.yearForWeekOfYear ?? year, 4)
                }
            }
        }
        return out
    }

    /// 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st …
    static func ordinal(_ n: Int) -> String {
        let suffix: String
        switch (n % 100, n % 10) {
        case (11...13, _): suffix = "th"
        case (_, 1): suffix = "st"
        case (_, 2): suffix = "nd"
        case (_, 3): suffix = "rd"
        default: suffix = "th"
        }
        return "\(n)\(suffix)"
    }
}

/// Why a daily-note format could not be used.
public struct MomentFormatError: Error, CustomStringConvertible, Sendable, Equatable {
    public let pattern: String
    /// Character offset of the token in the pattern.
    public let position: Int
    public let reason: String
    public var description: String { "format \"\(pattern)\", character \(position + 1): \(reason)" }
}
