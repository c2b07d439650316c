import Foundation
import InkCore

/// How finely geometry is computed for one output: the drawn polygon may stray from the ideal curve by
/// at most `tolerance` page units, and no stroke is drawn narrower than `minimumRadius`.
public struct OutlineResolution: Sendable, Hashable {
    public var tolerance: Double
    public var minimumRadius: Double

    public init(tolerance: Double, minimumRadius: Double = 0) {
        self.tolerance = max(1e-4, tolerance)
        self.minimumRadius = max(0, minimumRadius)
    }

    /// For a raster of `scale` device pixels per page unit: 0.15 px tolerance (no facets at any
    /// scale) and hairlines at least 0.35 px wide... in radius, so strokes never fade out at 1x.
    public static func raster(scale: Double) -> OutlineResolution {
        OutlineResolution(tolerance: 0.15 / scale, minimumRadius: 0.35 / scale)
    }
}

/// A piece of a stroke's centreline after smoothing and subdivision: positions, radii and pressure.
/// A stroke splits into several pieces at sharp corners.
public struct Spine: Sendable, Hashable {
    public var points: [Vector] { positions.map(\.vector) }
    public var radii: [Double]
    /// Pressure (recorded or simulated) at each point, 0…1.
    public var pressures: [Double]
    package var positions: [V2]

    package init(positions: [V2], radii: [Double], pressures: [Double]) {
        self.positions = positions
        self.radii = radii
        self.pressures = pressures
    }
}

/// One stroke's outline: closed polygons to fill together with the nonzero rule. Usually one; more
/// when the stroke turns sharply (the pieces overlap at the corner and the fill is their union).
public struct StrokeOutline: Sendable {
    package var contours: Contours

    /// The polygons, each closed implicitly (the last point joins the first).
    public var polygons: [[Vector]] {
        (0..<contours.count).map { i in contours.range(i).map { contours.points[$0].vector } }
    }

    public var bounds: Rect { contours.bounds }
    public var pointCount: Int { contours.points.count }
}

/// Stroke geometry: from samples (x, y, pressure, time) to centrelines and outlines. Pure and
/// deterministic; no Cairo.
public enum StrokeGeometry {
    /// The outline of `stroke` drawn with `style`.
    public static func outline(of stroke: Stroke, style: StrokeStyle, resolution: OutlineResolution) -> StrokeOutline {
        var contours = Contours()
        appendOutline(points: stroke.points, width: Double(stroke.width), style: style, resolution: resolution, to: &contours)
        return StrokeOutline(contours: contours)
    }

    /// The smoothed, subdivided centreline pieces of `stroke`.
    public static func spines(of stroke: Stroke, style: StrokeStyle, resolution: OutlineResolution) -> [Spine] {
        spines(points: stroke.points, width: Double(stroke.width), style: style, resolution: resolution)
    }

    package static func appendOutline(points: [InkPoint], width: Double, style: StrokeStyle, resolution: OutlineResolution,
                              to contours: inout Contours) {
        for spine in spines(points: points, width: width, style: style, resolution: resolution) {
            appendOutline(spine: spine, range: 0..<spine.positions.count, tolerance: resolution.tolerance, to: &contours)
        }
    }

    // MARK: Centreline

