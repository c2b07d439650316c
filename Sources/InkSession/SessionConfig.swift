/// The timings and geometry the session's rules use. Durations are in seconds and must not be negative.
public struct SessionConfig: Sendable, Equatable {
    /// Quiet time after the last drawing change before the note is saved.
    public var autosaveDelay: Double
    /// The ceiling on the debounce: while changes keep coming, a save starts at most this long after
    /// the first change it will hold (so steady writing is still saved regularly).
    public var autosaveCeiling: Double
    /// How long navigation stays visible after a note is entered.
    public var navigationHideAfterEnter: Double
    /// How long navigation stays visible after a double tap reveals it.
    public var navigationHideAfterReveal: Double
    /// Height of the band at the top of the page, in page pixels, where a double tap reveals navigation.
    public var topEdgeBand: Double
    /// The wait before each retry of a failed save; when they are used up the failure is reported.
    public var retryDelays: [Double]
    /// How long a stroke in progress (``SessionEvent/strokeDown(key:page:_:tool:color:width:at:)``) may
    /// go without a move before it is ended where it got to: a pen that stays down blocks nobody, but its
    /// stroke should not stay open for ever. Infinite for a recording, whose pen always lifts.
    public var strokeStallTimeout: Double
    /// How long a backgrounded session is kept as it is before its draft is finalised.
    public var draftRetention: Double

    public init(autosaveDelay: Double = 2, autosaveCeiling: Double = 10, navigationHideAfterEnter: Double = 3,
                navigationHideAfterReveal: Double = 5, topEdgeBand: Double = 120,
                retryDelays: [Double] = [0.5, 1, 2, 4, 8], draftRetention: Double = 30,
                strokeStallTimeout: Double = 10) {
        self.autosaveDelay = autosaveDelay
        self.autosaveCeiling = autosaveCeiling
        self.navigationHideAfterEnter = navigationHideAfterEnter
        self.navigationHideAfterReveal = navigationHideAfterReveal
        self.topEdgeBand = topEdgeBand
        self.retryDelays = retryDelays
        self.draftRetention = draftRetention
        self.strokeStallTimeout = strokeStallTimeout
    }
}
