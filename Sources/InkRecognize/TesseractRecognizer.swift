import Foundation
import InkCore
import InkGeometry

/// Reads handwriting with Tesseract, using what the strokes tell about it: lines are found from
/// the writing order and geometry and read one at a time; a `#` is found from its four strokes
/// (Tesseract can't read a handwritten one), left out of the image and put back on the word after
/// it; recognised hashtags are snapped to ``knownTags`` when the reading is close to one.
///
/// One instance per thread (it owns a Tesseract engine); reuse it for many pages. Tesseract is loaded
/// when the first one is made, with `OMP_THREAD_LIMIT=1` unless the environment sets it.
public final class TesseractRecognizer: PageRecognizer {
    public let options: RecognitionOptions
    /// Tags the library already has: recognised hashtags close to one of them become that tag.
    public var knownTags: Set<Tag> {
        get { snapper.known }
        set { snapper = TagSnapper(known: newValue) }
    }
    /// The Tesseract engine this recogniser owns.
    public let engine: TesseractEngine
    private var snapper: TagSnapper
    /// The words readings are checked against when a line's renders vote: the system word list
    /// for the language plus, as the caller adds them, the library's own words.
    public var lexicon: Lexicon {
        didSet { spelling = nil }
    }
    /// Spells misread words as lexicon words; made on first use (it indexes the lexicon).
    private var spelling: LexiconLattice?

    /// Starts a Tesseract engine for `language` from `dataPath` (found from `TESSDATA_PREFIX` or the
    /// usual folders when nil). Throws a ``RecognitionError`` when the language data is missing.
    public init(knownTags: Set<Tag> = [], options: RecognitionOptions = RecognitionOptions(),
                language: String = "eng", dataPath: String? = nil, lexicon: Lexicon? = nil) throws(RecognitionError) {
        var variables: [(name: String, value: String)] = [
            ("textord_noise_rejrows", options.rejectNoiseRows ? "1" : "0"),
        ]
        for (name, value) in options.tesseractVariables.sorted(by: { $0.key < $1.key }) { variables.append((name, value)) }
        engine = try TesseractEngine(language: language, dataPath: dataPath, variables: variables)
        self.options = options
        snapper = TagSnapper(known: knownTags)
        self.lexicon = lexicon ?? .system(language: language)
    }

    public func recognize(_ page: Page) throws -> PageRecognition {
        try read(page).recognition
    }

    /// What recognition saw on a page, for tests and measurement: the lines and `#` marks found in
    /// the strokes, and the result.
    public struct Analysis: Sendable {
        /// Lines in reading order; stroke indices refer to the page after erasing.
        public var lines: [InkLine]
        public var hashMarks: [HashMark]
        /// Strokes left out as not writing (indices into the erased page's strokes).
        public var nonText: [Int]
        /// How each hashtag word was decided.
        public var hashtagReadings: [HashtagReading]
        public var recognition: PageRecognition
    }

    /// How a hashtag word became a tag.
    public struct HashtagReading: Sendable, Hashable {
        public var tag: Tag
        /// What Tesseract read after the `#`.
        public var read: String
        /// Edits per letter between the reading and the known tag it was taken as; nil when it is no
        /// known tag.
        public var distancePerLetter: Double?
        /// Tesseract's confidence in the word, 0…1.
        public var confidence: Float
        /// False when it was left out of the page's hashtags (an unknown tag read without confidence).
        public var reported: Bool
    }

