import EspressoMartiniCommandLine
import Glibc

/// `init [DIR]`: writes a starter tree and its configuration into DIR (created when missing), then says what
/// to run next. It never overwrites anything: when one of its files exists, it writes nothing and exits 73.
struct Init: Command {
    static let folderArgument = PositionalArgument(
        name: "dir", help: "The folder to write into, created when missing (default: the current folder).",
        completion: .directories
    )

    static let definition = CommandDefinition(
        name: "init", abstract: "Write a starter tree and configuration, then say what to run next.",
        discussion:
            "Writes configuration.json and network-exchanges/ (a GET, a POST with a sequence, an {id} route). Never overwrites a file.",
        positionals: [folderArgument], make: { Init($0) }
    )

    var folder: String

    init(_ arguments: ParsedArguments) {
        folder = arguments.words.first ?? "."
    }

    func run() throws {
        let files = StarterTree(schemaFolder: StarterTree.installedSchemaFolder).files
        let paths = files.map { join(folder, $0.path) }
        // Everything is checked before anything is written.
        for path in paths {
            if let blocker = parentFolders(of: path).first(where: { exists($0) && !isFolder($0) }) {
                try fail("\(blocker) is not a folder")
            }
            if exists(path) { try fail("\(path) already exists") }
        }
        for (file, path) in zip(files, paths) {
            for parent in parentFolders(of: path) where !isFolder(parent) {
                guard mkdir(parent, 0o755) == 0 || errno == EEXIST else {
                    try fail("cannot create the folder \(parent): \(describe(errno))")
                }
            }
            try write(file.text, to: path)
        }
        print(nextSteps(paths))
    }

    private func nextSteps(_ paths: [String]) -> String {
        let width = StarterTree.routes.map(\.1.count).max() ?? 0
        let routes = StarterTree.routes.map { method, route, answer in
            "  " + method.padding(5) + " " + route.padding(width) + "  " + answer
        }
        let enter = folder == "." ? "" : "cd \(Self.shellWord(folder)) && "
        return """
            espressomartini: wrote a starter tree:
            \(paths.map { "  " + $0 }.joined(separator: "\n"))
            It serves:
            \(routes.joined(separator: "\n"))
            Next, serve it and ask it:
              \(enter)espressomartini run
              curl http://127.0.0.1:\(StarterTree.port)/api/hello
            """
    }

    private func fail(_ problem: String) throws -> Never {
        StandardError.printLine("espressomartini: \(problem); nothing was written (init never overwrites a file)")
        throw ExitStatus.cannotCreate
    }

    /// Creates the file, failing if anything appeared there since the check.
    private func write(_ text: String, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { try fail("cannot create \(path): \(describe(errno))") }
        defer { close(descriptor) }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            guard written > 0 else { try fail("cannot write \(path): \(describe(errno))") }
            bytes = bytes.dropFirst(written)
        }
    }

    /// The folders of a file's path, outermost first (`a`, `a/b` for `a/b/file`).
    private func parentFolders(of path: String) -> [String] {
        var folders: [String] = []
        var current = path
        while let slash = current.lastIndex(of: "/") {
            current = String(current[..<slash])
            if current.isEmpty { break }
            folders.insert(current, at: 0)
        }
        return folders
    }

    private func join(_ folder: String, _ path: String) -> String {
        folder == "." ? path : (folder.hasSuffix("/") ? folder + path : folder + "/" + path)
    }

    private func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    private func isFolder(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    private func describe(_ error: Int32) -> String { String(cString: strerror(error)) }

    /// The folder as typed in a shell: as is when it needs no quotes.
    static func shellWord(_ text: String) -> String {
        let plain =
            !text.isEmpty
            && text.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"):
                    true
                default: "/._-+@%=,:".utf8.contains(byte)
                }
            }
        return plain ? text : ShellQuoting.posix(text)
    }
}

private extension String {
    /// Padded with spaces to `width` characters.
    func padding(_ width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
}
