import Foundation
import InkCore

/// Reads W3C InkML (Microsoft Office and OneNote, Windows ink, CROHME, Inkwell's own export) into a
/// ``Recording``: one note; a page per `inkwell:page` trace group, else one page.
///
/// Channels X, Y, F (pressure), T (time), OTx/OTy or OA/OE (tilt) are read in any order; others are
/// skipped. Values may be explicit (`!`), first (`'`) or second (`"`) differences, the mode carrying over
/// per channel; `*` repeats a channel's value and `?` leaves it unknown. Coordinates in known units
/// (cm, mm, in, pt, himetric, or a `resolution` channel property) become page pixels at 226 dpi (the
/// reMarkable's density, Inkwell's default page); coordinates in unknown units are scaled to fit the page,
/// keeping the aspect ratio.
public enum InkMLDecoder {
    /// Page pixels per inch for coordinates in physical units.
    public static let pixelsPerInch = 226.0

    public static func decode(_ data: Data, file: String) throws(ImportError) -> Recording {
        let data = Containers.isGzip(data) ? try Containers.gunzip(data, file: file) : data
        let root = try SafeXML.parse(data, file: file, keep: keptElements, text: ["trace", "annotation"])
        guard root.name == "ink" else {
            throw ImportError(file: file, position: root.position, reason: "not InkML (the root element is <\(root.name)>, not <ink>)")
        }
        var reader = InkMLReader(file: file)
        try reader.read(root)
        var recording = try reader.finish()
        recording.claimedSource = claimedSource(root)
        return recording
    }

    /// What the first `<inkSource>` says made the ink: its manufacturer and model, or its description.
    static func claimedSource(_ root: XMLElement) -> String? {
        var queue = [root]
        var index = 0
        while index < queue.count {
            let element = queue[index]
            index += 1
            if element.name == "inkSource" {
                let named = [element["manufacturer"], element["model"]].compactMap { $0 }.joined(separator: " ")
                return Recording.cleanClaim(named.isEmpty ? element["description"] ?? "" : named)
            }
            queue += element.children
        }
        return nil
    }

    static let keptElements: Set<String> = [
        "ink", "definitions", "context", "inkSource", "traceFormat", "regularChannels", "intermittentChannels",
        "channel", "channelProperties", "channelProperty", "brush", "brushProperty", "timestamp", "trace",
        "traceGroup", "annotation",
    ]
}

/// A channel of a trace format.
private struct Channel {
    var name: String
    var units: String?
    var min: Double?
    var max: Double?
    var negative = false
}

private struct TraceFormat {
    var regular: [Channel]
    var intermittent: [Channel] = []
    static let xy = TraceFormat(regular: [Channel(name: "X"), Channel(name: "Y")])
}

private struct Brush {
    var color: RGBA = .black
    /// Width and its units (nil: the X channel's units).
    var width: Double?
    var widthUnits: String?
    var tool: Tool = .pen
    var ignorePressure = false
    /// Inkwell's own `inkwell:fill` (``Stroke/fill``) and `inkwell:dash` (``Stroke/dash``, lengths in pixels).
    var fill: UInt8?
    var dash: [Float]?
    /// Inkwell's own `inkwell:layer`: the page layer the stroke is on.
    var layer: UInt16 = 0
    /// What the brush names that Inkwell does not know, and so draws otherwise: `colour "chartreuse"`.
    var unknown: Set<String> = []
}

/// What a trace is drawn with: the context resolved.
private struct Context {
    var format = TraceFormat.xy
    /// Channel properties by channel, then name: value and units.
    var properties: [String: [String: (Double, String?)]] = [:]
    var brush = Brush()
    /// Milliseconds on the file's clock.
    var timestamp: Double?
}

/// A stroke before units are known to be page pixels.
private struct RawStroke {
    var pen: RecordedPen
    var widthInValues: Double?
    var xs: [Double] = []
    var ys: [Double] = []
    var pressures: [Float] = []
    var tilts: [Tilt?] = []
    var times: [Double]?
    var start: Double?
    var duration: Double?
    /// Page pixels per value on each axis, when the units are known.
    var scaleX: Double?
    var scaleY: Double?
}

private struct InkMLReader {
    let file: String
    var contexts: [String: XMLElement] = [:]
    var brushes: [String: XMLElement] = [:]
    var formats: [String: XMLElement] = [:]
    var sources: [String: XMLElement] = [:]
    var timestamps: [String: XMLElement] = [:]
    var current = Context()
    var pages: [(size: PageSize?, strokes: [RawStroke], template: PageTemplate?)] = [(nil, [], nil)]
    var totalPoints = 0
    var title: String?
    /// Inkwell's own annotations: the note's tags (`inkwell:tags`) and typed text (`inkwell:text`).
    var tags: [Tag] = []
    var typedText = ""
    var created: Date?
    var skippedHover = 0
    /// Traces left out for a bad value, each alone (the rest of the file is imported).
    var recovery = Recovery()
    /// Traces that later traces continue (`continuation="begin"` or `"middle"` with an `xml:id`): where
    /// their stroke is and the decoding state at their end.
    var continuable: [String: Continuation] = [:]
    /// Continuation traces whose `priorRef` names no earlier trace on the same page.
    var unmatchedContinuations = 0
    /// Traces drawn with a brush naming a colour or tool Inkwell does not know, by what it names.
    var unknownBrush: [String: Int] = [:]

