/// Why a proxy's upstream client cannot be used (libcurl missing or too old): a configuration error for `proxy`.
struct UpstreamClientUnavailable: Error, CustomStringConvertible {
    let description: String
}
