/// Writes a string that matches a simple regular expression (a schema's `pattern`): literal characters and
/// escapes, `.`, `\d` `\w` `\s`, character classes (`[A-Z0-9_-]`, `[^,]`), groups (`(…)`, `(?:…)`, the first
/// alternative of `a|b`), and counts (`?`, `*`, `+`, `{n}`, `{n,}`, `{n,m}`); `^` and `$` at the ends. Nil
/// for anything else (lookarounds, back-references, flags), which the caller reports.
struct PatternSampler {
    /// One position of the pattern: the characters it may be (in the order written) and how often it repeats.
    struct Piece {
        var choices: [Character]
        var minimum: Int
        var maximum: Int?
    }

    let pieces: [Piece]

    /// Counts above this are taken as this (a pattern asking for a megabyte is not followed to the letter).
    static let countLimit = 10_000

    init?(_ pattern: String) {
        var parser = Parser(characters: Array(pattern))
        guard let pieces = parser.alternatives(), parser.index == parser.characters.count else { return nil }
        self.pieces = pieces
    }

    /// The shortest string that matches, lengthened to `minimumLength` where counts allow; `variation` > 0
    /// changes its last character that has a choice.
    func sample(minimumLength: Int, maximumLength: Int?, variation: Int) -> String? {
        var counts = pieces.map(\.minimum)
        var missing = minimumLength - counts.reduce(0, +)
        for index in pieces.indices where missing > 0 {
            let room = (pieces[index].maximum ?? Self.countLimit) - counts[index]
            let added = min(room, missing)
            counts[index] += added
            missing -= added
        }
        var characters: [Character] = []
        var varied = variation == 0
        for (piece, count) in zip(pieces, counts).reversed() {
            for _ in 0..<count {
                if !varied, piece.choices.count > 1 {
                    characters.append(piece.choices[variation % piece.choices.count])
                    varied = true
                } else {
                    characters.append(piece.choices[0])
                }
            }
        }
        return String(characters.reversed())
    }

    private struct Parser {
        let characters: [Character]
        var index = 0

        var current: Character? { index < characters.count ? characters[index] : nil }

        /// The first of `a|b|…` up to the end or a `)`; the others are read and passed over.
        mutating func alternatives() -> [Piece]? {
            guard let first = sequence() else { return nil }
            while current == "|" {
                index += 1
                guard sequence() != nil else { return nil }
            }
            return first
        }

        mutating func sequence() -> [Piece]? {
            var pieces: [Piece] = []
            while let character = current, character != "|", character != ")" {
                if character == "^", pieces.isEmpty {
                    index += 1
                    continue
                }
                if character == "$" {
                    index += 1
                    guard current == nil || current == "|" || current == ")" else { return nil }
                    continue
                }
                guard var atom = atom() else { return nil }
                guard let (minimum, maximum) = quantifier() else { return nil }
                if atom.count == 1 {
                    atom[0].minimum = min(atom[0].minimum * minimum, PatternSampler.countLimit)
                    atom[0].maximum = maximum.flatMap { maximum in atom[0].maximum.map { maximum * $0 } }
                    pieces.append(atom[0])
                } else {
                    // A group repeats as a whole: its shortest form, as often as it must.
                    for _ in 0..<min(minimum, PatternSampler.countLimit) {
                        pieces += atom.map { Piece(choices: $0.choices, minimum: $0.minimum, maximum: $0.minimum) }
                    }
                }
            }
            return pieces
        }

        /// One atom as pieces (a group gives several).
        mutating func atom() -> [Piece]? {
            guard let character = current else { return nil }
            index += 1
            switch character {
            case "(":
                if current == "?" {
                    guard index + 1 < characters.count, characters[index + 1] == ":" else { return nil }
                    index += 2
                }
                guard let inside = alternatives(), current == ")" else { return nil }
                index += 1
                return inside
            case "[": return characterClass().map { [Piece(choices: $0, minimum: 1, maximum: 1)] }
            case ".": return [Piece(choices: ["a"], minimum: 1, maximum: 1)]
            case "\\": return escape(inClass: false).map { [Piece(choices: $0, minimum: 1, maximum: 1)] }
            case "*", "+", "?", "{", "}", "]": return nil
            default: return [Piece(choices: [character], minimum: 1, maximum: 1)]
            }
        }

        /// `?` `*` `+` `{n}` `{n,}` `{n,m}` (a lazy or possessive mark after it is read too); (1, 1) for none.
        mutating func quantifier() -> (Int, Int?)? {
            var counts: (Int, Int?)
            switch current {
            case "?": counts = (0, 1)
            case "*": counts = (0, nil)
            case "+": counts = (1, nil)
            case "{":
                guard let close = characters[index...].firstIndex(of: "}") else { return nil }
                let parts = String(characters[(index + 1)..<close]).split(
                    separator: ",", omittingEmptySubsequences: false)
                guard let low = Int(parts[0]), parts.count <= 2 else { return nil }
                let high: Int? = parts.count == 1 ? low : parts[1].isEmpty ? nil : Int(parts[1])
                guard parts.count == 1 || parts[1].isEmpty || high != nil else { return nil }
                counts = (min(low, PatternSampler.countLimit), high.map { min($0, PatternSampler.countLimit) })
                index = close
            default: return (1, 1)
            }
            index += 1
            if current == "?" || current == "+" { index += 1 }
            return counts
        }

        /// The characters of `[…]` after its `[`, in the order written; for `[^…]`, letters, digits and a few
        /// signs it does not hold.
        mutating func characterClass() -> [Character]? {
            let negated = current == "^"
            if negated { index += 1 }
            var members: [Character] = []
            var first = true
            while let character = current, character != "]" || first {
                first = false
                index += 1
                var item: [Character]
                if character == "\\" {
                    guard let escaped = escape(inClass: true) else { return nil }
                    item = escaped
                } else {
                    item = [character]
                }
                if item.count == 1, current == "-", index + 1 < characters.count, characters[index + 1] != "]" {
                    index += 1
                    var end = characters[index]
                    index += 1
                    if end == "\\" {
                        guard let escaped = escape(inClass: true), escaped.count == 1 else { return nil }
                        end = escaped[0]
                    }
                    guard let low = item[0].unicodeScalars.first?.value, let high = end.unicodeScalars.first?.value,
                        low <= high
                    else { return nil }
                    item = (low...min(high, low + 255)).compactMap { Unicode.Scalar($0).map(Character.init) }
                }
                members += item
            }
            guard current == "]" else { return nil }
            index += 1
            guard negated else { return members.isEmpty ? nil : members }
            let candidates = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_- .")
            let allowed = candidates.filter { !members.contains($0) }
            return allowed.isEmpty ? nil : allowed
        }

        /// What an escape after its `\` stands for: a set (`\d`), or one character.
        mutating func escape(inClass: Bool) -> [Character]? {
            guard let character = current else { return nil }
            index += 1
            switch character {
            case "d": return Array("0123456789")
            case "w": return Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
            case "s": return [" "]
            case "D", "S": return ["a"]
            case "W": return ["-"]
            case "n": return ["\n"]
            case "t": return ["\t"]
            case "r": return ["\r"]
            case "u", "x":
                let length = character == "u" ? 4 : 2
                guard index + length <= characters.count,
                    let value = UInt32(String(characters[index..<(index + length)]), radix: 16),
                    let scalar = Unicode.Scalar(value)
                else { return nil }
                index += length
                return [Character(scalar)]
            default:
                // Letters and digits after `\` mean something else (`\b`, `\1`, `\p{L}`): not followed.
                return character.isLetter || character.isNumber ? nil : [character]
            }
        }
    }
}
