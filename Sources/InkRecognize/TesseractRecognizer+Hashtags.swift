import Foundation
import InkCore
import InkGeometry

// Hashtags: which words are hashtags, and which tag each one is.
extension TesseractRecognizer {
    /// Letters Tesseract reads a handwritten `#` as, when the stroke detector did not find it.
    static let hashLookalikes = ["#", "H", "h", "f", "if", "fi", "jf", "ff", "it", "tt", "ft", "tf", "F", "#f", "4"]

    /// Finds the hashtags among the words and rewrites those words as `#tag`: a word starting with
    /// `#` (from the strokes or read by Tesseract), joined with the next word when the tag was read
    /// in two parts (`#follow` `-up`); with known tags, also a word whose first letters look like a
    /// `#` and whose rest is exactly a known tag (`Hbudget`).
    func extractHashtags(_ readings: inout [Reading]) -> (tags: [Tag], decisions: [HashtagReading]) {
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
    func readTag(of readings: [Reading], _ index: Int) -> TagReading? {
        let word = readings[index].word
        let next = index + 1 < readings.count && readings[index + 1].word.line == word.line ? readings[index + 1].word.text : nil
        return readTag(body: String(word.text.drop(while: { $0 == "#" })), alternatives: readings[index].alternatives, next: next)
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
    func readTag(body: String, alternatives: [[OCRChoice]], next: String?) -> TagReading? {
        let alone = RecognizedText.tag(fromBody: body)
        var aloneMatch = alone.flatMap { snapper.match($0) }
        if !alternatives.isEmpty, let latticeMatch = snapper.match(alternatives: alternatives),
           latticeMatch.distance < aloneMatch?.distance ?? .infinity {
            aloneMatch = latticeMatch
        }
        if let aloneMatch, aloneMatch.distance == 0 { return TagReading(tag: aloneMatch.tag, distance: 0) }
        if let next, !next.hasPrefix("#") {
            let nextText = RecognizedText.normalized(next)
            let dashed = body.hasSuffix("-") || nextText.hasPrefix("-")
            var joinedCandidates: [Tag] = []
            if dashed {
                if let tag = RecognizedText.tag(fromBody: body + "-" + nextText.drop(while: { $0 == "-" })) { joinedCandidates.append(tag) }
            } else if !snapper.known.isEmpty {
                joinedCandidates += [body + "-" + nextText, body + nextText].compactMap { RecognizedText.tag(fromBody: $0) }
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
        if let whole = RecognizedText.tag(fromBody: body), snapper.match(whole) != nil { return }
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

    func lookalikeHashtag(_ text: String) -> Tag? {
        for prefix in Self.hashLookalikes where text.hasPrefix(prefix) && text.count > prefix.count + 2 {
            guard let tag = RecognizedText.tag(fromBody: String(text.dropFirst(prefix.count))),
                  tag.name.count >= 4, snapper.known.contains(tag) else { continue }
            // The whole word must not itself be an ordinary word that is a known tag.
            if let whole = RecognizedText.tag(fromBody: text), snapper.known.contains(whole) { return nil }
            return tag
        }
        return nil
    }

    private func trailingPunctuation(of text: String) -> String {
        let tail = text.reversed().prefix(while: { ".,;:!?)".contains($0) })
        return String(tail.reversed())
    }
}