    package static func spines(points: [InkPoint], width rawWidth: Double, style: StrokeStyle, resolution: OutlineResolution) -> [Spine] {
        guard !points.isEmpty else { return [] }
        let width = rawWidth.isFinite && rawWidth > 0 ? rawWidth : 1
        let tolerance = resolution.tolerance

        // Pressure, recorded or made up from speed (on the raw samples: deduplication would skew speed).
        let pressures = pressureSeries(points, width: width, simulation: style.pressureSimulation)

        // Drop samples closer than a fraction of the tolerance to the previous kept one (and NaNs).
        var q: [V2] = []
        var pr: [Double] = []
        q.reserveCapacity(points.count)
        pr.reserveCapacity(points.count)
        let mergeDistance = mergeShare * tolerance
        for (i, point) in points.enumerated() {
            let p = V2(Double(point.x), Double(point.y))
            guard p.x.isFinite, p.y.isFinite else { continue }
            if let last = q.last, (p - last).lengthSquared < mergeDistance * mergeDistance {
                pr[pr.count - 1] = max(pr[pr.count - 1], pressures[i])
                if i == points.count - 1, q.count > 1 { q[q.count - 1] = p }  // keep the true end
                continue
            }
            q.append(p)
            pr.append(pressures[i])
        }
        guard !q.isEmpty else { return [] }

        // Arc length, radius from pressure, eased tapers.
        var s = [Double](repeating: 0, count: q.count)
        for i in 1..<max(1, q.count) { s[i] = s[i - 1] + q[i].distance(to: q[i - 1]) }
        let total = s[q.count - 1]
        var r = [Double](repeating: 0, count: q.count)
        let taperStart = min(style.taperStart * width, taperShareLimit * total)
        let taperEnd = min(style.taperEnd * width, taperShareLimit * total)
        let tip = min(1, max(0, style.taperTip))
        for i in 0..<q.count {
            var radius = style.radius(nominalWidth: width, pressure: pr[i])
            if taperStart > 0, s[i] < taperStart {
                let u = s[i] / taperStart
                radius *= tip + (1 - tip) * u * (2 - u)
            }
            if taperEnd > 0, total - s[i] < taperEnd {
                let u = (total - s[i]) / taperEnd
                radius *= tip + (1 - tip) * u * (2 - u)
            }
            r[i] = max(radius, resolution.minimumRadius, 1e-3)
        }

        if q.count == 1 {
            return [Spine(positions: q, radii: r, pressures: pr)]
        }

        // Split at sharp corners, then smooth and subdivide each piece on its own.
        let sigma = max(0, min(1, style.smoothing)) * min(smoothingWidths * width, smoothingReachLimit)
        var pieces: [Spine] = []
        var start = 0
        for corner in corners(q, s, width: width, maxTurn: style.cornerAngle) + [q.count - 1] where corner > start {
            let range = start...corner
            var pq = Array(q[range]), prr = Array(r[range]), pp = Array(pr[range])
            let ps = Array(s[range])
            if sigma > 0, pq.count > 2 { smooth(&pq, &prr, &pp, arc: ps, sigma: sigma) }
            var piece = subdivide(pq, prr, pp, tolerance: tolerance)
            limitSlope(&piece)
            pieces.append(piece)
            start = corner
        }
        return pieces
    }

    /// The steepest the radius may change along the centreline. Where pressure jumps, a big circle
    /// swallows its smaller neighbours and the sides have no envelope; raising the small radii to a
    /// slope just under 1 draws (a hair more than) the union of the circles instead of a pinch.
    package static let maximumSlope = 0.85
    /// Samples closer than this share of the tolerance to the previous kept one are merged into it.
    package static let mergeShare = 0.25
    /// A taper is at most this share of the stroke's length.
    package static let taperShareLimit = 0.4
    /// The smoothing's σ at full smoothing: this many nominal widths, at most ``smoothingReachLimit`` page units.
    package static let smoothingWidths = 1.5
    package static let smoothingReachLimit = 6.0
    /// A corner's turn is measured between directions over this many nominal widths either side.
    package static let cornerWindowWidths = 0.5
    /// A spline piece is cut into steps of at most this many tolerances of deviation, and at most
    /// ``maximumSteps`` steps.
    package static let stepBudget = 4.0
    package static let maximumSteps = 32
    /// Pressure made up from speed (``pressureSeries(_:width:simulation:)``): full when still, least
    /// (1 − ``speedPressureDrop``) from ``leastPressureSpeed`` nominal widths a millisecond, eased by
    /// ``pressureEasing`` a sample; samples without times are ``untimedInterval`` ms apart, none less
    /// than ``shortestInterval``; a lone point gets ``lonePointPressure``.
    package static let leastPressureSpeed = 0.25
    package static let speedPressureDrop = 0.7
    package static let pressureEasing = 0.35
    package static let untimedInterval = 8.0
    package static let shortestInterval = 0.5
    package static let lonePointPressure = 0.6

    package static func limitSlope(_ spine: inout Spine) {
        let p = spine.positions
        guard p.count > 1 else { return }
        // In place, without copying the radii.
        spine.radii.withUnsafeMutableBufferPointer { r in
            var lengths = [Double](repeating: 0, count: p.count)
            for i in 1..<p.count { lengths[i] = p[i].distance(to: p[i - 1]) }
            for i in 1..<p.count { r[i] = max(r[i], r[i - 1] - maximumSlope * lengths[i]) }
            for i in stride(from: p.count - 2, through: 0, by: -1) { r[i] = max(r[i], r[i + 1] - maximumSlope * lengths[i + 1]) }
        }
    }

