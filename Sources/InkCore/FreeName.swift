/// The one naming rule for a file that must not replace another (exports, the drop folder's `done/`
/// and `failed/`): `stem.ext`, else `stem-2.ext`, `stem-3.ext` … — the first name not taken.
public enum FreeName {
    /// The first of `stem + suffix`, `stem-2 + suffix`, … for which `isTaken` is false. `suffix` is
    /// the extension with its dot (`.pdf`), or empty.
    public static func first(_ stem: String, suffix: String, isTaken: (String) -> Bool) -> String {
        var attempt = 1
        while true {
            let candidate = (attempt == 1 ? stem : "\(stem)-\(attempt)") + suffix
            if !isTaken(candidate) { return candidate }
            attempt += 1
        }
    }
}
