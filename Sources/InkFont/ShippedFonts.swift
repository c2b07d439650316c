extension HersheyFont {
    /// Roman Simplex (`fonts/rowmans.jhf`), compiled into the program so that nothing has to be found
    /// at run time: the font typed text is drawn with. A test checks it is the file in `fonts/`.
    public static let romanSimplex: HersheyFont = {
        do {
            return try HersheyFont(parsing: PackageResources.rowmans_jhf, name: "rowmans.jhf")
        } catch {
            fatalError("the compiled-in rowmans.jhf does not parse: \(error)")
        }
    }()
}
