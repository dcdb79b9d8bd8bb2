import Foundation

/// A folder tree written from a table at run time: files with their contents, empty folders, symbolic
/// links and named pipes, all relative to a fresh temporary folder that is removed afterwards.
struct FolderFixture: Sendable {
    var files: [String: String] = [:]
    var folders: [String] = []
    /// Link path → destination as written into the link; `$TMP` stands for the temporary folder.
    var symlinks: [String: String] = [:]
    /// Named pipes, which block a reader that waits for a writer.
    var fifos: [String] = []
    /// File path → permission bits, set once everything is written.
    var modes: [String: mode_t] = [:]

    init(
        files: [String: String] = [:], folders: [String] = [], symlinks: [String: String] = [:], fifos: [String] = [],
        modes: [String: mode_t] = [:]
    ) {
        self.files = files
        self.folders = folders
        self.symlinks = symlinks
        self.fifos = fifos
        self.modes = modes
    }
}

/// Writes `fixture` into a new temporary folder, runs `body` with that folder's path, then removes it.
func withTemporaryFolder<T>(_ fixture: FolderFixture, _ body: (String) throws -> T) throws -> T {
    let fileManager = FileManager.default
    // The real path, so that expected messages match what the loader prints after resolving links.
    let base = URL(fileURLWithPath: NSTemporaryDirectory()).resolvingSymlinksInPath().path
    let root = base + "/espressomartini-tests-" + UUID().uuidString
    try fileManager.createDirectory(atPath: root, withIntermediateDirectories: true)
    defer { try? fileManager.removeItem(atPath: root) }

    func parentFolder(of relative: String) throws {
        let parent = (root + "/" + relative as NSString).deletingLastPathComponent
        try fileManager.createDirectory(atPath: parent, withIntermediateDirectories: true)
    }
    for folder in fixture.folders {
        try fileManager.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
    }
    for (relative, contents) in fixture.files {
        try parentFolder(of: relative)
        guard fileManager.createFile(atPath: root + "/" + relative, contents: Data(contents.utf8)) else {
            throw CocoaError(.fileWriteUnknown)
        }
    }
    for (relative, destination) in fixture.symlinks {
        try parentFolder(of: relative)
        try fileManager.createSymbolicLink(
            atPath: root + "/" + relative,
            withDestinationPath: destination.replacingOccurrences(of: "$TMP", with: root)
        )
    }
    for relative in fixture.fifos {
        try parentFolder(of: relative)
        guard mkfifo(root + "/" + relative, 0o644) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }
    for (relative, mode) in fixture.modes {
        guard chmod(root + "/" + relative, mode) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }
    return try body(root)
}
