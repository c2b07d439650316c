import Foundation
import InkCore

/// Everything that decides a synthetic note: what it says, where it is filed, and how it is written.
public struct SampleSpec: Sendable, Hashable {
    public var title: String
    public var notebook: NotebookPath
    public var created: Date
    public var style: HandwritingStyle
    public var jitter: JitterLevel
    /// Decides every random choice: the same spec always gives the same ink.
    public var seed: UInt64
    public var text: NoteText

    public init(title: String, notebook: NotebookPath, created: Date, style: HandwritingStyle,
                jitter: JitterLevel, seed: UInt64, text: NoteText) {
        self.title = title
        self.notebook = notebook
        self.created = created
        self.style = style
        self.jitter = jitter
        self.seed = seed
        self.text = text
    }
}
