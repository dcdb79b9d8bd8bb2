import Foundation

/// A response's body once its kind is encoded, before a placement decides where it goes: into the
/// configuration itself, or into a file beside it.
enum EncodedBody {
    /// `.string`: inline `body` text in every placement.
    case text(String)
    /// `.json`: the encoder's bytes.
    case json(Data)
    /// `.data`.
    case bytes(Data)
    /// `.fileContent`: an existing regular file, its path absolute.
    case file(URL)

    /// The body of `kind`; nil for `.empty` and `.stream`, which are no body of this sort.
    init?(_ kind: NetworkExchange.Kind) throws {
        switch kind {
        case .empty, .stream: return nil
        case .string(let text): self = .text(text)
        case .data(let data): self = .bytes(data)
        case .json(let value, let encoder):
            do {
                self = .json(try encoder.encode(value))
            } catch {
                throw MockServerError.invalidArgument("the JSON body cannot be encoded: \(error)")
            }
        case .fileContent(let pathToFile):
            let path = ServerProcess.absolute(pathToFile)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else {
                throw MockServerError.invalidArgument("fileContent: there is no file at \(path)")
            }
            self = .file(URL(fileURLWithPath: path).resolvingSymlinksInPath())
        }
    }
}
