/// The options read for one command, already converted to their kind; an option given twice keeps its last value.
public struct ParsedArguments: Sendable {
    public enum Value: Sendable {
        case flag
        case text(String)
        case integer(Int)
        case number(Double)
        /// `N` read as `N-N`; the bounds as given (not checked for order).
        case integerRange(Int, Int)
    }

    private var values: [String: Value] = [:]
    /// Every value of each repeatable option, in command-line order.
    private var repeatedValues: [String: [Value]] = [:]

    public init() {}
    /// What follows the options: the commands `help` describes, or a command's positional arguments.
    public private(set) var words: [String] = []

    public mutating func set(_ option: OptionDefinition, to value: Value) {
        values[option.name] = value
        if option.isRepeatable { repeatedValues[option.name, default: []].append(value) }
    }

    public mutating func append(word: String) { words.append(word) }

    public func isSet(_ option: OptionDefinition) -> Bool { values[option.name] != nil }

    public func text(_ option: OptionDefinition) -> String? {
        guard case .text(let text) = values[option.name] else { return nil }
        return text
    }

    /// Every value of a repeatable text option, in order; empty when it was not given.
    public func texts(_ option: OptionDefinition) -> [String] {
        (repeatedValues[option.name] ?? []).compactMap { value in
            guard case .text(let text) = value else { return nil }
            return text
        }
    }

    public func integer(_ option: OptionDefinition) -> Int? {
        guard case .integer(let integer) = values[option.name] else { return nil }
        return integer
    }

    /// The bounds of an `integerRange` option (`N` gives `(N, N)`), as given.
    public func integerRange(_ option: OptionDefinition) -> (first: Int, last: Int)? {
        guard case .integerRange(let first, let last) = values[option.name] else { return nil }
        return (first, last)
    }

    public func number(_ option: OptionDefinition) -> Double? {
        guard case .number(let number) = values[option.name] else { return nil }
        return number
    }
}
