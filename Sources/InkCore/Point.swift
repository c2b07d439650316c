/// The pen's tilt at a point, where the source records it.
public struct Tilt: Sendable, Hashable, Codable {
    /// Angle between the pen and the page, in radians (π/2 = upright).
    public var altitude: Float
    /// Direction the pen leans, in radians, clockwise from the page's +x axis.
    public var azimuth: Float

    public init(altitude: Float, azimuth: Float) {
        self.altitude = altitude
        self.azimuth = azimuth
    }
}

/// One sample of pen input.
///
/// Coordinates are page pixels (origin top left, y down). `time` is milliseconds since the
/// stroke began; the stroke's own start is ``Stroke/startTime``.
public struct InkPoint: Sendable, Hashable, Codable {
    public var x: Float
    public var y: Float
    /// Normalised pen pressure, 0…1.
    public var pressure: Float
    /// Milliseconds since the stroke began.
    public var time: Float
    public var tilt: Tilt?

    public init(x: Float, y: Float, pressure: Float = 0.5, time: Float = 0, tilt: Tilt? = nil) {
        self.x = x
        self.y = y
        self.pressure = pressure
        self.time = time
        self.tilt = tilt
    }
}