    /// A stroke that a continuation trace goes on drawing.
    struct Continuation {
        var page: Int
        var stroke: Int
        var state: [ChannelState]
        var lastX: Double?
        var lastY: Double?
    }
    var traceNumber = 0

    init(file: String) { self.file = file }

    func fail(_ element: XMLElement, _ reason: String) -> ImportError {
        ImportError(file: file, position: element.position, reason: reason)
    }

    mutating func read(_ root: XMLElement) throws(ImportError) {
        register(root, depth: 0)
        try walk(root, context: current, inGroup: false)
    }

    /// Every element with an id, wherever it is (definitions, contexts, inline).
    mutating func register(_ element: XMLElement, depth: Int) {
        if element.name == "timestamp", created == nil {
            if let text = element["timeString"], let date = parseDate(text) {
                created = date
            } else if let ms = element["time"].flatMap(NumberScanner.leading), ms.isFinite, ms > 0, ms < 1e14 {
                created = Date(timeIntervalSince1970: ms / 1000)
            }
        }
        if let id = element.id {
            switch element.name {
            case "context": contexts[id] = element
            case "brush": brushes[id] = element
            case "traceFormat": formats[id] = element
            case "inkSource": sources[id] = element
            case "timestamp": timestamps[id] = element
            default: break
            }
        }
        for child in element.children { register(child, depth: depth + 1) }
    }

    mutating func walk(_ parent: XMLElement, context: Context, inGroup: Bool) throws(ImportError) {
        var context = context
        for element in parent.children {
            switch element.name {
            case "context" where !inGroup:
                current = try resolve(context: element, base: current, depth: 0)
                context = current
            case "traceFormat" where !inGroup:
                current.format = try traceFormat(element)
                context = current
            case "inkSource" where !inGroup:
                try apply(inkSource: element, to: &current, depth: 0)
                context = current
            case "brush" where !inGroup && element.id == nil:
                current.brush = try brush(element, depth: 0)
                context = current
            case "timestamp" where !inGroup:
                if let time = try timestamp(element, depth: 0) { current.timestamp = time }
                context = current
            case "annotation":
                let type = element["type"] ?? ""
                if type == "title", !inGroup, title == nil {
                    let text = element.text.trimmingCharacters(in: .whitespacesAndNewlines)
                    if !text.isEmpty { title = String(text.prefix(200)) }
                } else if type == "inkwell:page" {
                    let values = NumberScanner.list(element.text, limit: 2).values
                    var size: PageSize?
                    if values.count == 2, values.allSatisfy({ $0 > 0 && $0 <= Double(ImportLimits.coordinate) }) {
                        size = PageSize(width: Float(values[0]), height: Float(values[1]))
                    }
                    if pages.count == 1 && pages[0].strokes.isEmpty && pages[0].size == nil {
                        pages[0].size = size
                    } else {
                        pages.append((size, [], nil))
                    }
                } else if type == "inkwell:template" {
                    pages[pages.count - 1].template = Self.template(element.text)
                } else if type == "inkwell:tags", !inGroup {
                    for name in element.text.split(whereSeparator: \.isWhitespace).prefix(10_000) {
                        if let tag = Tag(String(name)), !tags.contains(tag) { tags.append(tag) }
                    }
                } else if type == "inkwell:text", !inGroup, typedText.isEmpty {
                    typedText = element.text
                }
            case "traceGroup":
                let local = try overrides(element, context)
                try walk(element, context: local, inGroup: true)
            case "trace":
                traceNumber += 1
                try trace(element, context: try overrides(element, context))
            default:
                break
            }
        }
    }

    /// A page's template from Inkwell's `inkwell:template` annotation (``PageTemplate`` as JSON), with no
    /// PDF under it; nil when it is not one, or holds more than a page file keeps (printed lines, their
    /// bytes, layers, their names) or a spacing that is not a positive finite number.
    static func template(_ json: String) -> PageTemplate? {
        guard json.utf8.count <= 1 << 24,
              var template = try? JSONDecoder().decode(PageTemplate.self, from: Data(json.utf8)) else { return nil }
        template.background = nil
        guard template.spacing.isFinite, template.spacing > 0, template.spacing <= ImportLimits.coordinate,
              template.printed.count <= PrintedLine.maxPerPage,
              template.printed.allSatisfy({ $0.text.utf8.count <= PrintedLine.maxBytes && $0.x.isFinite && $0.baseline.isFinite && $0.size.isFinite }),
              template.layers.count <= PageLayer.maxPerPage,
              template.layers.allSatisfy({ $0.name.utf8.count <= PageLayer.maxNameBytes }),
              template.unitsPerInch.map({ $0.isFinite && PageTemplate.unitsPerInchRange.contains($0) }) ?? true else { return nil }
        return template
    }

