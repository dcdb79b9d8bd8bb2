import EspressoMartini
import EspressoMartiniCommandLine
import EspressoMartiniJansson
import EspressoMartiniOpenAPI
import EspressoMartiniYAML

/// `import openapi SPEC`: writes a tree that serves every operation of an OpenAPI 3.0, 3.1 or Swagger 2.0
/// description (doc/openapi.md). Exit 65 when the file is not JSON or YAML or no operation can be imported,
/// 66 when it cannot be read, 69 when it is YAML and libyaml is missing, 73 when the requests folder holds
/// files (unless `--force`) or cannot be written.
struct Import: Command {
    static let formats = ["openapi"]
    static let formatArgument = PositionalArgument(
        name: "format", help: "What the file is: openapi (OpenAPI 3.0, 3.1 or Swagger 2.0).",
        completion: .words(formats), isRequired: true
    )
    static let specArgument = PositionalArgument(
        name: "spec", help: "The description, JSON or YAML.", completion: .files, isRequired: true)
    static let requestsFolderOption = OptionDefinition.option(
        "requests-folder", valueName: "dir", help: "The folder to write the tree into (default: network-exchanges).",
        completion: .directories
    )
    static let forceFlag = OptionDefinition.flag(
        "force",
        help:
            "Write into a folder that already holds files: each operation's method folder is written over, other files stay."
    )

    static let definition = CommandDefinition(
        name: "import", abstract: "Write a tree that serves every operation of an OpenAPI description.",
        discussion: """
            A request without Prefer gets the lowest 2xx; 'Prefer: code=404' and 'Prefer: example=NAME' choose \
            another documented answer. Prints 'imported N operations into DIR' and a warning for each part it \
            could not follow. Never writes into a folder that holds files, unless --force.
            """,
        options: [requestsFolderOption, forceFlag], positionals: [formatArgument, specArgument],
        make: { arguments throws(UsageError) in try Import(arguments) }
    )

    var spec: String
    var requestsFolder: String
    var force: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard Self.formats.contains(arguments.words[0]) else {
            throw UsageError(
                message:
                    "Unknown format '\(arguments.words[0])'; import reads: \(Self.formats.joined(separator: ", "))",
                command: Self.definition)
        }
        spec = arguments.words[1]
        requestsFolder = arguments.text(Self.requestsFolderOption) ?? ServerConfiguration.defaultRequestsFolder
        guard !requestsFolder.isEmpty else {
            throw UsageError(
                message: "The requests folder is empty; name a folder such as network-exchanges",
                command: Self.definition, option: Self.requestsFolderOption)
        }
        force = arguments.isSet(Self.forceFlag)
    }

    func run() throws {
        let parser = DescriptionParser(
            json: JanssonParser(), yaml: YAMLParser(valueLimit: OpenAPIImporter.yamlValueLimit))
        let drafted = OpenAPIImporter(parser: parser).draft(file: spec)
        if let failure = drafted.failure {
            for diagnostic in drafted.diagnostics.all { StandardError.printLine(diagnostic.description) }
            StandardError.printLine("espressomartini: nothing was imported")
            switch failure {
            case .unreadable: throw ExitStatus.noInput
            case .invalid: throw ExitStatus.dataError
            case .yamlUnavailable: throw ExitStatus.unavailable
            }
        }
        try checkFolder()
        let writer = TreeWriter(requestsFolder: requestsFolder, schema: StarterTree.installedExchangeSchema)
        for exchange in drafted.exchanges {
            do throws(TreeWritingError) {
                try writer.write(exchange)
            } catch {
                StandardError.printLine("espressomartini: \(error); the import stopped part way")
                throw ExitStatus.cannotCreate
            }
        }
        try DiagnosticsReport.check(drafted.diagnostics, outcome: "")
        let count = drafted.exchanges.count
        print("imported \(count) operation\(count == 1 ? "" : "s") into \(requestsFolder)")
    }

    /// Exit 73 when the requests folder is not a folder, or holds a file and `--force` was not given.
    private func checkFolder() throws(ExitStatus) {
        switch FileSystem.kind(of: requestsFolder) {
        case nil: return
        case .directory: break
        default:
            StandardError.printLine("espressomartini: \(requestsFolder) is not a folder; nothing was written")
            throw .cannotCreate
        }
        guard !force, let file = Self.firstFile(under: requestsFolder) else { return }
        StandardError.printLine(
            "espressomartini: \(requestsFolder) already holds files (\(file)); nothing was written. Import into a new or empty folder, "
                + "or give --force to write each operation's method folder over what is there"
        )
        throw .cannotCreate
    }

    /// The first file below `folder`, in byte-wise order, depth first; hidden entries (which a tree ignores)
    /// and links to folders are not looked into.
    static func firstFile(under folder: String) -> String? {
        for entry in FileSystem.listing(of: folder) ?? [] where !entry.name.hasPrefix(".") {
            let path = FileSystem.join(folder, entry.name)
            if entry.kind == .directory {
                if !entry.isLink, let file = firstFile(under: path) { return file }
            } else {
                return path
            }
        }
        return nil
    }
}

extension ExitStatus {
    /// `import`: the description is not JSON or YAML, or has no operation to import (EX_DATAERR).
    static let dataError = ExitStatus(code: 65)
    /// `import`: the description cannot be read (EX_NOINPUT).
    static let noInput = ExitStatus(code: 66)
}
