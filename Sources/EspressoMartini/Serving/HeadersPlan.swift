/// What the server does with a request once its headers are in (`Decider.plan(atHeaders:tree:)`): plan it
/// now, or once its body is in.
public enum HeadersPlan: Sendable {
    /// Planned now: the body, if one comes, is not read to decide (with `forward`, it streams to the target
    /// as it arrives).
    case decided(Plan)
    /// The request's exchange reads its body (variants, templates, scripts): planned once the body is in, or
    /// as soon as it outgrows what conditions read (`VariantConditions.bodyLimit`), on the route found now.
    case awaitsBody(ResolvedRoute)
    /// The admin API: planned once the body is in (counting and finding requests read it), its client's
    /// address read for its access rules.
    case admin
}
