/// Chooses a line's words from the readings of several renders of it, word slot by word slot.
///
/// A render's reading of a slot (the words it read there) votes `1 + its lowest confidence` when
/// every word in it is valid; the reading with the most votes wins (the earlier render on a tie).
/// A slot no render reads validly takes the reading of the render whose whole line holds the most
/// valid words (+0.01 × its mean confidence in percent), or of the next such render that read
/// anything there.
enum SlotVote {
    /// `renders[r]` are render r's words in reading order; `slots[r][i]` the slot of its word i;
    /// `confidence` is 0…1.
    static func choose<Word>(_ renders: [[Word]], slots: [[Int]], text: (Word) -> String, confidence: (Word) -> Float,
                             valid: (String) -> Bool) -> [Word] {
        let lineScores = renders.map { words -> Double in
            let mean = words.isEmpty ? 0 : words.reduce(0.0) { $0 + Double(confidence($1)) } / Double(words.count)
            return Double(words.filter { valid(text($0)) }.count) + mean
        }
        let slotCount = (slots.joined().max() ?? -1) + 1
        var chosen: [Word] = []
        for slot in 0..<slotCount {
            let readings = renders.indices.map { r in renders[r].indices.filter { slots[r][$0] == slot }.map { renders[r][$0] } }
            var votes: [String: (votes: Double, render: Int)] = [:]
            for (r, words) in readings.enumerated() where !words.isEmpty && words.allSatisfy({ valid(text($0)) }) {
                let key = words.map(text).joined(separator: " ")
                votes[key, default: (0, r)].votes += 1 + Double(words.map(confidence).min() ?? 0)
            }
            if let winner = votes.values.max(by: { ($0.votes, -$0.render) < ($1.votes, -$1.render) }) {
                chosen += readings[winner.render]
            } else if let fallback = readings.indices.filter({ !readings[$0].isEmpty })
                .max(by: { (lineScores[$0], -$0) < (lineScores[$1], -$1) }) {
                chosen += readings[fallback]
            }
        }
        return chosen
    }
}
