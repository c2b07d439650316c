extension String {
    /// The text a C function wrote into `buffer`, up to its NUL (all of it when there is none), as
    /// UTF-8 with damaged bytes replaced: an error message in a caller's `char[]`.
    public init(nulTerminated buffer: [CChar]) {
        self.init(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
