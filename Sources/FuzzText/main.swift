// libFuzzer entry point for InkText, the Markdown line parser of a note's typed text (built by
// scripts/fuzz.sh, not by swift build: it has no main of its own).
//
// What a user relies on: any bytes either read as typed text or are refused with the offset of the
// first bad byte; the lines are the text's lines, in order, each exactly as typed; ticking a checkbox
// changes that one character and nothing else, and ticking it back restores the text byte for byte.
import InkCore
import InkText

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzText(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: bytes, count: count))
    let typed: TypedText
    do {
        typed = try TypedText(utf8: input)
    } catch {
        guard case .notUTF8(let offset) = error, offset >= 0, offset < count,
              String(validating: input[..<offset], as: UTF8.self) != nil
        else { fatalError("refusal \(error) of a \(count)-byte text") }
        return 0
    }
    if Array(typed.text.utf8) != input { fatalError("the text is not kept byte for byte") }

    // The lines: split on \n, a \r before it belongs to the line end, no empty line after a last line end.
    var expected: [String] = []
    var start = 0
    for (index, byte) in input.enumerated() where byte == UInt8(ascii: "\n") {
        let end = index > start && input[index - 1] == UInt8(ascii: "\r") ? index - 1 : index
        expected.append(String(decoding: input[start..<end], as: UTF8.self))
        start = index + 1
    }
    if start < input.count { expected.append(String(decoding: input[start...], as: UTF8.self)) }
    guard typed.lines.map(\.text) == expected else { fatalError("lines differ from the text's lines") }

    var taskCount = 0
    for (index, line) in typed.lines.enumerated() {
        guard line.number == index + 1 else { fatalError("line \(index + 1) is numbered \(line.number)") }
        if case .heading(let level) = line.kind, !(1...6).contains(level) { fatalError("heading level \(level)") }
        if case .numbered(let number) = line.kind, number < 0 { fatalError("list number \(number)") }
        guard line.level >= 0 else { fatalError("line \(line.number) has level \(line.level)") }
        for tag in line.hashtags where Tag(tag.name) != tag { fatalError("hashtag \(tag) does not read back as itself") }
        // Each toggle re-reads the whole text twice: the first eight tasks are enough (64 held the
        // target to about 1,000 inputs a second).
        guard case .task(let before) = line.kind, taskCount < 8 else { continue }
        taskCount += 1
        let toggled: CheckboxToggle
        do {
            toggled = try typed.togglingCheckbox(line: line.number)
        } catch {
            fatalError("the task on line \(line.number) cannot be ticked: \(error)")
        }
        guard toggled.before == before, toggled.text.lines.count == typed.lines.count,
              toggled.text.text.utf8.count == typed.text.utf8.count
        else { fatalError("ticking line \(line.number) changed more than its marker") }
        for (a, b) in zip(toggled.text.lines, typed.lines) where a.number != line.number && a.text != b.text {
            fatalError("ticking line \(line.number) changed line \(a.number)")
        }
        guard case .task(toggled.after) = toggled.text.lines[index].kind else {
            fatalError("line \(line.number) is no longer a task once ticked: \(toggled.text.lines[index].kind)")
        }
        if before == .open || before == .done {
            // Byte for byte, but for `[X]`, which is done too and comes back written `[x]`.
            guard let back = try? toggled.text.togglingCheckbox(line: line.number),
                  back.text.text.utf8.count == typed.text.utf8.count, back.text.lines.count == typed.lines.count
            else { fatalError("ticking line \(line.number) twice does not restore it") }
            for (other, (a, b)) in zip(back.text.lines, typed.lines).enumerated() {
                let same = other == index
                    ? Array(a.text).count == Array(b.text).count && zip(a.text, b.text).allSatisfy { $0 == $1 || ($0 == "x" && $1 == "X") }
                    : a.text == b.text
                if !same { fatalError("ticking line \(line.number) twice does not restore line \(other + 1)") }
            }
        }
    }
    let statistics = typed.statistics
    guard statistics.words >= 0, statistics.characters >= statistics.words || statistics.words == 0 else {
        fatalError("statistics \(statistics)")
    }
    return 0
}
