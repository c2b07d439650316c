import Foundation

/// The system's word lists for a language — Debian's `wamerican` and `wbritish` for English, … —
/// the one place that knows where they are and how they are read: recognition's lexicon and
/// search's dictionary both start from them (scripts/install-deps.sh installs the English ones).
public enum SystemWordList {
    /// Where Debian's word-list packages put their lists, by Tesseract language code: for each list,
    /// the places it may be, the one to prefer first. English prefers `wamerican-large` (170,000 words:
    /// "workspaces", "reconfigurable") to `wamerican` (104,000): on the real pages the neural reader
    /// and Tesseract voting read 80.6% of words with it against 79.0% (docs/recognition.md).
    static let lists: [String: [[String]]] = [
        "eng": [["/usr/share/dict/american-english-large", "/usr/share/dict/american-english"], ["/usr/share/dict/british-english"]],
        "deu": [["/usr/share/dict/ngerman"]],
        "fra": [["/usr/share/dict/french"]],
        "spa": [["/usr/share/dict/spanish"]],
        "ita": [["/usr/share/dict/italian"]],
        "nld": [["/usr/share/dict/dutch"]],
    ]

    /// The readable lists for `language`, each at the first place it is found (people write "colour"
    /// and "color": both English lists); `/usr/share/dict/words` when none of those is installed;
    /// empty when there is no list at all.
    public static func paths(language: String) -> [String] {
        let paths = (lists[language] ?? []).compactMap { $0.first { FileManager.default.isReadableFile(atPath: $0) } }
        if paths.isEmpty, FileManager.default.isReadableFile(atPath: "/usr/share/dict/words") { return ["/usr/share/dict/words"] }
        return paths
    }

    /// The lists whose words people write often, beside the chosen `paths`: for a chosen list that has
    /// a smaller one installed (`wamerican` beside `wamerican-large`) the smaller, for the others
    /// themselves; empty when no chosen list has a smaller one (then no word is rare).
    public static func commonPaths(besides paths: [String]) -> [String] {
        let alternatives = lists.values.joined()
        var common: [String] = [], smaller = false
        for path in paths {
            let installed = (alternatives.first { $0.first == path } ?? []).dropFirst().filter { FileManager.default.isReadableFile(atPath: $0) }
            smaller = smaller || !installed.isEmpty
            common += installed.isEmpty ? [path] : installed
        }
        return smaller ? common : []
    }

    /// Every line of the lists at `paths` (UTF-8, or Latin-1 for older lists), as written: case,
    /// apostrophes and accents kept. A list that cannot be read adds nothing.
    public static func words(at paths: [String]) -> [String] {
        paths.flatMap { path -> [String] in
            let text = (try? String(contentsOfFile: path, encoding: .utf8))
                ?? (try? String(contentsOfFile: path, encoding: .isoLatin1)) ?? ""
            // Split on the bytes of line ends rather than on Characters: the same lines, read
            // without a grapheme walk over a megabyte of text.
            return text.utf8.split(whereSeparator: { $0 == 0x0A || $0 == 0x0D }).map { String(Substring($0)) }
        }
    }
}
