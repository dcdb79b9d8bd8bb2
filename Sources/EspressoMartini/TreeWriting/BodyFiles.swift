/// The body files of one method folder as the tree writer writes them: `response-N.EXT`, numbered in the
/// order they are named, after the highest number of the files kept as they are; one file per distinct body.
struct BodyFiles {
    /// Where the files go, for messages and for files written through temporary files.
    var folder: String { hidden?.path ?? folderPath }
    private let folderPath: String
    /// The names given out so far, in order, each once.
    private(set) var named: [String] = []
    /// The bodies written from bytes, to find an identical one among an exchange's few bodies.
    private var written: [(bytes: [UInt8], fileExtension: String, name: String)] = []
    private var nextNumber: Int

    /// A new folder no loader reads yet, which files are written straight into instead of through temporary
    /// files; nil: `folder`, through temporary files.
    private let hidden: HiddenFolder?

    /// `drafts`: every body the exchange has, for the numbers of the files it keeps; `numberingAfterFolder`:
    /// new files are numbered after every `response-N` already in the folder too.
    init(folder: String, drafts: [ResponseDraft.Body], numberingAfterFolder: Bool = false) {
        folderPath = folder
        hidden = nil
        var kept = Self.numbers(in: drafts)
        if numberingAfterFolder {
            kept += (FileSystem.listing(of: folder) ?? []).compactMap { Self.number(of: $0.name) }
        }
        nextNumber = (kept.max() ?? 0) + 1
    }

    /// The body files of a new method folder, written into `hidden`.
    init(writingInto hidden: HiddenFolder, drafts: [ResponseDraft.Body]) {
        folderPath = ""
        self.hidden = hidden
        nextNumber = (Self.numbers(in: drafts).max() ?? 0) + 1
    }

    /// The numbers of the existing files `drafts` name.
    private static func numbers(in drafts: [ResponseDraft.Body]) -> [Int] {
        drafts.compactMap { draft -> Int? in
            guard case .existingFile(let name) = draft else { return nil }
            return number(of: name)
        }
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
            if let same = written.first(where: { $0.bytes == bytes && $0.fileExtension == fileExtension }) {
                return same.name
            }
            name = nextName(fileExtension)
            if let hidden {
                try hidden.write(bytes, file: name)
            } else {
                try TreeFiles.write(bytes, to: FileSystem.join(folder, name))
            }
            written.append((bytes, fileExtension, name))
        case .movedFile(let path, let fileExtension):
            name = nextName(fileExtension)
            if let hidden {
                try hidden.move(path, file: name)
            } else {
                try TreeFiles.move(path, to: FileSystem.join(folder, name))
            }
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
        guard !digits.isEmpty, digits.count == rest.count || rest.dropFirst(digits.count).first == "." else {
            return nil
        }
        let fileExtension = rest.dropFirst(digits.count).dropFirst()
        guard !fileExtension.contains(".") else { return nil }
        return Int(digits)
    }
}