    /// Pressure per sample: recorded, or simulated from speed when the source has none.
    package static func pressureSeries(_ points: [InkPoint], width: Double, simulation: PressureSimulation) -> [Double] {
        let recorded = points.map { Double($0.pressure).isFinite ? min(1, max(0, Double($0.pressure))) : 0.5 }
        let first = recorded[0]
        let constant = recorded.allSatisfy { abs($0 - first) < 1e-4 }
        let simulate: Bool
        switch simulation {
        case .always: simulate = true
        case .never: simulate = false
        case .automatic: simulate = constant
        }
        guard simulate else { return constant && first == 0 ? recorded.map { _ in 0.5 } : recorded }
        guard points.count > 1 else { return [lonePointPressure] }
        // Speed in nominal widths per millisecond; samples without usable times are taken as 8 ms apart.
        let timed = points.last!.time > points.first!.time
        var speeds = [Double](repeating: 0, count: points.count)
        for i in 1..<points.count {
            let d = Double(hypotf(points[i].x - points[i - 1].x, points[i].y - points[i - 1].y))
            let dt = timed ? max(shortestInterval, Double(points[i].time - points[i - 1].time)) : untimedInterval
            speeds[i] = d / dt / width
        }
        speeds[0] = speeds[1]
        // Full pressure when still, the least at a quarter of the nominal width per millisecond and above.
        func target(_ v: Double) -> Double {
            let u = min(1, v / leastPressureSpeed)
            return 1 - speedPressureDrop * u * u * (3 - 2 * u)
        }
        var result = [Double](repeating: 0, count: points.count)
        var p = target(speeds[0])
        for i in 0..<points.count {
            p += (target(speeds[i]) - p) * pressureEasing
            result[i] = p
        }
        return result
    }

    /// Indices of samples where the path turns by more than `maxTurn` degrees, measured between
    /// directions taken over a window (so jitter of a sample or two is not a corner).
    package static func corners(_ q: [V2], _ s: [Double], width: Double, maxTurn: Double) -> [Int] {
        guard q.count > 2, maxTurn < 180 else { return [] }
        let window = max(cornerWindowWidths * width, 1e-3)
        let limit = cos(maxTurn * .pi / 180)
        // Candidates closer than the window to one another are one corner: keep the sharpest.
        var result: [Int] = []
        var groupEnd = -Double.infinity
        var bestCos = 2.0
        var j = 0, k = 1
        for i in 1..<(q.count - 1) {
            while j + 1 < i, s[i] - s[j + 1] >= window { j += 1 }
            if k <= i { k = i + 1 }
            while k < q.count - 1, s[k] - s[i] < window { k += 1 }
            let din = q[i] - q[j], dout = q[k] - q[i]
            let denominator = (din.lengthSquared * dout.lengthSquared).squareRoot()
            let c = denominator > 0 ? din.dot(dout) / denominator : 1
            guard c < limit else { continue }
            if s[i] - groupEnd < window, !result.isEmpty {
                if c < bestCos { result[result.count - 1] = i; bestCos = c }
            } else {
                result.append(i)
                bestCos = c
            }
            groupEnd = s[i]
        }
        return result
    }

    /// Gaussian smoothing over arc length, with a window that shrinks towards the ends so both ends
    /// stay put and nothing lags.
    package static func smooth(_ p: inout [V2], _ r: inout [Double], _ pr: inout [Double], arc s: [Double], sigma: Double) {
        let n = p.count
        let p0 = p, r0 = r, pr0 = pr
        let total = s[n - 1] - s[0]
        for i in 1..<(n - 1) {
            let here = s[i] - s[0]
            let sig = min(sigma, here / 3, (total - here) / 3)
            guard sig > 1e-6 else { continue }
            let reach = 3 * sig
            let inv = -1 / (2 * sig * sig)
            var sw = 0.0, sx = 0.0, sy = 0.0, sr = 0.0, sp = 0.0
            var j = i
            while j > 0, s[i] - s[j - 1] <= reach { j -= 1 }
            while j < n, s[j] - s[i] <= reach {
                let d = s[j] - s[i]
                let ds = (s[min(n - 1, j + 1)] - s[max(0, j - 1)]) * 0.5
                let w = smoothingExp(d * d * inv) * max(ds, 1e-9)
                sw += w
                sx += w * p0[j].x
                sy += w * p0[j].y
                sr += w * r0[j]
                sp += w * pr0[j]
                j += 1
            }
            if sw > 0 {
                p[i] = V2(sx / sw, sy / sw)
                r[i] = sr / sw
                pr[i] = sp / sw
            }
        }
    }

