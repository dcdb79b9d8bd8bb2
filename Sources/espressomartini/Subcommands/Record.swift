import EspressoMartini
import EspressoMartiniCommandLine
import Glibc
import Logging

/// `record --target URL`: a proxy that forwards every request to the target and writes each exchange into
/// the requests folder as it completes (doc/recording.md); `SIGINT` or `SIGTERM` finishes the writes under
/// way and says what was recorded.
struct Record: Command {
    static let targetOption = OptionDefinition.option(
        "target", valueName: "url", help: "The real API to forward every request to (http:// or https://)."
    )
    static let matchHeaderOption = OptionDefinition.option(
        "match-header", valueName: "name",
        help: "A request header that becomes a condition of what is recorded; repeat it for more.",
        isRepeatable: true
    )
    static let repeatsOption = OptionDefinition.option(
        "repeats", valueName: "mode",
        help: "What an identical request seen again records: sequence (its answer is appended) or first (nothing).",
        completion: .words(RecordingOptions.Repeats.allCases.map(\.rawValue))
    )
    static let redactOption = OptionDefinition.option(
        "redact", valueName: "name", help: "A response header whose value is written as REDACTED; repeat it for more.",
        isRepeatable: true
    )
    static let keepHeaderOption = OptionDefinition.option(
        "keep-header", valueName: "name",
        help:
            "A response header written as it is, even a credential one (Set-Cookie) that is otherwise REDACTED; repeat it for more.",
        isRepeatable: true
    )

    static let definition = CommandDefinition(
        name: "record",
        abstract: "Forward every request to a real API and write each exchange into the requests folder.",
        discussion:
            "Creates the requests folder when it is missing. SIGINT or SIGTERM finishes the writes under way and prints what was recorded.",
        options: SourceOptions.options + [
            targetOption, Run.hostnameOption, Run.portOption, Run.logLevelOption, matchHeaderOption, repeatsOption,
            redactOption, keepHeaderOption,
        ],
        make: { arguments throws(UsageError) in try Record(arguments) }
    )

    var source: SourceOptions
    var target: ProxyTarget
    var hostname: String?
    var port: Int?
    var portRange: ClosedRange<Int>?
    var logLevel: Logger.Level?
    var options: RecordingOptions

    init(_ arguments: ParsedArguments) throws(UsageError) {
        source = SourceOptions(arguments)
        guard let target = try Run.target(arguments, option: Self.targetOption, command: Self.definition) else {
            throw UsageError(
                message: "Give the API to record with \(Self.targetOption.longSpelling) URL", command: Self.definition,
                option: Self.targetOption)
        }
        self.target = target
        hostname = arguments.text(Run.hostnameOption)
        (port, portRange) = try Run.port(arguments, command: Self.definition)
        logLevel = try Run.logLevel(arguments, command: Self.definition)
        options = RecordingOptions(
            matchHeaders: arguments.texts(Self.matchHeaderOption), redactedHeaders: arguments.texts(Self.redactOption),
            keptHeaders: arguments.texts(Self.keepHeaderOption))
        for name in options.matchHeaders + options.redactedHeaders + options.keptHeaders
        where !HTTPHeader.isValidName(name) {
            throw UsageError(
                message: "'\(name)' is not a header name (letters, digits and !#$%&'*+-.^_`|~ only)",
                command: Self.definition)
        }
        if let mode = arguments.text(Self.repeatsOption) {
            guard let repeats = RecordingOptions.Repeats(rawValue: mode) else {
                throw UsageError(
                    message: "\(Self.repeatsOption.longSpelling) must be sequence or first", command: Self.definition,
                    option: Self.repeatsOption)
            }
            options.repeats = repeats
        }
    }

    func run() throws {
        StopSignals.block()
        var (configuration, diagnostics) = source.resolve()
        Run.apply(hostname: hostname, port: port, portRange: portRange, logLevel: logLevel, to: &configuration)
        var proxy = configuration.proxy ?? ProxyConfiguration(target: target)
        proxy.target = target
        proxy.forwards = .everything
        proxy.records = true
        configuration.proxy = proxy
        // The tree is not consulted while recording: reloading it as it grows would only cost the writes time.
        configuration.watch = false
        try Run.serve(configuration, diagnostics: diagnostics, recording: options)
    }
}
