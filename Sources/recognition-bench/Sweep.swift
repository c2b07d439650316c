import Foundation
import InkCore
import InkRecognize
import InkRender
import InkSamples

/// One choice measured against the defaults.
struct Variant {
    var name: String
    var options: RecognitionOptions
    var knownTags = true
}

/// Every choice the defaults rest on, each changed alone from the defaults.
func sweepVariants(_ filter: String?) -> [Variant] {
    let base = RecognitionOptions()
    func variant(_ name: String, _ change: (inout RecognitionOptions) -> Void) -> Variant {
        var options = base
        change(&options)
        return Variant(name: name, options: options)
    }
    /// One image per line, drawn as the single-render knobs say (the defaults before the renders vote).
    func classic(_ name: String, _ change: (inout RecognitionOptions) -> Void = { _ in }) -> Variant {
        variant("one image: " + name) { $0.renders = []; change(&$0) }
    }
    var variants: [Variant] = [Variant(name: "defaults", options: base)]
    variants.append(Variant(name: "defaults, no known tags", options: base, knownTags: false))
    variants.append(Variant(name: "fast (first render only)", options: RecognitionOptions(quality: .fast)))
    for (number, render) in RecognitionOptions.bestRenders.enumerated().dropFirst() {
        variants.append(variant("render \(number + 1) only (\(Int(render.xHeight)) px, pen \(render.pen), deslant \(render.deslant ? "on" : "off"))") {
            $0.renders = [render]
        })
    }
    variants.append(variant("slot gap 0.7 x-height") { $0.slotGap = 0.7 })
    variants.append(variant("slot gap 1.5 x-heights") { $0.slotGap = 1.5 })
    variants.append(variant("lines by geometry") { $0.lineFinding = .geometry })
    variants.append(classic("ink spread 12 px, pen 2.5 px"))
    for height in [10.0, 14, 16, 18] {
        variants.append(classic("ink spread \(Int(height)) px") { $0.textHeight = height })
    }
    for height in [20.0, 24, 28] {
        variants.append(classic("stroke height \(Int(height)) px") { $0.textHeight = height; $0.sizeMeasure = .strokeHeight })
    }
    for scale in [1.0, 1.5, 2.0] {
        variants.append(classic("fixed scale \(scale)x") { $0.textHeight = nil; $0.scale = scale })
    }
    for width in [1.5, 2.0, 3.0, 3.5, 4.5] {
        variants.append(classic("pen \(width) px") { $0.pen = .centerline(width: width) })
    }
    variants.append(classic("outline (InkRender pen style) 2.5 px") { $0.pen = .outline(width: 2.5, style: .pen) })
    variants.append(classic("outline (InkRender fineliner) 2.5 px") { $0.pen = .outline(width: 2.5, style: .fineliner) })
    variants.append(variant("no antialiasing") { $0.antialias = false })
    variants.append(classic("deslant") { $0.deslant = true })
    variants.append(variant("psm 13 (raw line)") { $0.lineSegmentation = .rawLine })
    variants.append(variant("psm 6 (block) per line") { $0.lineSegmentation = .singleBlock })
    variants.append(variant("textord_noise_rejrows on") { $0.rejectNoiseRows = true })
    variants.append(variant("no # from strokes") { $0.detectHashMarks = false })
    variants.append(variant("no letter alternatives for tags") { $0.tagAlternatives = false })
    variants.append(variant("no spelling from letter choices") { $0.spellFromChoices = false })
    variants.append(variant("no votes for words other lines read") { $0.pageWordVotes = 0 })
    variants.append(variant("no numbered lists") { $0.listNumberAllowance = 0 })
    variants.append(variant("no second look at unknown tags") { $0.secondLookScales = [] })
    variants.append(variant("no confidence needed for unknown tags") { $0.newTagConfidence = 0 })
    variants.append(variant("whole page, psm 3") { $0.layout = .page })
    variants.append(variant("whole page, psm 6") { $0.layout = .page; $0.pageSegmentation = .singleBlock })
    variants.append(variant("resolution 70 ppi") { $0.resolution = 70 })
    variants.append(variant("resolution 150 ppi") { $0.resolution = 150 })
    variants.append(variant("padding 4 px") { $0.padding = 4 })
    variants.append(variant("padding 30 px") { $0.padding = 30 })
    variants.append(variant("tessedit_do_invert 0") { $0.tesseractVariables["tessedit_do_invert"] = "0" })
    variants.append(variant("no dictionary (load_*_dawg off)") {
        $0.tesseractVariables["load_system_dawg"] = "0"
        $0.tesseractVariables["load_freq_dawg"] = "0"
    })
    variants.append(variant("whitelist letters, digits, space, .,-'#") {
        $0.tesseractVariables["tessedit_char_whitelist"] =
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,;:-'!?()#/"
    })
    if filter == "grid" {
        var grid: [Variant] = []
        for height in [12.0, 14, 16] {
            for width in [1.5, 2.0, 2.5, 3.0] {
                grid.append(variant("text height \(Int(height)) px, pen \(width) px") {
                    $0.textHeight = height
                    $0.pen = .centerline(width: width)
                })
            }
        }
        return grid
    }
    guard let filter, !filter.isEmpty else { return variants }
    let wanted = filter.split(separator: ",").map { $0.lowercased() }
    return variants.filter { v in v.name == "defaults" || wanted.contains { v.name.lowercased().contains($0) } }
}

func runSweep(pageCount: Int) throws {
    let filter = ProcessInfo.processInfo.environment["SWEEP"]
    let cells: [(HandwritingStyle, JitterLevel)] = [(.print, .mild), (.print, .strong), (.script, .none), (.script, .mild), (.script, .strong)]
    var sets: [(String, [EvalPage])] = []
    for (style, jitter) in cells {
        sets.append(("\(style) \(jitter)", try evalSet.pages(style: style, jitter: jitter, count: pageCount, seed: 5000)))
    }
    say("Sweep: \(pageCount) generated pages per cell (seed 5000, not the accuracy table's pages); each row changes one choice from the defaults.\n")
    var header = ["variant"]
    for (name, _) in sets { header += ["\(name): words", "CER", "tags", "false"] }
    header.append("CPU s/page")
    row(header)
    row(Array(repeating: "---", count: header.count))
    for variant in sweepVariants(filter) {
        let recognizer = try TesseractRecognizer(knownTags: variant.knownTags ? known : [], options: variant.options)
        var cells: [String] = [variant.name]
        var cpu = 0.0, pages = 0
        for (_, set) in sets {
            let (score, seconds) = try evaluate(recognizer, set)
            cpu += seconds
            pages += set.count
            cells += [percent(score.wordAccuracy), percent(score.characterErrorRate), "\(score.foundTags)/\(score.truthTags)",
                      "\(score.falseTags)"]
        }
        cells.append(String(format: "%.3f", cpu / Double(max(1, pages))))
        row(cells)
    }
}
