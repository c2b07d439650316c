import Foundation
import InkCore
import InkGeometry

// Reading: drawing a page's lines (or the whole page) as rasters and running Tesseract on them,
// putting each `#` found in the strokes back on its word, and a second look at loosely read hashtags.
extension TesseractRecognizer {
    /// Draws the ink of `page` as recognition sees it (black on white, the OCR pen, at the scale
    /// lines are read at) into a PNG: the image the `tesseract` CLI is compared on.
    public func writeImage(of page: Page, to path: String) throws(RecognitionError) {
        // What the page shows: hidden layers are not read.
        let ink = Erasing.apply(page.visible, mode: options.eraserMode).strokes
        let shapes = ink.enumerated().map { StrokeShape($0.element, index: $0.offset) }
        let candidates = ink.indices.filter { Self.isInk(ink[$0]) && Self.isPlausible(shapes[$0]) }
        guard !candidates.isEmpty else { throw .rasterFailed("the page has no ink") }
        let region = Rect(minX: 0, minY: 0, maxX: Double(page.size.width), maxY: Double(page.size.height))
        let height = LineGrouper.typicalHeight(of: candidates.map { shapes[$0] })
        let lines = LineGrouper.group(shapes: shapes, order: candidates, textHeight: height)
        let raster = try OCRRaster.draw(ink, strokes: candidates, region: region,
                                        scale: pageScale(ink, shapes: shapes, lines: lines, textHeight: height),
                                        padding: 0, pen: options.pen, antialias: options.antialias)
        try raster.writePNG(to: path)
    }

    /// The size of the writing of `strokes` as ``RecognitionOptions/sizeMeasure`` measures it.
    private func size(of ink: [Stroke], _ strokes: [Int], strokeHeight: Double) -> Double {
        switch options.sizeMeasure {
        case .strokeHeight:
            return strokeHeight
        case .inkSpread:
            // A line of dashes or a single flat stroke has no spread: fall back on stroke heights,
            // at the ratio the two have in print.
            let spread = inkSpread(of: ink, indices: strokes)
            return max(spread, 0.35 * strokeHeight)
        }
    }

    /// One scale for a whole page: the median of its lines' sizes brought to ``RecognitionOptions/textHeight``.
    private func pageScale(_ ink: [Stroke], shapes: [StrokeShape], lines: [InkLine], textHeight: Double) -> Double {
        let sizes = lines.map { line in
            size(of: ink, line.strokes, strokeHeight: max(LineGrouper.typicalHeight(of: line.strokes.map { shapes[$0] }), 0.5 * textHeight))
        }
        return scale(forTextHeight: sizes.isEmpty ? textHeight : median(sizes))
    }

    private func scale(forTextHeight textHeight: Double) -> Double {
        guard let target = options.textHeight, textHeight > 0 else { return options.scale }
        return min(8, max(0.1, target / textHeight))
    }

    /// One way of drawing a line: makes its raster at a multiple of the render's scale.
    private typealias LineImage = (_ factor: Double) throws(RecognitionError) -> OCRRaster

    /// The images of a line's strokes `text`: the ``RecognitionOptions/renders`` (x-height and pen
    /// from ``LineMetrics``), or the one image ``RecognitionOptions/textHeight`` and the pen ask for.
    private func images(of ink: [Stroke], shapes: [StrokeShape], text: [Int], lineHeight: Double,
                        textHeight: Double) -> (images: [LineImage], metrics: LineMetrics?) {
        let region = text.reduce(Rect.null) { $0.union(shapes[$1].bounds) }
        let shearOrigin = (region.minY + region.maxY) / 2
        func image(scale: Double, pen: OCRPen, shear: Double) -> LineImage {
            let bounds = shear == 0 ? region : OCRRaster.shearedBounds(ink, strokes: text, shear: shear, origin: shearOrigin)
            return { [options] factor throws(RecognitionError) in
                try OCRRaster.draw(ink, strokes: text, region: bounds, scale: scale * factor, padding: options.padding,
                                   pen: pen, antialias: options.antialias, shear: shear, shearOrigin: shearOrigin)
            }
        }
        guard !options.renders.isEmpty else {
            let scale = scale(forTextHeight: size(of: ink, text, strokeHeight: max(lineHeight, 0.5 * textHeight)))
            var shear = options.deslant ? slant(of: ink, indices: text, textHeight: lineHeight) : 0
            if abs(shear) < 0.03 { shear = 0 }
            return ([image(scale: scale, pen: options.pen, shear: shear)], nil)
        }
        let metrics = LineMetrics(ink, indices: text, strokeHeight: max(lineHeight, 0.5 * textHeight))
        let images = options.renders.map { render in
            let scale = min(8, max(0.1, render.xHeight / metrics.xHeight))
            let shear = render.deslant && abs(metrics.slant) >= 0.03 ? metrics.slant : 0
            return image(scale: scale, pen: .pressure(width: max(1, render.pen * render.xHeight)), shear: shear)
        }
        return (images, metrics)
    }

