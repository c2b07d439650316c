import InkwellKit

/// A command that may recognise handwriting, depending on its options: the program prepares the
/// process for recognition (``RecognitionProcess/prepare()``) before running it.
protocol RecognisingCommand {
    /// True when this invocation will recognise pages.
    var recognises: Bool { get }
}
