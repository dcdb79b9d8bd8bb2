import EspressoMartini
import Glibc

#if FUZZING
    import CFuzzerDriver
#endif

/// The `main` of every fuzz target. Built with `-D FUZZING` (and `-sanitize=fuzzer`), it hands control to
/// libFuzzer, which passes each input to `body` and stops at the first crash. Built plainly, it replays the
/// files given as arguments (folders: every file in them, by name; nothing given: the target's committed
/// corpus) through the same `body`, so every `swift build` compiles the targets and a corpus can be checked
/// without the fuzzer. No Foundation: the release build links every product statically.
public enum FuzzEntry {
    /// Set once before libFuzzer starts; read by the C callback, which cannot capture it.
    nonisolated(unsafe) private static var body: (([UInt8]) -> Void)?

    /// `target` names the committed corpus, `Fuzz/Corpus/<target>`.
    public static func main(target: String, _ body: @escaping ([UInt8]) -> Void) -> Never {
        #if FUZZING
            Self.body = body
            var argc = CommandLine.argc
            var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
            let status = LLVMFuzzerRunDriver(&argc, &argv) { data, size in
                FuzzEntry.body?(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
                return 0
            }
            exit(status)
        #else
            let arguments = CommandLine.arguments.dropFirst().filter { !$0.hasPrefix("-") }
            let files = (arguments.isEmpty ? [committedCorpus(target)] : Array(arguments)).flatMap(Self.files)
            for file in files {
                guard let bytes = FileSystem.contents(of: file) else { fail("cannot read \(file)") }
                body(bytes)
            }
            print("replayed \(files.count) inputs without a crash")
            exit(0)
        #endif
    }

    /// A file, or every regular file in a folder (not recursive), by name.
    private static func files(at path: String) -> [String] {
        switch FileSystem.kind(of: path) {
        case .directory:
            return (FileSystem.listing(of: path) ?? []).filter { $0.kind == .regularFile }.map {
                FileSystem.join(path, $0.name)
            }
        case .regularFile:
            return [path]
        default:
            fail("no such file or folder: \(path)")
        }
    }

    /// `Fuzz/Corpus/<target>` in the package this file belongs to (Fuzz/Support/FuzzSupport/FuzzEntry.swift).
    static func committedCorpus(_ target: String) -> String {
        var root = #filePath
        for _ in 0..<4 { root = FileSystem.parent(of: root) }
        return FileSystem.join(root, "Fuzz/Corpus/\(target)")
    }

    private static func fail(_ message: String) -> Never {
        let line = Array((message + "\n").utf8)
        _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        exit(1)
    }
}
