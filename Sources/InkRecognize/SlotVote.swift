/// Chooses a line's words from the readings of several renders of it, word slot by word slot.
///
/// A render's reading of a slot (the words it read there) votes `1 + its lowest confidence` when
/// every word in it is valid, for the reading its words mean (`meaning`: readings that differ only
/// in what does not count, such as case or how a known tag was misspelt, vote together); the
/// meaning with the most votes wins, in the words of its most confident render (the earlier on a tie).
/// With `partlyValidVotes`, a reading with some valid words votes too, its votes times the share of
/// its words that are valid.
/// A slot no render reads validly takes the reading with the most valid words in it; on a tie, that
/// of the render whose whole line holds the most valid words (+0.01 × its mean confidence in
/// percent). Real script often runs words closer than the slot gap, so one slot may hold several
/// words and one misread word would otherwise let a worse render speak for all of them.
enum SlotVote {
    /// `renders[r]` are render r's words in reading order; `slots[r][i]` the slot of its word i;
    /// `confidence` is 0…1. `prior` adds votes to a one-word meaning that has some (the page's
    /// other lines read it, for one). Returns the chosen words, and the other distinct readings of
    /// each slot (its words joined by spaces; five at most, most voted first).
    /// `weights[r]` multiplies render r's votes (1 for each when empty), and among slots no render
    /// reads validly, the heavier render's reading is taken before the better line's.
    static func choose<Word>(_ renders: [[Word]], slots: [[Int]], weights: [Double] = [], partlyValidVotes: Bool = false, text: (Word) -> String,
                             confidence: (Word) -> Float, meaning: (String) -> String = { $0 }, prior: (String) -> Double = { _ in 0 },
                             valid: (String) -> Bool) -> (words: [Word], alternatives: [String]) {
        let weights = weights.isEmpty ? renders.map { _ in 1.0 } : weights
        let lineScores = renders.map { words -> Double in
            let mean = words.isEmpty ? 0 : words.reduce(0.0) { $0 + Double(confidence($1)) } / Double(words.count)
            return Double(words.filter { valid(text($0)) }.count) + mean
        }
        let slotCount = (slots.joined().max() ?? -1) + 1
        var chosen: [Word] = [], alternatives: [String] = []
        for slot in 0..<slotCount {
            let readings = renders.indices.map { r in renders[r].indices.filter { slots[r][$0] == slot }.map { renders[r][$0] } }
            var votes: [String: (votes: Double, render: Int, weight: Double)] = [:]
            for (r, words) in readings.enumerated() where !words.isEmpty {
                let validShare = Double(words.filter { valid(text($0)) }.count) / Double(words.count)
                guard validShare > 0, validShare == 1 || partlyValidVotes else { continue }
                let key = words.map { meaning(text($0)) }.joined(separator: " ")
                let weight = weights[r] * (1 + Double(words.map(confidence).min() ?? 0)) * validShare
                var entry = votes[key] ?? (0, r, weight)
                entry.votes += weight
                if weight > entry.weight { (entry.render, entry.weight) = (r, weight) }
                votes[key] = entry
            }
            for key in votes.keys where !key.contains(" ") { votes[key]!.votes += prior(key) }
            var taken: Int?
            if let winner = votes.values.max(by: { ($0.votes, -$0.render) < ($1.votes, -$1.render) }) {
                taken = winner.render
            } else if let fallback = readings.indices.filter({ !readings[$0].isEmpty }).max(by: {
                let a = readings[$0].filter { valid(text($0)) }.count, b = readings[$1].filter { valid(text($0)) }.count
                return (a, weights[$0], lineScores[$0], -$0) < (b, weights[$1], lineScores[$1], -$1)
            }) {
                taken = fallback
            }
            guard let taken else { continue }
            chosen += readings[taken]
            let winner = readings[taken].map(text).joined(separator: " ")
            var others: [(reading: String, votes: Double)] = []
            for words in readings where !words.isEmpty {
                let reading = words.map(text).joined(separator: " ")
                guard reading != winner, !others.contains(where: { $0.reading == reading }) else { continue }
                others.append((reading, votes[words.map { meaning(text($0)) }.joined(separator: " ")]?.votes ?? 0))
            }
            alternatives += others.sorted { $0.votes > $1.votes }.prefix(5).map(\.reading)
        }
        return (chosen, alternatives)
    }
}