    /// e^x for the exponents of ``smooth``'s weights, x in [−4.5, 0] (3σ at most), within 6e-7 relatively:
    /// (e^(x/16))^16, with e^(x/16) by its Taylor series to the sixth power. `exp` was half of the
    /// smoothing's time; this is pure arithmetic, the same on every platform.
    @inline(__always) static func smoothingExp(_ x: Double) -> Double {
        let y = x * (1.0 / 16)
        var e = 1 + y * (1 + y * (1.0 / 2 + y * (1.0 / 6 + y * (1.0 / 24 + y * (1.0 / 120 + y * (1.0 / 720))))))
        e *= e
        e *= e
        e *= e
        return e * e
    }

    /// A centripetal Catmull-Rom spline through the points, subdivided where it curves so chords stay
    /// within half the tolerance of the curve (and of its offsets at the stroke's radius).
    package static func subdivide(_ p: [V2], _ r: [Double], _ pr: [Double], tolerance: Double) -> Spine {
        let n = p.count
        guard n > 2 else { return Spine(positions: p, radii: r, pressures: pr) }
        var out: [V2] = [p[0]], outR: [Double] = [r[0]], outP: [Double] = [pr[0]]
        out.reserveCapacity(n * 2)
        outR.reserveCapacity(n * 2)
        outP.reserveCapacity(n * 2)
        func turn(_ a: V2, _ b: V2) -> Double { atan2(abs(a.cross(b)), a.dot(b)) }
        let budget = stepBudget * tolerance
        var turnIn = 0.0  // the turn at p[i], computed as the previous segment's turn out
        for i in 0..<(n - 1) {
            let p1 = p[i], p2 = p[i + 1]
            let p0 = i > 0 ? p[i - 1] : p1 + (p1 - p2)
            let p3 = i + 2 < n ? p[i + 2] : p2 + (p2 - p1)
            let d1 = p1 - p0, d2 = p2 - p1, d3 = p3 - p2
            if i == 0 { turnIn = turn(d1, d2) }
            let turnOut = turn(d2, d3)
            let theta = 0.5 * (turnIn + turnOut)
            turnIn = turnOut
            let length = d2.length
            let rm = max(r[i], r[i + 1])
            let steps = min(maximumSteps, max(1, Int(((length + rm * theta) * theta / budget).squareRoot().rounded(.up))))
            if steps > 1 {
                let t0 = 0.0
                let t1 = t0 + max(d1.length.squareRoot(), 1e-6)
                let t2 = t1 + max(length.squareRoot(), 1e-6)
                let t3 = t2 + max(d3.length.squareRoot(), 1e-6)
                for k in 1..<steps {
                    let u = Double(k) / Double(steps)
                    let t = t1 + (t2 - t1) * u
                    let a1 = p0 * ((t1 - t) / (t1 - t0)) + p1 * ((t - t0) / (t1 - t0))
                    let a2 = p1 * ((t2 - t) / (t2 - t1)) + p2 * ((t - t1) / (t2 - t1))
                    let a3 = p2 * ((t3 - t) / (t3 - t2)) + p3 * ((t - t2) / (t3 - t2))
                    let b1 = a1 * ((t2 - t) / (t2 - t0)) + a2 * ((t - t0) / (t2 - t0))
                    let b2 = a2 * ((t3 - t) / (t3 - t1)) + a3 * ((t - t1) / (t3 - t1))
                    out.append(b1 * ((t2 - t) / (t2 - t1)) + b2 * ((t - t1) / (t2 - t1)))
                    outR.append(r[i] + (r[i + 1] - r[i]) * u)
                    outP.append(pr[i] + (pr[i + 1] - pr[i]) * u)
                }
            }
            out.append(p2)
            outR.append(r[i + 1])
            outP.append(pr[i + 1])
        }
        return Spine(positions: out, radii: outR, pressures: outP)
    }