    /// Recognises `page` and says how.
    public func read(_ page: Page) throws(RecognitionError) -> Analysis {
        // What the page shows: hidden layers are not read.
        let ink = Erasing.apply(page.visible, mode: options.eraserMode).strokes
        let shapes = ink.enumerated().map { StrokeShape($0.element, index: $0.offset) }
        var candidates = ink.indices.filter { Self.isInk(ink[$0]) && Self.isPlausible(shapes[$0]) }
        let height = LineGrouper.typicalHeight(of: candidates.map { shapes[$0] })
        var nonText: [Int] = []
        if options.dropNonText {
            nonText = candidates.filter { !Self.looksLikeWriting(shapes[$0], textHeight: height) }
            let dropped = Set(nonText)
            candidates.removeAll { dropped.contains($0) }
        }
        let marks = options.detectHashMarks ? HashMarkDetector.find(shapes: shapes, order: candidates, textHeight: height) : []
        let lines = switch options.lineFinding {
        case .writingOrder: LineGrouper.group(shapes: shapes, order: candidates, textHeight: height)
        case .geometry: GeometricLineGrouper.group(shapes: shapes, order: candidates)
        }

        var readings: [Reading]
        var alternatives: [String] = []
        switch options.layout {
        case .lines:
            (readings, alternatives) = try readLines(ink, shapes: shapes, lines: lines, marks: marks, textHeight: height)
        case .page:
            readings = try readPage(ink, shapes: shapes, candidates: candidates, lines: lines, marks: marks, textHeight: height)
        }
        let (hashtags, decisions) = extractHashtags(&readings)
        return Analysis(lines: lines, hashMarks: marks, nonText: nonText, hashtagReadings: decisions,
                        recognition: PageRecognition(words: readings.map(\.word), hashtags: hashtags, alternatives: alternatives))
    }

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

    // MARK: Reading

    /// A recognised word and, when Tesseract was asked, what each of its letters might also be.
    struct Reading {
        var word: RecognisedWord
        var alternatives: [[OCRChoice]] = []
        /// The tag a second look settled on, if one did.
        var decided: TagReading?
        /// For a letter and a full stop or bracket (`Q.`) whose letter Tesseract also took for a digit:
        /// that digit with the mark (`2.`).
        var listNumber: String?
    }

    private static func isInk(_ stroke: Stroke) -> Bool {
        stroke.tool != .highlighter && stroke.tool != .eraser && stroke.color.alpha > 0
    }