    /// The context of an element with `contextRef` / `brushRef` attributes.
    func overrides(_ element: XMLElement, _ context: Context) throws(ImportError) -> Context {
        var context = context
        if let ref = element["contextRef"] {
            guard let target = contexts[id(ref)] else { throw fail(element, "contextRef \"\(ref)\" names no context") }
            context = try resolve(context: target, base: context, depth: 0)
        }
        if let ref = element["brushRef"] {
            guard let target = brushes[id(ref)] else { throw fail(element, "brushRef \"\(ref)\" names no brush") }
            context.brush = try brush(target, depth: 0)
        }
        return context
    }

    func id(_ reference: String) -> String {
        let trimmed = reference.trimmingCharacters(in: .whitespaces)
        if let hash = trimmed.lastIndex(of: "#") { return String(trimmed[trimmed.index(after: hash)...]) }
        return trimmed
    }

    func resolve(context element: XMLElement, base: Context, depth: Int) throws(ImportError) -> Context {
        guard depth < 32 else { throw fail(element, "contexts refer to each other in a loop") }
        var context = base
        if let ref = element["contextRef"] {
            guard let target = contexts[id(ref)] else { throw fail(element, "contextRef \"\(ref)\" names no context") }
            context = try resolve(context: target, base: base, depth: depth + 1)
        }
        if let ref = element["inkSourceRef"] {
            guard let target = sources[id(ref)] else { throw fail(element, "inkSourceRef \"\(ref)\" names no inkSource") }
            try apply(inkSource: target, to: &context, depth: depth + 1)
        }
        if let ref = element["traceFormatRef"] {
            guard let target = formats[id(ref)] else { throw fail(element, "traceFormatRef \"\(ref)\" names no traceFormat") }
            context.format = try traceFormat(target)
        }
        if let ref = element["brushRef"] {
            guard let target = brushes[id(ref)] else { throw fail(element, "brushRef \"\(ref)\" names no brush") }
            context.brush = try brush(target, depth: depth + 1)
        }
        if let ref = element["timestampRef"] {
            guard let target = timestamps[id(ref)] else { throw fail(element, "timestampRef \"\(ref)\" names no timestamp") }
            if let time = try timestamp(target, depth: depth + 1) { context.timestamp = time }
        }
        for child in element.children {
            switch child.name {
            case "inkSource": try apply(inkSource: child, to: &context, depth: depth + 1)
            case "traceFormat": context.format = try traceFormat(child)
            case "brush": context.brush = try brush(child, depth: depth + 1)
            case "timestamp": if let time = try timestamp(child, depth: depth + 1) { context.timestamp = time }
            default: break
            }
        }
        return context
    }

    func apply(inkSource element: XMLElement, to context: inout Context, depth: Int) throws(ImportError) {
        guard depth < 32 else { throw fail(element, "inkSources refer to each other in a loop") }
        if let format = element.first("traceFormat") {
            context.format = try traceFormat(format)
        } else if let ref = element["traceFormatRef"], let target = formats[id(ref)] {
            context.format = try traceFormat(target)
        }
        context.properties = [:]
        for properties in element.all("channelProperties") {
            for property in properties.all("channelProperty") {
                guard let channel = property["channel"], let name = property["name"],
                      let text = property["value"], let value = NumberScanner.leading(text), value.isFinite else { continue }
                context.properties[channel, default: [:]][name] = (value, property["units"])
            }
        }
    }

    func traceFormat(_ element: XMLElement) throws(ImportError) -> TraceFormat {
        if element.children.isEmpty, let ref = element["href"] ?? element["traceFormatRef"], let target = formats[id(ref)], target !== element {
            return try traceFormat(target)
        }
        var format = TraceFormat(regular: [])
        func channel(_ element: XMLElement) -> Channel? {
            guard let name = element["name"] else { return nil }
            return Channel(name: name, units: element["units"], min: element["min"].flatMap(NumberScanner.leading),
                           max: element["max"].flatMap(NumberScanner.leading), negative: element["orientation"] == "-ve")
        }
        for child in element.children {
            switch child.name {
            case "channel": if let c = channel(child) { format.regular.append(c) }
            case "regularChannels": format.regular += child.all("channel").compactMap(channel)
            case "intermittentChannels": format.intermittent += child.all("channel").compactMap(channel)
            default: break
            }
        }
        guard format.regular.count + format.intermittent.count <= 64 else { throw fail(element, "a trace format with more than 64 channels") }
        if format.regular.isEmpty && format.intermittent.isEmpty { return .xy }
        return format
    }