    // MARK: Outline

    /// Appends the closed outline of `spine[range]`: the left side forward, a round cap drawn as an
    /// arc, the right side backward, the other cap. Offsets follow the envelope of the circles along
    /// the centreline (so tapers meet their caps tangentially), and straight runs are thinned.
    package static func appendOutline(spine: Spine, range: Range<Int>, tolerance: Double, to contours: inout Contours) {
        let p = spine.positions, r = spine.radii
        let lo = range.lowerBound, hi = range.upperBound - 1
        guard hi >= lo else { return }
        if hi == lo || (hi == lo + 1 && p[lo] == p[hi]) {
            let radius = max(r[lo], r[hi])
            contours.begin()
            appendCircle(center: p[lo], radius: radius, tolerance: tolerance, to: &contours)
            contours.finish(minimum: 3)
            return
        }
        let count = hi - lo + 1
        // Unit tangents: the bisector of the neighbouring chord directions.
        var tangents = [V2](repeating: .zero, count: count)
        var lengths = [Double](repeating: 0, count: count)  // chord i-1 → i
        var previous = V2.zero
        for i in 0..<count {
            var next = V2.zero
            if i + 1 < count {
                let d = p[lo + i + 1] - p[lo + i]
                let l = d.length
                lengths[i + 1] = l
                next = l > 0 ? d * (1 / l) : .zero
            }
            let sum = previous + next
            tangents[i] = sum.lengthSquared > 1e-18 ? sum.normalized : (next.lengthSquared > 0 ? next : (previous.lengthSquared > 0 ? previous : V2(1, 0)))
            previous = next.lengthSquared > 0 ? next : previous
        }
        let kept = simplify(p, r, lo: lo, hi: hi, tangents: tangents, tolerance: tolerance)

        // Offset points on the envelope: c + r(−r′t ± √(1−r′²) n), so tapers meet their caps tangentially.
        var left = [V2](), right = [V2]()
        left.reserveCapacity(kept.count)
        right.reserveCapacity(kept.count)
        for k in kept {
            let radius = r[k]
            let i = k - lo
            let a = max(0, i - 1), b = min(count - 1, i + 1)
            var ds = 0.0
            if b > a { for m in (a + 1)...b { ds += lengths[m] } }
            var slope = ds > 1e-12 ? (r[lo + b] - r[lo + a]) / ds : 0
            slope = min(maximumSlope, max(-maximumSlope, slope))
            let t = tangents[i], n = t.perpendicular
            let c = (1 - slope * slope).squareRoot()
            let along = t * (-slope * radius), across = n * (c * radius)
            left.append(p[k] + along + across)
            right.append(p[k] + along - across)
        }

        // Where a side runs backwards (the centreline turns sharply for the stroke's width: a hook too
        // small to be a corner), the outline would fold over itself there, wind the other way and leave
        // a crack. The pieces between such turns are drawn on their own, meeting with round ends; all
        // split at once, so each piece is simplified once more, not once per turn before it.
        var hooks: [Int] = []
        for j in 0..<(kept.count - 1) {
            let chord = p[kept[j + 1]] - p[kept[j]]
            guard (left[j + 1] - left[j]).dot(chord) <= 0 || (right[j + 1] - right[j]).dot(chord) <= 0 else { continue }
            if j > 0, hooks.last != kept[j] { hooks.append(kept[j]) }
            if j + 1 < kept.count - 1 { hooks.append(kept[j + 1]) }
        }
        if !hooks.isEmpty {
            var start = lo
            for end in hooks + [hi] {
                appendOutline(spine: spine, range: start..<(end + 1), tolerance: tolerance, to: &contours)
                start = end
            }
            return
        }

        contours.begin()
        for point in left { contours.add(point) }
        appendArc(center: p[hi], radius: r[hi], from: left[left.count - 1], to: right[right.count - 1], tolerance: tolerance, to: &contours)
        for point in right.reversed() { contours.add(point) }
        appendArc(center: p[lo], radius: r[lo], from: right[0], to: left[0], tolerance: tolerance, to: &contours)
        contours.finish(minimum: 3)
    }

