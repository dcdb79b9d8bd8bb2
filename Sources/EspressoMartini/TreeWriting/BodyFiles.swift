/// The body files of one method folder as the tree writer writes them: `response-N.EXT`, numbered in the
/// order they are named, after the highest number of the files kept as they are; one file per distinct body.
struct BodyFiles {
    let folder: String
    /// The names given out so far, in order, each once.
    private(set) var named: [String] = []
    private var byContents: [BodyKey: String] = [:]
    private var nextNumber: Int

    private struct BodyKey: Hashable {
        let bytes: [UInt8]
        let fileExtension: String
    }

    /// `drafts`: every body the exchange has, for the numbers of the files it keeps; `numberingAfterFolder`:
    /// new files are numbered after every `response-N` already in the folder too.
    /// Files are written straight into `folder` (one no loader reads yet) instead of through temporary files.
    private let writingDirectly: Bool

    init(folder: String, drafts: [ResponseDraft.Body], numberingAfterFolder: Bool = false, writingDirectly: Bool = false) {
        self.folder = folder
        self.writingDirectly = writingDirectly
        var kept = drafts.compactMap { draft -> Int? in
            guard case .existingFile(let name) = draft else { return nil }
            return Self.number(of: name)
        }
        if numberingAfterFolder {
            kept += (FileSystem.listing(of: folder) ?? []).compactMap { Self.number(of: $0.name) }
        }
        nextNumber = (kept.max() ?? 0) + 1
    }

    /// The file name `body` is written under (written now unless it is already there).
    mutating func name(_ body: ResponseDraft.Body) throws(TreeWritingError) -> String {
        let name: String
        switch body {
        case .none, .inline:
            preconditionFailure("only file bodies have a file")
        case .existingFile(let existing):
            name = existing
        case .bytes(let bytes, let fileExtension):
            let key = BodyKey(bytes: bytes, fileExtension: fileExtension)
            if let written = byContents[key] { return written }
            name = nextName(fileExtension)
            if writingDirectly {
                try TreeFiles.writeDirectly(bytes, to: FileSystem.join(folder, name))
            } else {
                try TreeFiles.write(bytes, to: FileSystem.join(folder, name))
            }
            byContents[key] = name
        case .movedFile(let path, let fileExtension):
            name = nextName(fileExtension)
            try TreeFiles.move(path, to: FileSystem.join(folder, name))
        }
        if !named.contains(name) { named.append(name) }
        return name
    }

    private mutating func nextName(_ fileExtension: String) -> String {
        defer { nextNumber += 1 }
        return "response-\(nextNumber)" + (fileExtension.isEmpty ? "" : "." + fileExtension)
    }

    /// Removes the folder's `response-N.*` files that this write did not name (an earlier write's).
    func removeUnnamed() throws(TreeWritingError) {
        for entry in FileSystem.listing(of: folder) ?? [] where entry.kind == .regularFile {
            if Self.number(of: entry.name) != nil, !named.contains(entry.name) {
                try TreeFiles.remove(FileSystem.join(folder, entry.name))
            }
        }
    }

    /// N for a name `response-N` or `response-N.EXT`.
    static func number(of name: String) -> Int? {
        guard name.hasPrefix("response-") else { return nil }
        let rest = name.dropFirst("response-".count)
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count == rest.count || rest.dropFirst(digits.count).first == "." else { return nil }
        let fileExtension = rest.dropFirst(digits.count).dropFirst()
        guard !fileExtension.contains(".") else { return nil }
        return Int(digits)
    }
}