    func brush(_ element: XMLElement, depth: Int) throws(ImportError) -> Brush {
        guard depth < 32 else { throw fail(element, "brushes refer to each other in a loop") }
        var brush = Brush()
        if let ref = element["brushRef"], let target = brushes[id(ref)], target !== element {
            brush = try self.brush(target, depth: depth + 1)
        }
        var transparency = 0.0
        var rasterOp: String?
        var tip: String?
        for property in element.all("brushProperty") {
            guard let name = property["name"], let value = property["value"] else { continue }
            switch name {
            case "color":
                if let color = RGBA(hex: value) ?? namedColor(value) {
                    brush.color = RGBA(red: color.red, green: color.green, blue: color.blue, alpha: brush.color.alpha)
                    if value.count == 9 { brush.color.alpha = color.alpha }
                } else {
                    brush.unknown.insert("colour \"\(value.prefix(40))\"")
                }
            case "width":
                if let width = NumberScanner.leading(value), width.isFinite, width > 0 {
                    brush.width = width
                    brush.widthUnits = property["units"]
                }
            case "transparency":
                if let t = NumberScanner.leading(value), t.isFinite { transparency = min(max(t, 0), 255) }
            case "rasterOp": rasterOp = value
            case "tip": tip = value
            case "ignorePressure": brush.ignorePressure = value == "1" || value.lowercased() == "true"
            case "inkwell:tool":
                if let tool = Tool(name: value) { brush.tool = tool } else { brush.unknown.insert("tool \"\(value.prefix(40))\"") }
            case "inkwell:dash":
                let lengths = value.split(separator: " ").compactMap { Float(String($0)) }
                if Stroke.isValidDash(lengths) { brush.dash = lengths }
            case "inkwell:fill":
                if let fill = NumberScanner.leading(value), fill.isFinite, fill >= 1 { brush.fill = UInt8(min(255, fill)) }
            case "inkwell:layer":
                if let layer = UInt16(value), Int(layer) < PageLayer.maxPerPage { brush.layer = layer }
            default: break
            }
        }
        if transparency > 0 { brush.color.alpha = UInt8(255 - transparency.rounded()) }
        if rasterOp == "maskPen" || (tip == "rectangle" && transparency > 0) {
            brush.tool = .highlighter
        } else if let tip, tip != "ellipse" {
            // An opaque rectangle (a chisel pen) or another tip: Inkwell's strokes have round ends.
            brush.unknown.insert("tip \"\(tip.prefix(40))\"")
        }
        return brush
    }

    func namedColor(_ name: String) -> RGBA? {
        switch name.lowercased() {
        case "black": .black
        case "white": .white
        case "red": RGBA(red: 255, green: 0, blue: 0)
        case "green": RGBA(red: 0, green: 128, blue: 0)
        case "blue": RGBA(red: 0, green: 0, blue: 255)
        case "yellow": RGBA(red: 255, green: 255, blue: 0)
        case "gray", "grey": RGBA(red: 128, green: 128, blue: 128)
        default: nil
        }
    }

    /// A timestamp in milliseconds on the file's clock.
    func timestamp(_ element: XMLElement, depth: Int) throws(ImportError) -> Double? {
        guard depth < 32 else { throw fail(element, "timestamps refer to each other in a loop") }
        var base: Double?
        if let time = element["time"].flatMap(NumberScanner.leading), time.isFinite {
            base = time
        } else if let text = element["timeString"], let date = parseDate(text) {
            base = date.timeIntervalSince1970 * 1000
        } else if let ref = element["timestampRef"], let target = timestamps[id(ref)], target !== element {
            base = try timestamp(target, depth: depth + 1)
        }
        if let offset = element["timeOffset"].flatMap(NumberScanner.leading), offset.isFinite {
            base = (base ?? 0) + offset
        }
        return base
    }

