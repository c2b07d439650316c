/// The version `inkwell --version` prints.
public enum InkwellVersion {
    public static let current = "0.2.0"
}
