import EspressoMartini
import EspressoMartiniJansson

/// JSON text for table tests, parsed by the server's parser.
func json(_ text: String) -> JSONValue {
    switch JanssonParser().parse(Array(text.utf8)) {
    case .success(let value): return value
    case .failure(let error): fatalError("bad JSON in a test table: \(error.message) in \(text)")
    }
}