    func parseDate(_ text: String) -> Date? {
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = iso.date(from: text) { return date }
        iso.formatOptions = [.withInternetDateTime]
        if let date = iso.date(from: text) { return date }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        for format in ["yyyy-MM-dd'T'HH:mm:ss.SSS", "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd HH:mm:ss"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }

    // MARK: Traces

    mutating func trace(_ element: XMLElement, context: Context) throws(ImportError) {
        if let type = element["type"], type == "penUp" {
            skippedHover += 1
            return
        }
        let format = context.format
        let channels = format.regular + format.intermittent
        func index(_ names: String...) -> Int? { channels.firstIndex { names.contains($0.name) } }
        guard let xi = index("X", "x"), let yi = index("Y", "y") else {
            throw fail(element, "the trace format has no X and Y channels")
        }
        var parser = TraceParser(channels: channels, x: xi, y: yi, pressure: index("F", "f"), time: index("T", "t"),
                                 tiltX: index("OTx", "OTX"), tiltY: index("OTy", "OTY"), azimuth: index("OA"), elevation: index("OE"),
                                 position: "\(element.position), trace \(traceNumber)", file: file,
                                 pointsBefore: totalPoints)
        parser.timeScale = parser.time.map { i -> Double in
            switch channels[i].units?.lowercased() {
            case "s": 1000
            case "us", "µs": 0.001
            default: 1
            }
        } ?? 1
        parser.angleFactors = channels.map { channel in
            var factor = channel.units?.lowercased() == "rad" ? 1.0 : Double.pi / 180
            if let (resolution, _) = context.properties[channel.name]?["resolution"], resolution > 0 { factor /= resolution }
            return factor
        }
        parser.traceStart = (context.timestamp ?? 0) + (element["timeOffset"].flatMap(NumberScanner.leading) ?? 0)
        // A continuation trace (`continuation="middle|end" priorRef="#id"`) is the same stroke going on:
        // its points join the prior trace's stroke, and its values decode as if the two were one trace.
        var prior: Continuation?
        if let kind = element["continuation"], kind == "middle" || kind == "end" {
            if let reference = element["priorRef"], let found = continuable[id(reference)], found.page == pages.count - 1,
               found.state.count == channels.count {
                prior = found
                parser.state = found.state
                parser.lastX = found.lastX
                parser.lastY = found.lastY
            } else {
                unmatchedContinuations += 1
            }
        }
        var text = element.text
        let hasCommas = text.utf8.contains(UInt8(ascii: ","))
        var failure: ImportError?
        text.withUTF8 { p in
            do throws(ImportError) { try parser.parse(p, hasCommas: hasCommas) } catch { failure = error }
        }
        if let failure {
            // A bad value costs its trace only; a file over the size limits is still refused.
            if failure.exceedsLimits { throw failure }
            recovery.note("trace skipped", "traces skipped", failure)
            return
        }
        totalPoints = parser.totalPoints
        guard !parser.xs.isEmpty else { return }

        for unknown in context.brush.unknown { unknownBrush[unknown, default: 0] += 1 }
        var stroke = RawStroke(pen: RecordedPen(tool: context.brush.tool, color: context.brush.color, width: 2, layer: context.brush.layer,
                                                fill: context.brush.fill, dash: context.brush.dash))
        stroke.scaleX = scale(channels[xi], context)
        stroke.scaleY = scale(channels[yi], context)
        if let width = context.brush.width {
            if let units = context.brush.widthUnits, let inches = inchesPerUnit(units) {
                stroke.pen.width = Float(width * inches * InkMLDecoder.pixelsPerInch)
            } else {
                stroke.widthInValues = width
            }
        }
        stroke.xs = parser.xs
        stroke.ys = parser.ys
        stroke.tilts = parser.tilts
        // Pressure to 0…1: by the channel's declared range, else by the largest value in the trace.
        var low = 0.0, high = 1.0
        if let fi = parser.pressure, let max = channels[fi].max, max > (channels[fi].min ?? 0) {
            low = channels[fi].min ?? 0
            high = max
        } else if let observed = parser.rawPressures.filter({ $0.isFinite }).max(), observed > 1 {
            high = observed
        }
        let ignore = context.brush.ignorePressure || parser.pressure == nil
        stroke.pressures = parser.rawPressures.map { raw in
            guard raw.isFinite, !ignore, high > low else { return 0.5 }
            return Float(min(max((raw - low) / (high - low), 0), 1))
        }
        if parser.times.count == parser.xs.count {
            stroke.times = parser.times.map { $0 / 1000 }
        } else if element["timeOffset"] != nil || context.timestamp != nil {
            stroke.start = parser.traceStart / 1000
        }
        if let duration = element["duration"].flatMap(NumberScanner.leading), duration.isFinite, duration > 0 {
            stroke.duration = duration / 1000
        }
        let page = pages.count - 1
        var index = pages[page].strokes.count
        if let prior {
            index = prior.stroke
            var joined = pages[page].strokes[index]
            joined.xs += stroke.xs
            joined.ys += stroke.ys
            joined.pressures += stroke.pressures
            joined.tilts += stroke.tilts
            joined.times = joined.times.flatMap { before in stroke.times.map { before + $0 } }
            pages[page].strokes[index] = joined
        } else {
            pages[page].strokes.append(stroke)
        }
        if let kind = element["continuation"], kind == "begin" || kind == "middle", let name = element.id {
            continuable[name] = Continuation(page: page, stroke: index, state: parser.state, lastX: parser.lastX, lastY: parser.lastY)
        }
    }

    /// Page pixels per value of a coordinate channel, when its units are known.
    func scale(_ channel: Channel, _ context: Context) -> Double? {
        if let (resolution, units) = context.properties[channel.name]?["resolution"], resolution > 0 {
            // units "1/cm": `resolution` values per cm.
            let unit = units.map { $0.hasPrefix("1/") ? String($0.dropFirst(2)) : $0 } ?? channel.units
            if let unit, let inches = inchesPerUnit(unit) { return inches / resolution * InkMLDecoder.pixelsPerInch }
            return nil
        }
        if let units = channel.units, let inches = inchesPerUnit(units) { return inches * InkMLDecoder.pixelsPerInch }
        return nil
    }

    func inchesPerUnit(_ units: String) -> Double? {
        switch units.lowercased() {
        case "in": 1
        case "cm": 1 / 2.54
        case "mm": 1 / 25.4
        case "m": 100 / 2.54
        case "himetric": 1 / 2540
        case "pt": 1 / 72
        case "pc": 1 / 6
        case "inkwell:px": 1 / InkMLDecoder.pixelsPerInch
        default: nil
        }
    }

    // MARK: Layout

    mutating func finish() throws(ImportError) -> Recording {
        var imported: [ImportedPage] = []
        var strokeCount = 0
        for page in pages {
            var laidOut = layout(page.strokes, size: page.size)
            if let template = page.template { laidOut.template = template }
            imported.append(laidOut)
            strokeCount += page.strokes.count
        }
        guard strokeCount > 0 || pages.contains(where: { $0.size != nil }) else {
            throw recovery.firstProblem ?? ImportError(file: file, reason: "the InkML holds no pen traces")
        }
        for page in imported {
            for stroke in page.strokes {
                for point in stroke.points where !(point.x.isFinite && point.y.isFinite
                    && abs(point.x) <= ImportLimits.coordinate && abs(point.y) <= ImportLimits.coordinate) {
                    throw ImportError(file: file, reason: "a point lands at (\(point.x), \(point.y)), beyond ±\(Int(ImportLimits.coordinate)) px")
                }
            }
        }
        let note = RecordedNote(title: title, created: created, tags: tags, events: ImportedPage.events(imported), typedText: typedText)
        var recording = Recording(notes: [note], format: "inkml")
        recording.warnings += recovery.warnings
        if unmatchedContinuations > 0 {
            recording.warnings.append("\(file): \(unmatchedContinuations) continuation trace\(unmatchedContinuations == 1 ? "" : "s") whose priorRef names no earlier trace on the page: kept as \(unmatchedContinuations == 1 ? "a stroke" : "strokes") of \(unmatchedContinuations == 1 ? "its" : "their") own")
        }
        for (unknown, count) in unknownBrush.sorted(by: { $0.key < $1.key }) {
            let traces = "\(file): \(count) trace\(count == 1 ? "" : "s") with a brush \(unknown)"
            if unknown.hasPrefix("tip") {
                recording.warnings.append("\(traces), drawn with a round tip (Inkwell's strokes have round ends)")
                continue
            }
            let drawn = unknown.hasPrefix("tool") ? "drawn with the tool it has without it (the pen by default)"
                : "drawn in the colour it has without it (black by default)"
            recording.warnings.append("\(traces), which Inkwell does not know, \(drawn)")
        }
        if skippedHover > 0 {
            recording.warnings.append("\(file): \(skippedHover) hover trace\(skippedHover == 1 ? "" : "s") (type=\"penUp\") skipped: they are not ink")
        }
        return recording
    }

    /// Converts a page's raw strokes to page pixels: known units as they are (the page grows to hold them),
    /// unknown units scaled to fit the page.
    func layout(_ raws: [RawStroke], size declared: PageSize?) -> ImportedPage {
        let base = declared ?? .remarkable
        let allKnown = raws.allSatisfy { $0.scaleX != nil && $0.scaleY != nil }
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for raw in raws {
            let sx = allKnown ? raw.scaleX ?? 1 : 1, sy = allKnown ? raw.scaleY ?? 1 : 1
            for x in raw.xs { minX = min(minX, x * sx); maxX = max(maxX, x * sx) }
            for y in raw.ys { minY = min(minY, y * sy); maxY = max(maxY, y * sy) }
        }
        var fit = !allKnown
        let hasPoints = raws.contains { !$0.xs.isEmpty }
        if allKnown, hasPoints, !(minX.isFinite && minY.isFinite && maxX.isFinite && maxY.isFinite) {
            // Resolutions so extreme that the page pixels overflow: fit the raw values instead.
            return layout(raws.map { var raw = $0; raw.scaleX = nil; raw.scaleY = nil; return raw }, size: declared)
        }
        let limit = 10 * Double(max(base.width, base.height))
        if allKnown, maxX - minX > limit || maxY - minY > limit || abs(minX) > limit || abs(minY) > limit
            || abs(maxX) > limit || abs(maxY) > limit {
            fit = true
        }
        var scale = 1.0, offsetX = 0.0, offsetY = 0.0
        var size = base
        if fit, minX.isFinite {
            let margin = Double(min(base.width, base.height)) * 0.05
            let width = maxX - minX, height = maxY - minY
            let availableW = Double(base.width) - 2 * margin, availableH = Double(base.height) - 2 * margin
            if width > 0 || height > 0 {
                scale = min(width > 0 ? availableW / width : .infinity, height > 0 ? availableH / height : .infinity)
            }
            if !scale.isFinite || scale <= 0 { scale = 1 }
            offsetX = margin + (availableW - width * scale) / 2 - minX * scale
            offsetY = margin + (availableH - height * scale) / 2 - minY * scale
        } else if minX.isFinite, declared == nil {
            size.width = max(size.width, Float((maxX + 20).rounded(.up)))
            size.height = max(size.height, Float((maxY + 20).rounded(.up)))
        }
        var page = ImportedPage(size: size)
        // Units the file states are page pixels at Inkwell's resolution; values fitted to a page have none.
        if !fit { page.template.unitsPerInch = Float(InkMLDecoder.pixelsPerInch) }
        for raw in raws {
            let sx = fit ? scale * (allKnown ? raw.scaleX ?? 1 : 1) : raw.scaleX ?? 1
            let sy = fit ? scale * (allKnown ? raw.scaleY ?? 1 : 1) : raw.scaleY ?? 1
            var points: [RecordedPoint] = []
            points.reserveCapacity(raw.xs.count)
            for i in raw.xs.indices {
                points.append(RecordedPoint(x: Float(raw.xs[i] * sx + offsetX), y: Float(raw.ys[i] * sy + offsetY),
                                            pressure: raw.pressures[i], tilt: raw.tilts[i]))
            }
            var pen = raw.pen
            if let width = raw.widthInValues {
                let w = width * (sx + sy) / 2
                pen.width = Float(w.isFinite && w > 0 ? w : 2)
            }
            pen.width = min(max(pen.width.isFinite ? pen.width : 2, 0.1), ImportLimits.maxWidth)
            var times = raw.times
            if times == nil, let start = raw.start {
                if let duration = raw.duration, points.count > 1 {
                    times = points.indices.map { start + duration * Double($0) / Double(points.count - 1) }
                } else {
                    times = SyntheticTiming.strokeTimes(points, start: start)
                }
            }
            page.strokes.append(ImportedStroke(pen: pen, points: points, times: times))
        }
        return page
    }
}

/// A channel's difference decoding: the mode carries over until the next prefix.
private struct ChannelState {
    /// 0 explicit, 1 first differences, 2 second differences.
    var mode = 0
    var value = 0.0
    var delta = 0.0
    var has = false

