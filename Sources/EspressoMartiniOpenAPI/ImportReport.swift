import EspressoMartini

/// The warnings and errors of one import, each said once however often its place is reached (a schema
/// shared by many operations): `SPEC: warning: at /paths/~1pets/get: MESSAGE`.
final class ImportReport {
    private(set) var diagnostics = Diagnostics()
    private var said: Set<String> = []
    /// The description's file as the files of the import name it, and as the user gave it.
    private let rootFile: String
    private let rootDisplayName: String

    init(rootFile: String, rootDisplayName: String) {
        self.rootFile = rootFile
        self.rootDisplayName = rootDisplayName
    }

    func warning(at location: JSONLocation, _ message: String) {
        add(.warning, at: location, message)
    }

    func error(at location: JSONLocation, _ message: String) {
        add(.error, at: location, message)
    }

    func error(in file: String, at position: SourcePosition? = nil, _ message: String) {
        let diagnostic = Diagnostic(.error, path: displayName(file), position: position, message: message)
        if said.insert(diagnostic.description).inserted { diagnostics.error(diagnostic.path, position, message) }
    }

    func displayName(_ file: String) -> String { file == rootFile ? rootDisplayName : file }

    private func add(_ severity: Diagnostic.Severity, at location: JSONLocation, _ message: String) {
        let text = location.tokens.isEmpty ? message : "at \(location.pointer): \(message)"
        let path = displayName(location.file)
        guard said.insert("\(severity) \(path) \(text)").inserted else { return }
        switch severity {
        case .warning: diagnostics.warning(path, nil, text)
        case .error: diagnostics.error(path, nil, text)
        }
    }
}
