extension HersheyFont {
    /// Roman Simplex (`fonts/rowmans.jhf`), compiled into the program so that nothing has to be found
    /// at run time: the font typed text is drawn with and the `print` handwriting style writes with.
    /// A test checks it is the file in `fonts/`.
    public static let romanSimplex = compiledIn(PackageResources.rowmans_jhf, name: "rowmans.jhf")

    /// Script Simplex (`fonts/scripts.jhf`), compiled in: the font the `script` handwriting style writes with.
    public static let scriptSimplex = compiledIn(PackageResources.scripts_jhf, name: "scripts.jhf")

    /// The compiled-in font shipped as `fonts/NAME` (`rowmans.jhf`, `scripts.jhf`), or nil.
    public static func shipped(_ fileName: String) -> HersheyFont? {
        switch fileName {
        case "rowmans.jhf": romanSimplex
        case "scripts.jhf": scriptSimplex
        default: nil
        }
    }

    private static func compiledIn(_ bytes: [UInt8], name: String) -> HersheyFont {
        do {
            return try HersheyFont(parsing: bytes, name: name)
        } catch {
            fatalError("the compiled-in \(name) does not parse: \(error)")
        }
    }
}
