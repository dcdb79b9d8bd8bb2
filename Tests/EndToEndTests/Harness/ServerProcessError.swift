/// Why the binary under test could not be started or did not become ready.
struct ServerProcessError: Error, CustomStringConvertible {
    let description: String
}
