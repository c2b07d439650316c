/// The version `inkwell --version` prints.
public enum InkwellVersion {
    public static let current = "0.1.0"
}