    /// False for strokes with no points or points a million pixels away (damaged input).
    private static func isPlausible(_ shape: StrokeShape) -> Bool {
        let b = shape.bounds
        return !shape.isEmpty && [b.minX, b.minY, b.maxX, b.maxY].allSatisfy { $0.isFinite && abs($0) < 1e6 }
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
    private func readLines(_ ink: [Stroke], shapes: [StrokeShape], lines: [InkLine], marks: [HashMark],
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
            var marks: [HashMark]
            var image: LineImage
            var wantAlternatives: Bool
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
            for (number, image) in images.enumerated() {
                let raster = try image(1)
                if let folder = options.debugImageFolder {
                    let suffix = images.count > 1 ? "-r\(number)" : ""
                    try raster.writePNG(to: (folder as NSString).appendingPathComponent("line-\(lineNumber)\(suffix).png"))
                }
                // Letter choices: for a hashtag on the first image, and for spelling on every image.
                let choicesForTags = wantAlternatives && number == 0
                let found = try recognise(raster, segmentation: options.lineSegmentation,
                                          alternatives: choicesForTags || options.spellFromChoices)
                var lineReadings = found.map { reading(of: $0, in: raster, line: lineNumber) }
                // Slots from the ink the words were read from, before a `#` widens a word's box.
                slotsPerRender.append(lineReadings.map { slots?.slot(of: $0.word.box) ?? 0 })
                attach(lineMarks, to: &lineReadings, textHeight: textHeight)
                for i in lineReadings.indices { lineReadings[i].listNumber = listNumber(lineReadings[i]) }
                if options.spellFromChoices {
                    spell(&lineReadings).forEach(keep)
                    if !choicesForTags { for i in lineReadings.indices { lineReadings[i].alternatives = [] } }
                }
                perRender.append(lineReadings)
            }
            guard perRender.contains(where: { !$0.isEmpty }) else { continue }
            renders.append(perRender)
            read.append(ReadLine(slots: slotsPerRender, marks: lineMarks, image: images[0], wantAlternatives: wantAlternatives))
        }
        Self.numberListItems(&renders, minimumConfidence: options.pageWordConfidence)
        let pageWords = PageWords(renders.map { $0.map { $0.map { ($0.word.text, $0.word.confidence) } } },
                                  lexicon: lexicon, minimumConfidence: options.pageWordConfidence)
        for (number, line) in read.enumerated() {
            var lineReadings = renders[number][0]
            if renders[number].count > 1 {
                let voted = vote(renders[number], slots: line.slots) { word in
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
                    var second = try recognise(again, segmentation: options.lineSegmentation, alternatives: true)
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

    /// Words no lexicon holds, spelled again from Tesseract's other choices for their letters
    /// (``LexiconLattice``) when a lexicon word is close enough; returns what stays searchable beside
    /// them: the readings replaced and the next closest spellings. Left alone: hashtags (matched to
    /// known tags later), look-alikes of one whose `#` was read as a letter, and readings with digits
    /// (`10th`, `5am`). A spelled word's confidence is Tesseract's times `exp(−cost)`, so in the vote a
    /// word read as it is outweighs the same word spelled.
    func spell(_ readings: inout [Reading]) -> [String] {
        var searchable: [String] = []
        for index in readings.indices {
            let text = readings[index].word.text
            guard !text.hasPrefix("#"), !readings[index].alternatives.isEmpty, !text.contains(where: \.isNumber),
                  !lexicon.accepts(text), lookalikeHashtag(text) == nil else { continue }
            if spelling == nil { spelling = LexiconLattice(lexicon: lexicon) }
            let letters = text.filter(\.isLetter).count
            let spelled = spelling!.spellings(of: text, choices: readings[index].alternatives,
                                              limit: options.spellingAllowance * Double(letters), count: max(1, options.spellings))
            guard let best = spelled.first else { continue }
            searchable += [text] + spelled.dropFirst().map(\.text)
            readings[index].word.text = best.text
            readings[index].word.confidence *= Float(exp(-best.cost))
        }
        return searchable
    }

    /// Numbered lists: on a page where a line starts with a number and a full stop or bracket read
    /// surely (`1.`, `12)`, in some render, confidence ≥ `minimumConfidence`), a letter with its mark
    /// that Tesseract also took for a digit (``Reading/listNumber``) is read as that number, with the
    /// confidence it had: on such a page the number is the likelier reading. Only where a list item's
    /// number can stand: first on its line, or with more of the line after it ("1. smallest 2. medium"),
    /// not ending a line ("than I."). `renders[line][render]` are each line's renders' words.
    static func numberListItems(_ renders: inout [[[Reading]]], minimumConfidence: Float) {
        let numbered = renders.joined().contains { words in
            words.first.map { isListNumber($0.word.text) && $0.word.confidence >= minimumConfidence } ?? false
        }
        guard numbered else { return }
        for l in renders.indices {
            for r in renders[l].indices {
                for w in renders[l][r].indices.dropLast() {
                    guard let number = renders[l][r][w].listNumber else { continue }
                    renders[l][r][w].word.text = number
                }
            }
        }
    }

    /// What follows a list item's number: `1.`, `1)`.
    private static let listMarks: Set<Character> = [".", ")"]

    /// `1.`, `12)`: a list item's number.
    static func isListNumber(_ text: String) -> Bool {
        guard let mark = text.last, listMarks.contains(mark) else { return false }
        let digits = text.dropLast()
        return (1...2).contains(digits.count) && digits.allSatisfy(\.isASCII) && digits.allSatisfy(\.isNumber)
    }

    /// The number a one-letter reading with a full stop or bracket (`Q.`) may be, when Tesseract's
    /// choices for the letter hold a digit within ``RecognitionOptions/listNumberAllowance``.
    func listNumber(_ reading: Reading) -> String? {
        let text = reading.word.text
        guard options.listNumberAllowance > 0, text.count == 2, text.first!.isLetter, Self.listMarks.contains(text.last!),
              let choices = reading.alternatives.first, let top = choices.first?.confidence, top > 0 else { return nil }
        guard let digit = OCRChoice.letters(choices).first(where: { $0.letter.isASCII && $0.letter.isNumber }),
              digit.confidence > 0 else { return nil }
        return Double(log(top / digit.confidence)) <= options.listNumberAllowance ? String(digit.letter) + String(text.last!) : nil
    }

    // MARK: Voting

    /// The line's words from several renders' readings, voted slot by slot (``SlotVote``). A word
    /// counts as valid when the lexicon accepts it; a hashtag when it reads as a known tag closely
    /// (within ``RecognitionOptions/confidentTagDistance``: loose snaps of several misreadings would
    /// outvote the one render that read the tag right), or, with no known tags, as lexicon words.
    /// Words vote by their letters whatever the case; hashtags by the known tag they read as. `prior`
    /// gives a one-word reading extra votes (``RecognitionOptions/pageWordVotes``).
    private func vote(_ renders: [[Reading]], slots: [[Int]], prior: (String) -> Double) -> (words: [Reading], alternatives: [String]) {
        func knownTag(_ text: String) -> Tag? {
            guard text.hasPrefix("#"), !snapper.known.isEmpty,
                  let reading = readTag(body: String(text.drop(while: { $0 == "#" })), alternatives: [], next: nil),
                  let distance = reading.relativeDistance, distance <= options.confidentTagDistance else { return nil }
            return reading.tag
        }
        return SlotVote.choose(renders, slots: slots, text: \.word.text, confidence: \.word.confidence,
                               meaning: { knownTag($0).map { "#" + $0.name } ?? $0.lowercased() }, prior: prior) { text in
            guard text.hasPrefix("#") else { return lexicon.accepts(text) }
            if !snapper.known.isEmpty { return knownTag(text) != nil }
            let body = text.drop(while: { $0 == "#" })
            return !body.isEmpty && body.split(separator: "-").allSatisfy { lexicon.accepts(String($0)) }
        }
    }

    private func readPage(_ ink: [Stroke], shapes: [StrokeShape], candidates: [Int], lines: [InkLine], marks: [HashMark],
                          textHeight: Double) throws(RecognitionError) -> [Reading] {
        let markStrokes = Set(marks.flatMap(\.strokes))
        let text = candidates.filter { !markStrokes.contains($0) }
        guard !text.isEmpty else { return [] }
        let region = text.reduce(Rect.null) { $0.union(shapes[$1].bounds) }
        let raster = try OCRRaster.draw(ink, strokes: text, region: region,
                                        scale: pageScale(ink, shapes: shapes, lines: lines, textHeight: textHeight),
                                        padding: options.padding * 4, pen: options.pen, antialias: options.antialias)
        let found = try recognise(raster, segmentation: options.pageSegmentation,
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
    private func recognise(_ raster: OCRRaster, segmentation: PageSegmentation, alternatives: Bool) throws(RecognitionError) -> [OCRWord] {
        if alternatives { try engine.set("lstm_choice_mode", "2") }
        defer { if alternatives { try? engine.set("lstm_choice_mode", "0") } }
        return try raster.pixels.withUnsafeBufferPointer { buffer throws(RecognitionError) in
            try engine.recognize(grey: buffer.baseAddress!, width: raster.width, height: raster.height,
                                 bytesPerLine: raster.bytesPerLine, segmentation: segmentation,
                                 resolution: options.resolution, alternatives: alternatives)
        }
    }

    private func reading(of word: OCRWord, in raster: OCRRaster, line: Int) -> Reading {
        Reading(word: RecognisedWord(text: RecognisedText.normalised(word.text),
                                     box: raster.pageRect(left: word.left, top: word.top, right: word.right, bottom: word.bottom),
                                     confidence: min(1, max(0, word.confidence / 100)), line: line),
                alternatives: word.alternatives)
    }

    /// Puts each `#` back on the word that follows it: the nearest word starting right of the mark's
    /// centre, within a few letters' distance.
    private func attach(_ marks: [HashMark], to readings: inout [Reading], textHeight: Double) {
        for mark in marks {
            let centre = (mark.bounds.minX + mark.bounds.maxX) / 2
            var best: (index: Int, gap: Double)?
            for (index, reading) in readings.enumerated() where reading.word.box.maxX > centre && !reading.word.text.hasPrefix("#") {
                let gap = reading.word.box.minX - mark.bounds.maxX
                guard gap <= 3 * textHeight, gap >= -1.5 * textHeight else { continue }
                if best == nil || gap < best!.gap { best = (index, gap) }
            }
            guard let (index, _) = best else { continue }
            readings[index].word.text = "#" + readings[index].word.text.drop(while: { $0 == "#" })
            readings[index].word.box = readings[index].word.box.union(mark.bounds)
        }
    }

    // MARK: Hashtags

    /// Letters Tesseract reads a handwritten `#` as, when the stroke detector did not find it.
    static let hashLookalikes = ["#", "H", "h", "f", "if", "fi", "jf", "ff", "it", "tt", "ft", "tf", "F", "#f", "4"]

    /// Finds the hashtags among the words and rewrites those words as `#tag`: a word starting with
    /// `#` (from the strokes or read by Tesseract), joined with the next word when the tag was read
    /// in two parts (`#follow` `-up`); with known tags, also a word whose first letters look like a
    /// `#` and whose rest is exactly a known tag (`Hbudget`).
    private func extractHashtags(_ readings: inout [Reading]) -> (tags: [Tag], decisions: [HashtagReading]) {
        var tags: [Tag] = []
        var decisions: [HashtagReading] = []
        var index = 0
        while index < readings.count {
            defer { index += 1 }
            let word = readings[index].word
            if word.text.hasPrefix("#") {
                if !snapper.known.isEmpty { splitRunTogether(&readings, at: index) }
                let word = readings[index].word
                let body = String(word.text.drop(while: { $0 == "#" }))
                let next = index + 1 < readings.count && readings[index + 1].word.line == word.line ? readings[index + 1].word : nil
                guard let reading = readings[index].decided
                    ?? readTag(body: body, alternatives: readings[index].alternatives, next: next?.text) else { continue }
                let tag = reading.tag
                readings[index].word.text = "#" + tag.name + trailingPunctuation(of: reading.joined ? next!.text : word.text)
                if reading.joined, let next {
                    readings[index].word.box = word.box.union(next.box)
                    readings[index].word.confidence = min(word.confidence, next.confidence)
                    readings.remove(at: index + 1)
                }
                // Where the library has tags, one that is none of them counts only when read with
                // some confidence: a misread hashtag would otherwise become a new tag of garbage.
                let confident = reading.distance != nil || snapper.known.isEmpty || readings[index].word.confidence >= options.newTagConfidence
                if confident, !tags.contains(tag) { tags.append(tag) }
                decisions.append(HashtagReading(tag: tag, read: body, distancePerLetter: reading.relativeDistance,
                                                confidence: readings[index].word.confidence, reported: confident))
            } else if !snapper.known.isEmpty, let tag = lookalikeHashtag(word.text) {
                readings[index].word.text = "#" + tag.name + trailingPunctuation(of: word.text)
                if !tags.contains(tag) { tags.append(tag) }
                decisions.append(HashtagReading(tag: tag, read: word.text, distancePerLetter: 0, confidence: word.confidence,
                                                reported: true))
            }
        }
        return (tags, decisions)
    }

    /// The tag the hashtag reading at `index` writes (with the next word on its line when needed).
    private func readTag(of readings: [Reading], _ index: Int) -> TagReading? {
        let word = readings[index].word
        let next = index + 1 < readings.count && readings[index + 1].word.line == word.line ? readings[index + 1].word.text : nil
        return readTag(body: String(word.text.drop(while: { $0 == "#" })), alternatives: readings[index].alternatives, next: next)
    }

    /// Area shared by two rectangles.
    private func overlap(_ a: Rect, _ b: Rect) -> Double {
        max(0, min(a.maxX, b.maxX) - max(a.minX, b.minX)) * max(0, min(a.maxY, b.maxY) - max(a.minY, b.minY))
    }

    /// A hashtag as read: the tag, whether it took the next word too, and how far the reading was
    /// from that tag when it is a known one (nil: not a known tag, taken as read).
    struct TagReading {
        var tag: Tag
        var joined = false
        var distance: Double?
        /// Distance per letter of the tag.
        var relativeDistance: Double? { distance.map { $0 / Double(max(1, tag.name.count)) } }
    }

    /// The tag after a `#`: the known tag closest to the reading (by its text, by Tesseract's
    /// alternatives for each letter, or joined with the next word), else the reading itself.
    private func readTag(body: String, alternatives: [[OCRChoice]], next: String?) -> TagReading? {
        let alone = RecognisedText.tag(fromBody: body)
        var aloneMatch = alone.flatMap { snapper.match($0) }
        if !alternatives.isEmpty, let latticeMatch = snapper.match(alternatives: alternatives),
           latticeMatch.distance < aloneMatch?.distance ?? .infinity {
            aloneMatch = latticeMatch
        }
        if let aloneMatch, aloneMatch.distance == 0 { return TagReading(tag: aloneMatch.tag, distance: 0) }
        if let next, !next.hasPrefix("#") {
            let nextText = RecognisedText.normalised(next)
            let dashed = body.hasSuffix("-") || nextText.hasPrefix("-")
            var joinedCandidates: [Tag] = []
            if dashed {
                if let tag = RecognisedText.tag(fromBody: body + "-" + nextText.drop(while: { $0 == "-" })) { joinedCandidates.append(tag) }
            } else if !snapper.known.isEmpty {
                joinedCandidates += [body + "-" + nextText, body + nextText].compactMap { RecognisedText.tag(fromBody: $0) }
            }
            for candidate in joinedCandidates {
                if let match = snapper.match(candidate), match.distance < aloneMatch?.distance ?? .infinity {
                    return TagReading(tag: match.tag, joined: true, distance: match.distance)
                }
            }
            // A dash at the break means the tag goes on, known or not.
            if dashed, aloneMatch == nil, let first = joinedCandidates.first { return TagReading(tag: first, joined: true) }
        }
        if let aloneMatch { return TagReading(tag: aloneMatch.tag, distance: aloneMatch.distance) }
        return alone.map { TagReading(tag: $0) }
    }

    /// When a hashtag read as no known tag starts with one followed by another word run into it
    /// (`#q3-planmeeting`), the word split in two: the tag's text and the rest.
    private func splitRunTogether(_ readings: inout [Reading], at index: Int) {
        let word = readings[index].word
        let body = String(word.text.drop(while: { $0 == "#" }))
        if let whole = RecognisedText.tag(fromBody: body), snapper.match(whole) != nil { return }
        if !readings[index].alternatives.isEmpty, snapper.match(alternatives: readings[index].alternatives) != nil { return }
        guard let prefix = snapper.matchPrefix(body) else { return }
        let rest = String(body.dropFirst(prefix.length)).drop(while: { $0 == "-" || $0 == "_" })
        guard !rest.isEmpty else { return }
        // Share the box by characters, counting the # as one.
        let fraction = Double(prefix.length + 1) / Double(body.count + 1)
        let split = word.box.minX + fraction * word.box.width
        var first = word, second = word
        first.text = "#" + String(body.prefix(prefix.length))
        first.box.maxX = split
        second.text = String(rest)
        second.box.minX = split
        readings[index] = Reading(word: first)
        readings.insert(Reading(word: second), at: index + 1)
    }

    private func lookalikeHashtag(_ text: String) -> Tag? {
        for prefix in Self.hashLookalikes where text.hasPrefix(prefix) && text.count > prefix.count + 2 {
            guard let tag = RecognisedText.tag(fromBody: String(text.dropFirst(prefix.count))),
                  tag.name.count >= 4, snapper.known.contains(tag) else { continue }
            // The whole word must not itself be an ordinary word that is a known tag.
            if let whole = RecognisedText.tag(fromBody: text), snapper.known.contains(whole) { return nil }
            return tag
        }
        return nil
    }

    private func trailingPunctuation(of text: String) -> String {
        let tail = text.reversed().prefix(while: { ".,;:!?)".contains($0) })
        return String(tail.reversed())
    }

    // MARK: What is writing

    /// False for strokes that are drawings or marks rather than letters: taller than four letters,
    /// long straight rules (underlines, dividers, margins), and large closed loops (circles and boxes
    /// around words).
    static func looksLikeWriting(_ shape: StrokeShape, textHeight h: Double) -> Bool {
        let b = shape.bounds
        if b.height > 4 * h { return false }
        if shape.isStraight(minLength: 6 * h) { return false }
        let closed = (shape.end - shape.start).length < 0.15 * max(shape.length, 1)
        if closed, b.height > 2.2 * h, b.width > 2.2 * h, shape.length > 8 * h { return false }
        return true
    }
}