    /// The channel's value after `value` (nil: `?`, unknown; star: `*`, same as before).
    mutating func apply(prefix: UInt8, value raw: Double?, star: Bool) -> Double? {
        switch prefix {
        case 0x21: mode = 0
        case 0x27: mode = 1
        case 0x22: mode = 2
        default: break
        }
        if star { return has ? value : nil }
        guard let raw else { return nil }
        switch mode {
        case 1:
            delta = raw
            value += raw
        case 2:
            delta += raw
            value += delta
        default:
            delta = has ? raw - value : 0
            value = raw
        }
        has = true
        return value
    }
}

/// Reads one trace's values into points: a plain struct (no captured variables, so no boxing or dynamic
/// exclusivity checks in the inner loop).
private struct TraceParser {
    let channels: [Channel]
    let x: Int, y: Int
    let pressure: Int?, time: Int?
    let tiltX: Int?, tiltY: Int?, azimuth: Int?, elevation: Int?
    let position: String
    let file: String
    var totalPoints: Int
    var timeScale = 1.0
    var angleFactors: [Double] = []
    var traceStart = 0.0

    var values: [Double]
    var known: [Bool]
    var state: [ChannelState]
    var count = 0
    var prefix: UInt8 = 0
    var pointNumber = 0
    var lastX: Double?
    var lastY: Double?
    var xs: [Double] = []
    var ys: [Double] = []
    var rawPressures: [Double] = []
    var tilts: [Tilt?] = []
    var times: [Double] = []

