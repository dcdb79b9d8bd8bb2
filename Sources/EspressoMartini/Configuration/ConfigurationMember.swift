/// A member of a configuration object as the reader of its keys sees it (`ConfigurationMember.read`): its
/// key and value, where it is, how messages name it, and the checks keys share, each reporting a problem at
/// the member's value with that name.
struct ConfigurationMember {
    let key: String
    let value: JSONValue
    /// From the document's root, for positions.
    let path: [String]
    /// How messages name it: `'port'`, `'proxy' 'timeout'`.
    let name: String
    let file: String
    /// Where its value is.
    let position: SourcePosition

    /// Calls `read` with each member of the object `members` at `path` whose key is in `known`, named
    /// after `object` (`'proxy'`, nil for the document itself); any other key is warned of, with the known
    /// key closest to it.
    static func read(
        _ members: [JSONMember], at path: [String], of object: String?, known: [String], file: String,
        map: some JSONPositions,
        into diagnostics: inout Diagnostics, _ read: (ConfigurationMember, inout Diagnostics) -> Void
    ) {
        for member in members {
            let memberPath = path + [member.key]
            guard known.contains(member.key) else {
                diagnostics.warning(file, map.key(memberPath), Suggestion.unknownKeyMessage(member.key, known: known))
                continue
            }
            let name = (object.map { $0 + " " } ?? "") + "'\(member.key)'"
            read(
                ConfigurationMember(
                    key: member.key, value: member.value, path: memberPath, name: name, file: file,
                    position: map.value(memberPath)), &diagnostics)
        }
    }

    func error(_ message: String, into diagnostics: inout Diagnostics) {
        diagnostics.error(file, position, message)
    }

    /// `'port' must be an integer from 0 to 65535, found a string`.
    func wrongType(_ expected: String, into diagnostics: inout Diagnostics) {
        error("\(name) must be \(expected), found \(value.kindName)", into: &diagnostics)
    }

    /// `true` or `false`; nil, reported, for anything else.
    func flag(into diagnostics: inout Diagnostics) -> Bool? {
        guard case .bool(let flag) = value else {
            wrongType("true or false", into: &diagnostics)
            return nil
        }
        return flag
    }

    /// A string; nil, reported as not being `expected`, for anything else.
    func string(_ expected: String, into diagnostics: inout Diagnostics) -> String? {
        guard case .string(let text) = value else {
            wrongType(expected, into: &diagnostics)
            return nil
        }
        return text
    }

    /// An integer in `range` (`unit` follows the range in the message: " MiB"); nil, reported, otherwise.
    func integer(
        in range: ClosedRange<Int>, expected: String? = nil, unit: String = "", into diagnostics: inout Diagnostics
    ) -> Int? {
        guard case .integer(let number) = value else {
            wrongType(expected ?? "an integer from \(range.lowerBound) to \(range.upperBound)", into: &diagnostics)
            return nil
        }
        guard range.contains(Int(number)) else {
            error(
                "\(name) \(number) is out of range; use \(range.lowerBound) to \(range.upperBound)\(unit)",
                into: &diagnostics)
            return nil
        }
        return Int(number)
    }

    /// A number of seconds in `range`, written `text` in messages ("0.1 to 3600"); nil, reported, otherwise.
    func seconds(in range: ClosedRange<Double>, written text: String, into diagnostics: inout Diagnostics) -> Double? {
        guard let seconds = value.numberValue else {
            wrongType("a number of seconds from \(text)", into: &diagnostics)
            return nil
        }
        guard range.contains(seconds) else {
            error("\(name) \(value.compactText) is out of range; use \(text) seconds", into: &diagnostics)
            return nil
        }
        return seconds
    }
}