    /// Reads each line; returns the words, and the other readings the renders' vote weighed.
    func readLines(_ ink: [Stroke], shapes: [StrokeShape], lines: [InkLine], marks: [HashMark],
                           textHeight: Double) throws(RecognitionError) -> (words: [Reading], alternatives: [String]) {
        var markOfStroke: [Int: Int] = [:]
        for (m, mark) in marks.enumerated() { for s in mark.strokes { markOfStroke[s] = m } }
        var readings: [Reading] = []
        var alternatives: [String] = [], kept: Set<String> = []
        func keep(_ reading: String) { if kept.insert(reading).inserted { alternatives.append(reading) } }
        // Every line is read first, then voted, so that each line's vote knows the page's other words.
        // `renders[line][render]`: what each render of each line read; `read[line]`: the rest of the line.
        var renders: [[[Reading]]] = []
        struct ReadLine {
            var slots: [[Int]]
            var weights: [Double]
            var marks: [HashMark]
            var image: LineImage
            var wantAlternatives: Bool
            var keepsChoices: [Bool]
        }
        var read: [ReadLine] = []
        for line in lines {
            let lineNumber = read.count  // the lines read so far
            let text = line.strokes.filter { markOfStroke[$0] == nil }
            let lineMarks = Set(line.strokes.compactMap { markOfStroke[$0] }).sorted().map { marks[$0] }
            guard !text.isEmpty else { continue }
            let lineHeight = LineGrouper.typicalHeight(of: text.map { shapes[$0] })
            let (images, metrics) = images(of: ink, shapes: shapes, text: text, lineHeight: lineHeight, textHeight: textHeight)
            let wantAlternatives = options.tagAlternatives && !snapper.known.isEmpty && !lineMarks.isEmpty
            let slots = metrics.map { WordSlots(shapes: text.map { shapes[$0] }, gap: options.slotGap * $0.xHeight) }
            var perRender: [[Reading]] = []
            var slotsPerRender: [[Int]] = []
            var weights: [Double] = []
            // Whether each render's letter choices stay after spelling (for a hashtag's matching).
            var keepsChoices: [Bool] = []
            // The neural readings first: they win ties, and stand alone when they are the only reader.
            if let neural {
                let lineMetrics = metrics ?? LineMetrics(ink, indices: text, strokeHeight: max(lineHeight, 0.5 * textHeight))
                for (number, stretch) in options.neuralStretches.enumerated() {
                    let raster = try neuralImage(of: ink, shapes: shapes, text: text, metrics: lineMetrics, stretch: stretch)
                    if let folder = options.debugImageFolder {
                        let suffix = options.neuralStretches.count > 1 ? "-n\(number)" : ""
                        try raster.writePNG(to: (folder as NSString).appendingPathComponent("line-\(lineNumber)-neural\(suffix).png"))
                    }
                    var lineReadings = try neural.read(raster).map { reading(of: $0, in: raster, line: lineNumber) }
                    slotsPerRender.append(lineReadings.map { slots?.slot(of: $0.word.box) ?? 0 })
                    attach(lineMarks, to: &lineReadings, textHeight: textHeight)
                    for i in lineReadings.indices { lineReadings[i].listNumber = listNumber(lineReadings[i]) }
                    perRender.append(lineReadings)
                    keepsChoices.append(wantAlternatives)
                    weights.append(options.neuralVotes)
                }
            }
            // Beside the neural readings, a few of Tesseract's renders: the neural ones outweigh the rest.
            let tesseractImages = neural == nil ? images[...] : images.prefix(options.reader == .neural ? 0 : options.rendersBesideNeural)
            for (number, image) in tesseractImages.enumerated() {
                let raster = try image(1)
                if let folder = options.debugImageFolder {
                    let suffix = images.count > 1 ? "-r\(number)" : ""
                    try raster.writePNG(to: (folder as NSString).appendingPathComponent("line-\(lineNumber)\(suffix).png"))
                }
                // Letter choices: for a hashtag on the first image, and for spelling on every image.
                let choicesForTags = wantAlternatives && number == 0
                let found = try recognize(raster, segmentation: options.lineSegmentation,
                                          alternatives: choicesForTags || options.spellFromChoices)
                var lineReadings = found.map { reading(of: $0, in: raster, line: lineNumber) }
                // Slots from the ink the words were read from, before a `#` widens a word's box.
                slotsPerRender.append(lineReadings.map { slots?.slot(of: $0.word.box) ?? 0 })
                attach(lineMarks, to: &lineReadings, textHeight: textHeight)
                for i in lineReadings.indices { lineReadings[i].listNumber = listNumber(lineReadings[i]) }
                perRender.append(lineReadings)
                keepsChoices.append(choicesForTags || !options.spellFromChoices)
                weights.append(1)
            }
            guard perRender.contains(where: { !$0.isEmpty }) else { continue }
            renders.append(perRender)
            read.append(ReadLine(slots: slotsPerRender, weights: weights, marks: lineMarks, image: images[0],
                                 wantAlternatives: wantAlternatives, keepsChoices: keepsChoices))
        }
        Self.numberListItems(&renders, minimumConfidence: options.pageWordConfidence)
        let pageWords = PageWords(renders.map { $0.map { $0.map { ($0.word.text, $0.word.confidence) } } },
                                  lexicon: lexicon, minimumConfidence: options.pageWordConfidence)
        // Misread words spelled once every line is read, so that the page's words come first.
        for (number, line) in read.enumerated() {
            for render in renders[number].indices {
                if options.spellFromChoices { spell(&renders[number][render], pageWords: pageWords, line: number).forEach(keep) }
                if !line.keepsChoices[render] { for i in renders[number][render].indices { renders[number][render][i].alternatives = [] } }
            }
        }
        for (number, line) in read.enumerated() {
            var lineReadings = renders[number][0]
            if renders[number].count > 1 {
                let voted = vote(renders[number], slots: line.slots, weights: line.weights, partlyValid: neural != nil) { word in
                    !word.hasPrefix("#") && pageWords.isRead(word, besides: number) ? options.pageWordVotes : 0
                }
                lineReadings = voted.words
                voted.alternatives.forEach(keep)
            }
            if line.wantAlternatives, !options.secondLookScales.isEmpty {
                try secondLook(&lineReadings, image: line.image, marks: line.marks, line: number, textHeight: textHeight)
            }
            readings += lineReadings
        }
        return (readings, alternatives)
    }