    init(channels: [Channel], x: Int, y: Int, pressure: Int?, time: Int?, tiltX: Int?, tiltY: Int?, azimuth: Int?,
         elevation: Int?, position: String, file: String, pointsBefore: Int) {
        self.channels = channels
        self.x = x
        self.y = y
        self.pressure = pressure
        self.time = time
        self.tiltX = tiltX
        self.tiltY = tiltY
        self.azimuth = azimuth
        self.elevation = elevation
        self.position = position
        self.file = file
        self.totalPoints = pointsBefore
        values = [Double](repeating: 0, count: channels.count)
        known = [Bool](repeating: false, count: channels.count)
        state = [ChannelState](repeating: ChannelState(), count: channels.count)
    }

    func fail(_ reason: String) -> ImportError {
        ImportError(file: file, position: "\(position), point \(pointNumber + 1)", reason: reason)
    }

    mutating func parse(_ p: UnsafeBufferPointer<UInt8>, hasCommas: Bool) throws(ImportError) {
        var i = 0
        let n = p.count
        while i < n {
            let c = p[i]
            switch c {
            case 0x20, 0x09, 0x0A, 0x0D:
                i += 1
            case 0x2C: // ,
                try finishPoint()
                i += 1
            case 0x21, 0x27, 0x22: // ! ' "
                prefix = c
                i += 1
            case 0x2D, 0x2B, 0x2E, 0x30...0x39: // - + . digits
                var negative = false
                if c == 0x2D || c == 0x2B {
                    negative = c == 0x2D
                    i += 1
                    while i < n, p[i] == 0x20 || p[i] == 0x09 || p[i] == 0x0A || p[i] == 0x0D { i += 1 }
                }
                guard let value = NumberScanner.unsignedNumber(p, &i) else { throw fail("a sign without a number") }
                try store(negative ? -value : value, hasCommas: hasCommas)
            case 0x23: // #hex
                i += 1
                var value: UInt64 = 0
                var digits = 0
                while i < n, let digit = TraceParser.hexDigit(p[i]) {
                    if digits < 16 { value = value << 4 | UInt64(digit) }
                    digits += 1
                    i += 1
                }
                guard digits > 0 else { throw fail("\"#\" without hexadecimal digits") }
                try store(Double(value), hasCommas: hasCommas)
            case 0x54, 0x46: // T F
                i += 1
                try store(c == 0x54 ? 1 : 0, hasCommas: hasCommas)
            case 0x2A: // *
                i += 1
                try store(nil, star: true, hasCommas: hasCommas)
            case 0x3F: // ?
                i += 1
                try store(nil, hasCommas: hasCommas)
            default:
                let shown = c >= 0x20 && c < 0x7F ? "\"\(Character(Unicode.Scalar(c)))\"" : "byte 0x\(String(c, radix: 16))"
                throw fail("unexpected \(shown) in trace data")
            }
        }
        try finishPoint()
    }

