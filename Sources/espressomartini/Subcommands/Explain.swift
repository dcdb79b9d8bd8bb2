import EspressoMartini
import EspressoMartiniCommandLine
import EspressoMartiniJansson

/// `explain METHOD TARGET`: which exchange, variant and response would answer the request, and why the other
/// candidates would not (doc/command-line.md), without serving anything: the tree is read as `run` reads it, every call
/// counter at 0. Exit 0 when an exchange would answer, 1 when it would not (`404`, `405`, `400`, the admin API).
struct Explain: Command {
    static let methodArgument = PositionalArgument(
        name: "method", help: "The request's method, as sent (methods are case-sensitive).",
        completion: .words(HTTPMethod.allCases.map(\.name)),
        isRequired: true
    )
    static let targetArgument = PositionalArgument(
        name: "target",
        help:
            "The path with an optional query, as on the request line: /users/42?page=2 (the path is percent-decoded).",
        completion: .nothing, isRequired: true
    )
    static let headerOption = OptionDefinition.option(
        "header", valueName: "header", help: "A request header, as 'Name: value'; repeat it for more headers.",
        isRepeatable: true
    )
    static let bodyOption = OptionDefinition.option("body", valueName: "text", help: "The request's body.")
    static let bodyFileOption = OptionDefinition.option(
        "body-file", valueName: "file", help: "The request's body, read from a file.", completion: .files)
    static let jsonOption = OptionDefinition.flag(
        "json", help: "Print a JSON object, as GET /__espressomartini/explain answers.")

    static let definition = CommandDefinition(
        name: "explain",
        abstract: "Say which exchange, variant and response would answer a request, and why others would not.",
        discussion:
            "Serves nothing: reads the tree as run does, every call counter at 0. Exits 0 when an exchange would answer, 1 when not.",
        options: SourceOptions.options + [headerOption, bodyOption, bodyFileOption, jsonOption],
        positionals: [methodArgument, targetArgument], make: { arguments throws(UsageError) in try Explain(arguments) }
    )

    var source: SourceOptions
    var method: String
    var target: RequestTarget
    var headers: [HTTPHeader]
    var body: String?
    var bodyFile: String?
    var json: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        source = SourceOptions(arguments)
        method = arguments.words[0]
        target = RequestTarget(arguments.words[1])
        headers = []
        for text in arguments.texts(Self.headerOption) {
            guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else {
                throw UsageError(
                    message: "The header '\(text)' is not 'Name: value'", command: Self.definition,
                    option: Self.headerOption)
            }
            let value = text[text.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
            headers.append(
                HTTPHeader(
                    name: String(text[..<colon]),
                    value: String(value.reversed().drop { $0 == " " || $0 == "\t" }.reversed())))
        }
        body = arguments.text(Self.bodyOption)
        bodyFile = arguments.text(Self.bodyFileOption)
        if body != nil, bodyFile != nil {
            throw UsageError(message: "Give the body with --body or --body-file, not both", command: Self.definition)
        }
        json = arguments.isSet(Self.jsonOption)
    }

    func run() throws {
        var bytes = body.map { Array($0.utf8) }
        if let bodyFile {
            guard let contents = FileSystem.contents(of: bodyFile) else {
                StandardError.printLine("espressomartini: cannot read the body file \(bodyFile)")
                throw ExitStatus.usageError
            }
            bytes = contents
        }
        let (configuration, tree) = try source.loadTree(outcome: "nothing explained")
        // As the server builds it for an exchange that reads the body: an empty body is no body.
        var request = Request(
            method: method, path: target.path, segments: target.segments, rawQuery: target.rawQuery,
            headers: RequestHeaders(headers),
            body: bytes?.isEmpty == false ? bytes : nil
        )
        switch session(in: request, configuration: configuration) {
        case .none: break
        case .named(let name): request.session = Session(name: name)
        case .refused(let reason):
            request.sessionRefusal = SessionName.refusal(reason, header: configuration.sessionHeader)
        }
        // Explained as the server would answer a client on this machine.
        request.client = ClientAddress(text: "127.0.0.1", isLoopback: true)
        // As the server decides, every counter at 0: a tree just loaded.
        let serving = ServingTree(tree, counters: CallCounters(), configuration: configuration)
        let explanation = Explanation(
            explaining: request, in: serving,
            decider: Decider(configuration: configuration, admin: nil, parser: JanssonParser()))
        print(json ? explanation.json.compactText : explanation.text, terminator: json ? "\n" : "")
        guard explanation.isAnswered else { throw ExitStatus.notAnswered }
    }
}

extension Explain {
    /// What the request's session header says, as the server reads it.
    private func session(in request: Request, configuration: ServerConfiguration) -> SessionName {
        guard let value = request.headers.firstValue(named: configuration.sessionHeader) else { return .none }
        var bytes = Array(value.utf8)
        return bytes.withUnsafeMutableBufferPointer { SessionName(headerValue: UnsafeBufferPointer($0)) }
    }
}

extension ExitStatus {
    /// `explain`: no exchange would answer the request.
    static let notAnswered = ExitStatus(code: 1)
}
