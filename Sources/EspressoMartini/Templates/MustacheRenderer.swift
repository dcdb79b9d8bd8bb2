/// One render of a template: walks the nodes, appending to the output, with the values of the
/// sections it is inside on a stack above the root context. It reads the template's arrays through
/// buffer pointers, so walking the nodes costs no reference counting: it lives only inside
/// `MustacheTemplate.render`, which holds the arrays for it.
struct MustacheRenderer {
    let nodes: UnsafeBufferPointer<MustacheNode>
    let names: UnsafeBufferPointer<MustacheName>
    let text: UnsafeBufferPointer<UInt8>
    let root: any MustacheContext
    let escaping: MustacheEscaping

    /// Renders `nodeRange`; `stack` holds the values of the enclosing sections, innermost last.
    func render(_ nodeRange: Range<Int>, stack: inout [JSONValue], into output: inout [UInt8]) {
        var index = nodeRange.lowerBound
        while index < nodeRange.upperBound {
            switch nodes[index] {
            case .text(let range):
                output.append(contentsOf: UnsafeBufferPointer(rebasing: text[range]))
                index += 1
            case .variable(let name, let escaped):
                if let value = resolve(names[name], stack: stack) {
                    write(value, escaping: escaped ? escaping : .none, into: &output)
                }
                index += 1
            case .section(let name, let inverted, let end):
                let value = resolve(names[name], stack: stack)
                let body = index + 1..<end
                if inverted {
                    if !(value?.isMustacheTruthy ?? false) { render(body, stack: &stack, into: &output) }
                } else if case .array(let elements)? = value {
                    for element in elements {
                        stack.append(element)
                        render(body, stack: &stack, into: &output)
                        stack.removeLast()
                    }
                } else if let value, value.isMustacheTruthy {
                    stack.append(value)
                    render(body, stack: &stack, into: &output)
                    stack.removeLast()
                }
                index = end
            }
        }
    }

    /// Mustache's lookup: `.` is the innermost value; otherwise the innermost section value that is
    /// an object with the first segment, the rest followed from there; else the root context.
    private func resolve(_ name: MustacheName, stack: [JSONValue]) -> JSONValue? {
        guard let first = name.segments.first else { return stack.last ?? root.rootValue() }
        for context in stack.reversed() {
            if case .object = context, let value = context.child(named: first) {
                return value.descendant(at: name.segments.dropFirst())
            }
        }
        return root.value(at: name.segments)
    }

    /// Strings as text, numbers as JSON writes them, booleans as `true`/`false`, null as nothing,
    /// objects and arrays as compact JSON.
    private func write(_ value: JSONValue, escaping: MustacheEscaping, into output: inout [UInt8]) {
        switch value {
        case .null: break
        case .bool(let value): output.append(contentsOf: value ? "true".utf8 : "false".utf8)
        case .integer(let value): Self.appendDecimal(value, to: &output)
        case .real(let value): if value.isFinite { output.append(contentsOf: String(value).utf8) }
        case .string(let value): escaping.append(value, to: &output)
        case .array, .object: escaping.append(value.compactText, to: &output)
        }
    }

    private static func appendDecimal(_ value: Int64, to output: inout [UInt8]) {
        if value < 0 { output.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let start = output.count
        repeat {
            output.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        output[start...].reverse()
    }
}