    static func hexDigit(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: c - 0x30
        case 0x41...0x46: c - 0x41 + 10
        case 0x61...0x66: c - 0x61 + 10
        default: nil
        }
    }

    mutating func store(_ value: Double?, star: Bool = false, hasCommas: Bool) throws(ImportError) {
        if count >= channels.count {
            // Without commas (early drafts) a point ends when every channel has a value.
            guard !hasCommas else { throw fail("a point has more values than the \(channels.count) channels of its trace format") }
            try finishPoint()
        }
        let result = state[count].apply(prefix: prefix, value: value, star: star)
        values[count] = result ?? 0
        known[count] = result != nil
        prefix = 0
        count += 1
    }

    mutating func finishPoint() throws(ImportError) {
        let n = count
        count = 0
        defer {
            for k in 0..<known.count { known[k] = false }
            pointNumber += 1
        }
        guard n > 0 else { return }
        let px = x < n && known[x] ? values[x] : lastX
        let py = y < n && known[y] ? values[y] : lastY
        guard var px, var py else { return }
        for value in [px, py] {
            guard value.isFinite else { throw fail("coordinate \(value) is not a finite number") }
            guard abs(value) < 1e15 else { throw fail("coordinate \(value) is out of range (beyond ±1e15)") }
        }
        lastX = px
        lastY = py
        if channels[x].negative { px = -px }
        if channels[y].negative { py = -py }
        xs.append(px)
        ys.append(py)
        if let f = pressure, f < n, known[f], values[f].isFinite {
            rawPressures.append(values[f])
        } else {
            rawPressures.append(.nan)
        }
        if let t = time, t < n, known[t], values[t].isFinite { times.append(traceStart + values[t] * timeScale) }
        var tilt: Tilt?
        if let a = tiltX, let b = tiltY, a < n, b < n, known[a], known[b] {
            let tx = values[a] * angleFactors[a], ty = values[b] * angleFactors[b]
            if tx.isFinite, ty.isFinite, abs(tx) < 1.57, abs(ty) < 1.57, tx != 0 || ty != 0 {
                let ta = tan(tx), tb = tan(ty)
                tilt = Tilt(altitude: Float(atan(1 / max((ta * ta + tb * tb).squareRoot(), 1e-9))), azimuth: Float(atan2(tb, ta)))
            }
        } else if let a = azimuth, let e = elevation, a < n, e < n, known[a], known[e] {
            let az = values[a] * angleFactors[a], el = values[e] * angleFactors[e]
            if az.isFinite, el.isFinite, el > 0, el <= Double.pi / 2 + 1e-6, abs(az) <= 7 {
                tilt = Tilt(altitude: Float(el), azimuth: Float(az))
            }
        }
        tilts.append(tilt)
        totalPoints += 1
        if xs.count > ImportLimits.pointsPerStroke { throw fail("a stroke has more than \(ImportLimits.pointsPerStroke) points").exceedingLimits() }
        if totalPoints > ImportLimits.pointsPerFile { throw fail("the file has more than \(ImportLimits.pointsPerFile) points").exceedingLimits() }
    }
}