    /// The neural reader's image of a line's strokes `text`: ``NeuralLineReader/inputHeight`` pixels
    /// high, the x-height ``RecognitionOptions/neuralXHeight`` of that (smaller where the whole line
    /// would not fit otherwise, down to half of it; the line cut around its middle below that), the
    /// pressure pen ``RecognitionOptions/neuralPen`` of the x-height, as written (not stood upright), widened
    /// `stretch` times across.
    func neuralImage(of ink: [Stroke], shapes: [StrokeShape], text: [Int], metrics: LineMetrics,
                     stretch: Double) throws(RecognitionError) -> OCRRaster {
        let padding = 2
        // Room for the ink: the model's height less the padding and the pixel the raster adds.
        let room = Double(NeuralLineReader.inputHeight - 2 * padding - 2)
        let bounds = text.reduce(Rect.null) { $0.union(shapes[$1].bounds) }
        let xHeight = options.neuralXHeight * Double(NeuralLineReader.inputHeight)
        let scale = max(min(xHeight / metrics.xHeight, room / max(bounds.height, 1e-9)), 0.5 * xHeight / metrics.xHeight)
        // Where the line does not fit at that scale, its middle (the median height of its ink) is drawn.
        var region = bounds
        if bounds.height * scale > room {
            let middle = median(text.flatMap { ink[$0].points.compactMap { $0.y.isFinite ? Double($0.y) : nil } })
            region = Rect(minX: bounds.minX, minY: middle - room / scale / 2, maxX: bounds.maxX, maxY: middle + room / scale / 2)
        }
        return try OCRRaster.draw(ink, strokes: text, region: region, scale: scale, padding: padding,
                                  pen: .pressure(width: max(1, options.neuralPen * metrics.xHeight * scale)), antialias: options.antialias,
                                  stretch: stretch)
    }

    /// A hashtag that is no known tag, or only loosely one, gets a second look: its line drawn again
    /// at ``RecognitionOptions/secondLookScales``; the reading closest to a known tag wins.
    private func secondLook(_ lineReadings: inout [Reading], image: LineImage, marks: [HashMark], line: Int,
                            textHeight: Double) throws(RecognitionError) {
        var looks: [Double: [Reading]] = [:]
        for index in lineReadings.indices where lineReadings[index].word.text.hasPrefix("#") {
            var best = readTag(of: lineReadings, index)
            guard (best?.relativeDistance ?? .infinity) > options.confidentTagDistance else { continue }
            let box = lineReadings[index].word.box
            for factor in options.secondLookScales {
                if looks[factor] == nil {
                    let again = try image(factor)
                    var second = try recognize(again, segmentation: options.lineSegmentation, alternatives: true)
                        .map { reading(of: $0, in: again, line: line) }
                    attach(marks, to: &second, textHeight: textHeight)
                    looks[factor] = second
                }
                let second = looks[factor]!
                guard let match = second.indices.filter({ second[$0].word.text.hasPrefix("#") })
                    .max(by: { overlap(second[$0].word.box, box) < overlap(second[$1].word.box, box) }),
                    overlap(second[match].word.box, box) > 0,
                    let candidate = readTag(of: second, match), let distance = candidate.relativeDistance,
                    distance < best?.relativeDistance ?? .infinity else { continue }
                best = candidate
                lineReadings[index].word.text = "#" + candidate.tag.name
                lineReadings[index].alternatives = []
                lineReadings[index].decided = TagReading(tag: candidate.tag, distance: candidate.distance)
                if distance <= options.confidentTagDistance { break }
            }
        }
    }

