/// One header of a templated response: its name as configured, its value as a template.
public struct HeaderTemplate: Sendable, Equatable {
    public let name: String
    public let value: MustacheTemplate

    public init(name: String, value: MustacheTemplate) {
        self.name = name
        self.value = value
    }
}
