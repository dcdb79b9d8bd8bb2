/// Why part of a description cannot be read (a `$ref` that leads nowhere, a version not read), as a phrase
/// for a warning or an error.
struct DescriptionProblem: Error, Sendable {
    let message: String

    init(_ message: String) {
        self.message = message
    }
}
