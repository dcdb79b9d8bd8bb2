/// A name in a tag, split at its dots when the template is parsed: `request.pathParameters.id` is
/// `["request", "pathParameters", "id"]`; the implicit iterator `.` has no segments.
struct MustacheName: Sendable, Equatable {
    let segments: [String]

    var isImplicitIterator: Bool { segments.isEmpty }
}
