import InkCore

/// What one line of typed text is. See docs/typed-text.md for the rules, the look-alikes and
/// where they differ from CommonMark.
public enum BodyLineKind: Sendable, Hashable {
    /// Nothing but spaces and tabs.
    case blank
    /// `#` … `######` and a space, or a paragraph line underlined with `===` (level 1) or `---` (level 2).
    case heading(level: Int)
    /// The `===` or `---` line under a paragraph line, which makes that line a heading.
    case headingUnderline
    /// A list item with a checkbox or task marker: `- [ ] buy milk`, `- [x] done`, `1. [!] urgent`.
    case task(TaskMarker)
    /// `- item`, `* item`, `+ item`.
    case bullet
    /// `1. item` or `1) item`.
    case numbered(Int)
    /// `---`, `***`, `___` (three or more, spaces allowed between them).
    case divider
    /// Any other text.
    case paragraph
    /// The opening or closing line of a fenced code block (```` ``` ```` or `~~~`).
    case codeFence
    /// A line inside a fenced code block: text, whatever it looks like.
    case code

    /// The kind's name in messages and JSON: `heading`, `task`, `code fence`, …
    public var name: String {
        switch self {
        case .blank: "blank"
        case .heading: "heading"
        case .headingUnderline: "heading underline"
        case .task: "task"
        case .bullet: "bullet"
        case .numbered: "numbered"
        case .divider: "divider"
        case .paragraph: "paragraph"
        case .codeFence: "code fence"
        case .code: "code"
        }
    }
}

/// One line of a note's typed text as the parser reads it.
public struct BodyLine: Sendable, Hashable {
    /// 1-based, as `inkwell note text --numbered` prints it.
    public var number: Int
    /// The line as typed, without its line end.
    public var text: String
    public var kind: BodyLineKind
    /// How deep in a list the line sits: 0 at the top, 1 for an item under an item, …
    public var level: Int
    /// What a reader sees: the text after the markers (`#`, `- [ ]`, `1.`), backslash escapes
    /// resolved outside code spans; a code line's text; a fence's info string; "" otherwise.
    public var content: String
    /// A list item's marker as typed: `-`, `*`, `+`, `1.`, `2)`; nil for other lines.
    public var listMarker: String?
    /// Hashtags in the line (not in code, not escaped), as tags.
    public var hashtags: [Tag]
    /// For a task, the position (in characters of ``text``) of the marker between the brackets.
    var markerOffset: Int?

    /// True for lines a reader reads as words: headings, list items, paragraphs and code.
    public var hasWords: Bool {
        switch kind {
        case .heading, .task, .bullet, .numbered, .paragraph, .code: true
        case .blank, .headingUnderline, .divider, .codeFence: false
        }
    }
}

/// The characters a task's brackets may hold: the checkbox (`[ ]`, `[x]`) and the "alternate
/// checkboxes" of Obsidian's Minimal theme, the most widely used set (docs/typed-text.md).
public enum TaskMarker: String, Sendable, Hashable, CaseIterable, Codable {
    case open = " "
    case done = "x"
    case incomplete = "/"
    case cancelled = "-"
    case forwarded = ">"
    case scheduling = "<"
    case question = "?"
    case important = "!"
    case star = "*"
    case quote = "\""
    case location = "l"
    case bookmark = "b"
    case information = "i"
    case savings = "S"
    case idea = "I"
    case pro = "p"
    case con = "c"
    case fire = "f"
    case key = "k"
    case win = "w"
    case up = "u"
    case down = "d"

    /// The marker typed as `character`; `X` is `done` too. Nil for characters outside the set.
    public init?(_ character: Character) {
        if character == "X" {
            self = .done
        } else if let marker = TaskMarker(rawValue: String(character)) {
            self = marker
        } else {
            return nil
        }
    }

    /// The character written between the brackets.
    public var character: Character { Character(rawValue) }

    /// What it means, in a few words.
    public var meaning: String {
        switch self {
        case .open: "to do"
        case .done: "done"
        case .incomplete: "incomplete"
        case .cancelled: "cancelled"
        case .forwarded: "forwarded"
        case .scheduling: "scheduling"
        case .question: "question"
        case .important: "important"
        case .star: "star"
        case .quote: "quote"
        case .location: "location"
        case .bookmark: "bookmark"
        case .information: "information"
        case .savings: "savings"
        case .idea: "idea"
        case .pro: "pro"
        case .con: "con"
        case .fire: "fire"
        case .key: "key"
        case .win: "win"
        case .up: "up"
        case .down: "down"
        }
    }

    /// What `inkwell note check` makes of it: an open checkbox is ticked, a ticked one opened, and
    /// any other marker is ticked (the task is done, whatever it was marked).
    public var toggled: TaskMarker { self == .done ? .open : .done }
}