    /// Douglas–Peucker on the centreline, counting the radius error and the outer offset's sagitta
    /// (from the tangent turning between the ends of a span) against the tolerance.
    package static func simplify(_ p: [V2], _ r: [Double], lo: Int, hi: Int, tangents: [V2], tolerance: Double) -> [Int] {
        let count = hi - lo + 1
        guard count > 2 else { return Array(lo...hi) }
        var keep = [Bool](repeating: false, count: count)
        keep[0] = true
        keep[count - 1] = true
        // Spans to examine, as (start, end) pairs flattened: a tuple array would look up its generic
        // metadata at run time on every call.
        var stack: [Int] = [0, count - 1]
        while let b = stack.popLast(), let a = stack.popLast() {
            guard b - a >= 2 else { continue }
            let pa = p[lo + a], pb = p[lo + b]
            let chord = pb - pa
            let len2 = chord.lengthSquared
            let inverseLength = len2 > 0 ? 1 / len2.squareRoot() : 0
            let cosTurn = min(1, max(-1, tangents[a].dot(tangents[b])))
            let sagitta = max(r[lo + a], r[lo + b]) * (1 - ((1 + cosTurn) * 0.5).squareRoot())
            var worst = -1.0, worstIndex = a + 1
            for i in (a + 1)..<b {
                let d = p[lo + i] - pa
                let distance = len2 > 0 ? abs(chord.cross(d)) * inverseLength : d.length
                let u = len2 > 0 ? min(1, max(0, chord.dot(d) / len2)) : 0
                let error = distance + abs(r[lo + i] - (r[lo + a] + (r[lo + b] - r[lo + a]) * u))
                if error > worst { worst = error; worstIndex = i }
            }
            if worst + sagitta > tolerance {
                let split = worst > 0.5 * tolerance ? worstIndex : (a + b) / 2
                keep[split] = true
                stack.append(a)
                stack.append(split)
                stack.append(split)
                stack.append(b)
            }
        }
        var result: [Int] = []
        result.reserveCapacity(count)
        for i in 0..<count where keep[i] { result.append(lo + i) }
        return result
    }

    /// Points strictly between `from` and `to` on the circle, turning clockwise in the maths sense
    /// (the way every ribbon of the outline turns, so caps never cancel the fill).
    package static func appendArc(center: V2, radius: Double, from: V2, to: V2, tolerance: Double, to contours: inout Contours) {
        let a0 = atan2(from.y - center.y, from.x - center.x)
        let a1 = atan2(to.y - center.y, to.x - center.x)
        var sweep = a1 - a0
        while sweep > 0 { sweep -= 2 * .pi }
        while sweep <= -2 * .pi { sweep += 2 * .pi }
        guard sweep < -1e-9 else { return }
        let steps = arcSteps(radius: radius, sweep: -sweep, tolerance: tolerance)
        guard steps > 1 else { return }
        let step = sweep / Double(steps)
        // Rotate by a fixed angle: one sin/cos per arc rather than per point.
        let c = cos(step), s = sin(step)
        var v = V2(cos(a0) * radius, sin(a0) * radius)
        for _ in 1..<steps {
            v = V2(v.x * c - v.y * s, v.x * s + v.y * c)
            contours.add(center + v)
        }
    }

    package static func appendCircle(center: V2, radius: Double, tolerance: Double, to contours: inout Contours) {
        let steps = max(4, arcSteps(radius: radius, sweep: 2 * .pi, tolerance: tolerance))
        let step = -2 * Double.pi / Double(steps)
        let c = cos(step), s = sin(step)
        var v = V2(radius, 0)
        for _ in 0..<steps {
            contours.add(center + v)
            v = V2(v.x * c - v.y * s, v.x * s + v.y * c)
        }
    }

    /// Segments needed for an arc so its chords stay within `tolerance` of the circle.
    package static func arcSteps(radius: Double, sweep: Double, tolerance: Double) -> Int {
        guard radius > tolerance else { return max(2, Int((sweep / (.pi / 2)).rounded(.up))) }
        let maxStep = 2 * acos(1 - tolerance / radius)
        return min(256, max(2, Int((sweep / maxStep).rounded(.up))))
    }
}
