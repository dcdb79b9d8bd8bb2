/// "Did you mean …?" for unknown configuration keys.
public enum Suggestion {
    /// The known word closest to `word`, if it is close enough to be a likely typo or synonym.
    public static func closest(to word: String, among known: [String]) -> String? {
        let lowered = word.lowercased()
        let scored = known.map { candidate -> (String, Int) in
            let name = candidate.lowercased()
            // A known key that contains the word (or the reverse) is a strong hint: `status` → `status_code`;
            // not for a word of one or two letters (or none), which most keys contain.
            if (lowered.count >= 3 && name.contains(lowered)) || lowered.contains(name) { return (candidate, 0) }
            return (candidate, editDistance(lowered, name))
        }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        return best.1 <= max(2, word.count / 3) ? best.0 : nil
    }

    /// Levenshtein distance.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars)
        let b = Array(b.unicodeScalars)
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            previous = current
        }
        return previous[b.count]
    }

    /// The warning text for an unknown key.
    public static func unknownKeyMessage(_ key: String, known: [String]) -> String {
        var message = "unknown key '\(key)' is ignored"
        if let suggestion = closest(to: key, among: known) { message += "; did you mean '\(suggestion)'?" }
        return message
    }
}
