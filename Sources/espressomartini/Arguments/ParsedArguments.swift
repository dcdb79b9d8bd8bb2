/// The options read for one command, already converted to their kind; an option given twice keeps its last value.
struct ParsedArguments {
    enum Value {
        case flag
        case text(String)
        case integer(Int)
        case number(Double)
    }

    private var values: [String: Value] = [:]
    /// What follows the options: the commands `help` describes, or a command's one positional argument.
    private(set) var words: [String] = []

    mutating func set(_ option: OptionDefinition, to value: Value) { values[option.name] = value }

    mutating func append(word: String) { words.append(word) }

    func isSet(_ option: OptionDefinition) -> Bool { values[option.name] != nil }

    func text(_ option: OptionDefinition) -> String? {
        guard case .text(let text) = values[option.name] else { return nil }
        return text
    }

    func integer(_ option: OptionDefinition) -> Int? {
        guard case .integer(let integer) = values[option.name] else { return nil }
        return integer
    }

    func number(_ option: OptionDefinition) -> Double? {
        guard case .number(let number) = values[option.name] else { return nil }
        return number
    }
}
