import Foundation
import InkCore

/// Reads reMarkable `.lines` pages of versions 5 and 3 (tablet software before 3.0; a page stays so until
/// it is edited on newer software) into the same ``RemarkableDecoder/Page`` as version 6.
///
/// After the 43-byte header (`reMarkable .lines file, version=5`, padded with spaces), little-endian
/// throughout: `u32` layer count; per layer a `u32` line count; per line `u32` brush, `u32` colour,
/// `u32` padding, `f32` base brush size, in version 5 only a `u32` whose meaning is not known (version 3
/// lacks it: the one difference), `u32` point count; per point six `f32`: x, y, speed, direction, width,
/// pressure. Coordinates are the screen's pixels (1404×1872, 226 dpi) from its top-left corner: unlike
/// version 6, x is not centred.
///
/// Lines become strokes as version 6 lines do (``RemarkableLine/stroke``: the same tools, palette and
/// widths); layers become the page's layers (*Layer N*: the names are kept in the notebook's `.content`,
/// not in the page). Highlighter strokes whose colour field holds a pen colour (black, grey, white) take the
/// tablet's highlighter ink (yellow). Area erasers are skipped with a warning, as in version 6. Speed, direction, the base
/// brush size (the points' widths carry it) and the unknown field are read and dropped.
///
/// Robust against any bytes: a point count is checked against the bytes left before its points are allocated
/// (layer and line counts allocate nothing: each layer and line reads its own bytes or ends the reading);
/// a line with a coordinate that is not finite or beyond ``ImportLimits/coordinate`` is left out alone
/// (its length is known), with a warning; a count that runs past the end (a file cut short, or damaged)
/// ends the reading there, keeping every whole line before it, with a warning. Only a file where no line
/// could be read is refused, with the byte and the reason.
enum RemarkableLinesV5 {
    /// Bytes of a line before its points: brush, colour, padding, base size, (unknown,) point count.
    static func lineHeaderSize(hasUnknownField: Bool) -> Int { hasUnknownField ? 24 : 20 }
    static let pointSize = 24

    static func decodePage(_ bytes: [UInt8], hasUnknownField: Bool, file: String, growing: Bool) throws(ImportError) -> RemarkableDecoder.Page {
        var reader = TaggedReader(bytes: bytes, offset: RemarkableDecoder.headerLength, end: bytes.count, file: file)
        let lineHeader = lineHeaderSize(hasUnknownField: hasUnknownField)
        var strokes: [ImportedStroke] = []
        var layers: [PageLayer] = []
        var recovery = Recovery()
        var damage: ImportError?
        var areaErasers = 0
        var mappings = RemarkableMappings()
        var totalPoints = 0

        func damaged(_ reason: String) { damage = reader.fail(reason) }

        reading: do {
            guard reader.end - reader.offset >= 4 else {
                damaged("the file ends before its layer count")
                break reading
            }
            // The counts bound no allocation: each layer and line reads its bytes or ends the reading, so a
            // count beyond what the file holds (cut short, or damaged) costs only what is not there.
            let layerCount = Int(try reader.u32())
            for layer in 0..<layerCount {
                guard reader.end - reader.offset >= 4 else {
                    damaged("the file ends before layer \(layer + 1) of \(layerCount)")
                    break reading
                }
                let lineCount = Int(try reader.u32())
                let index = UInt16(min(layer, PageLayer.maxPerPage - 1))
                if layers.count < PageLayer.maxPerPage { layers.append(PageLayer(name: "Layer \(layer + 1)")) }
                for line in 0..<lineCount {
                    let start = reader.offset
                    guard reader.end - reader.offset >= lineHeader else {
                        damaged("the file ends inside line \(line + 1) of \(lineCount) of layer \(layer + 1)")
                        break reading
                    }
                    let tool = try reader.u32()
                    let color = try reader.u32()
                    _ = try reader.u32() // padding
                    _ = try reader.f32() // base brush size: the points' widths carry it
                    if hasUnknownField { _ = try reader.u32() }
                    let pointCount = Int(try reader.u32())
                    guard pointCount <= (reader.end - reader.offset) / pointSize else {
                        damage = ImportError(file: file, position: "byte \(reader.offset - 4)",
                                             reason: "line \(line + 1) of layer \(layer + 1) claims \(pointCount) points but only \(reader.end - reader.offset) bytes remain")
                        break reading
                    }
                    totalPoints += pointCount
                    guard pointCount <= ImportLimits.pointsPerStroke else {
                        throw ImportError(file: file, position: "byte \(start)", reason: "a stroke has more than \(ImportLimits.pointsPerStroke) points")
                            .exceedingLimits()
                    }
                    guard totalPoints <= ImportLimits.pointsPerFile else {
                        throw ImportError(file: file, position: "byte \(start)", reason: "the file has more than \(ImportLimits.pointsPerFile) points")
                            .exceedingLimits()
                    }
                    let pointsEnd = reader.offset + pointCount * pointSize
                    var line = RemarkableLine(tool: tool, color: color, rgba: nil, points: [], widths: [])
                    line.points.reserveCapacity(pointCount)
                    line.widths.reserveCapacity(pointCount)
                    do {
                        for index in 0..<pointCount {
                            let at = reader.offset
                            let x = try reader.f32(), y = try reader.f32()
                            _ = try reader.f32() // speed
                            _ = try reader.f32() // direction
                            let width = try reader.f32()
                            let pressure = try reader.f32()
                            try RemarkableLine.append(x: x, y: y, pressure: pressure, width: width, to: &line.points, widths: &line.widths,
                                                      index: index, at: at, file: file)
                        }
                    } catch {
                        // A bad value costs its line only: its length is known, so the next one is found.
                        recovery.note("stroke skipped", "strokes skipped", error)
                        reader.offset = pointsEnd
                        continue
                    }
                    if tool == 8 {
                        areaErasers += 1
                    } else if var stroke = line.stroke {
                        stroke.pen.layer = index
                        mappings.count(line)
                        // Before 3.0 a highlighter stroke stored the pen colours (0 black, 1 grey, 2 white), which
                        // are not highlighter inks: the tablet's highlighter is yellow (rmrl, written against these
                        // tablets, paints every highlighter stroke yellow). Other ids keep the palette's inks.
                        if stroke.pen.tool == .highlighter, color <= 2 { stroke.pen.color = RemarkableLine.palette(0, highlighter: true) }
                        strokes.append(stroke)
                    }
                }
            }
        }

        if strokes.isEmpty, let problem = recovery.firstProblem ?? damage { throw problem } // nothing could be kept
        var warnings = recovery.warnings
        if let damage {
            warnings.append(RemarkableDecoder.damageWarning(damage, kept: strokes.count))
        } else if reader.offset < bytes.count {
            let extra = bytes.count - reader.offset
            warnings.append("\(file): \(extra) byte\(extra == 1 ? "" : "s") after the last layer, at byte \(reader.offset), ignored")
        }
        if areaErasers > 0 {
            warnings.append("\(file): \(areaErasers) area eraser\(areaErasers == 1 ? "" : "s") skipped (Inkwell keeps pen strokes and typed text)")
        }
        warnings += mappings.warnings(file: file)
        let page = RemarkableDecoder.layOut(strokes, layers: layers, growing: growing)
        return RemarkableDecoder.Page(page: page, typedText: "", warnings: warnings, layout: .fittedToScreen)
    }
}