    func readPage(_ ink: [Stroke], shapes: [StrokeShape], candidates: [Int], lines: [InkLine], marks: [HashMark],
                          textHeight: Double) throws(RecognitionError) -> [Reading] {
        let markStrokes = Set(marks.flatMap(\.strokes))
        let text = candidates.filter { !markStrokes.contains($0) }
        guard !text.isEmpty else { return [] }
        let region = text.reduce(Rect.null) { $0.union(shapes[$1].bounds) }
        let raster = try OCRRaster.draw(ink, strokes: text, region: region,
                                        scale: pageScale(ink, shapes: shapes, lines: lines, textHeight: textHeight),
                                        padding: options.padding * 4, pen: options.pen, antialias: options.antialias)
        let found = try recognize(raster, segmentation: options.pageSegmentation,
                                  alternatives: options.tagAlternatives && !snapper.known.isEmpty && !marks.isEmpty)
        var readings = found.map { reading(of: $0, in: raster, line: $0.line) }
        // Each mark goes to the nearest word after it among the words level with it.
        for mark in marks {
            let level = readings.indices.filter {
                min(readings[$0].word.box.maxY, mark.bounds.maxY) - max(readings[$0].word.box.minY, mark.bounds.minY) > 0
            }
            var subset = level.map { readings[$0] }
            attach([mark], to: &subset, textHeight: textHeight)
            for (i, index) in level.enumerated() { readings[index] = subset[i] }
        }
        return readings
    }

    /// Reads a raster. With `alternatives`, Tesseract also keeps what else each letter might be
    /// (about a third more time).
    private func recognize(_ raster: OCRRaster, segmentation: PageSegmentation, alternatives: Bool) throws(RecognitionError) -> [OCRWord] {
        if alternatives { try engine.set("lstm_choice_mode", "2") }
        defer { if alternatives { try? engine.set("lstm_choice_mode", "0") } }
        return try raster.pixels.withUnsafeBufferPointer { buffer throws(RecognitionError) in
            try engine.recognize(gray: buffer.baseAddress!, width: raster.width, height: raster.height,
                                 bytesPerLine: raster.bytesPerLine, segmentation: segmentation,
                                 resolution: options.resolution, alternatives: alternatives)
        }
    }

    private func reading(of word: OCRWord, in raster: OCRRaster, line: Int) -> Reading {
        Reading(word: RecognizedWord(text: RecognizedText.normalized(word.text),
                                     box: raster.pageRect(left: word.left, top: word.top, right: word.right, bottom: word.bottom),
                                     confidence: min(1, max(0, word.confidence / 100)), line: line),
                alternatives: word.alternatives, letterSteps: word.letterSteps)
    }

    /// Puts each `#` back on the word that follows it: the nearest word starting right of the mark's
    /// centre, within a few letters' distance.
    private func attach(_ marks: [HashMark], to readings: inout [Reading], textHeight: Double) {
        for mark in marks {
            let center = (mark.bounds.minX + mark.bounds.maxX) / 2
            var best: (index: Int, gap: Double)?
            for (index, reading) in readings.enumerated() where reading.word.box.maxX > center && !reading.word.text.hasPrefix("#") {
                let gap = reading.word.box.minX - mark.bounds.maxX
                guard gap <= 3 * textHeight, gap >= -1.5 * textHeight else { continue }
                if best == nil || gap < best!.gap { best = (index, gap) }
            }
            guard let (index, _) = best else { continue }
            readings[index].word.text = "#" + readings[index].word.text.drop(while: { $0 == "#" })
            readings[index].word.box = readings[index].word.box.union(mark.bounds)
        }
    }

    /// Area shared by two rectangles.
    private func overlap(_ a: Rect, _ b: Rect) -> Double {
        max(0, min(a.maxX, b.maxX) - max(a.minX, b.minX)) * max(0, min(a.maxY, b.maxY) - max(a.minY, b.minY))
    }
}
