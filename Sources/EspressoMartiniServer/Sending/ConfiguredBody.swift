import EspressoMartini
import Glibc

/// Where the body of an exchange's configured response is, for the sender: the one place that resolves a
/// configured body, for every sending that reads one (a response built once and shared, a slowed one, one
/// cut in half by a fault).
enum ConfiguredBody {
    /// In memory: a file's bytes as the tree read them, or the inline body copied; valid while `owner` lives.
    case memory(UnsafeRawBufferPointer, owner: AnyObject)
    /// A file too large for memory, opened now to be sent from disk (`size` bytes as it is now).
    case disk(descriptor: Int32, size: Int)
    /// Its file cannot be read now (deleted since the tree was loaded): `Decision.unreadable`, and a later
    /// request tries again.
    case unreadable(path: String)

    /// `answer`'s configured body, and the headers it goes with (the response's own, its content type, the
    /// global ones).
    static func of(_ answer: ExchangeAnswer) -> (body: ConfiguredBody, headers: [HTTPHeader]) {
        let tree = answer.tree, slot = answer.slot
        if let diskFile = tree.diskFiles[slot] {
            let descriptor = open(diskFile.path, O_RDONLY | O_CLOEXEC)
            var info = stat()
            guard descriptor >= 0, fstat(descriptor, &info) == 0 else {
                if descriptor >= 0 { close(descriptor) }
                return (.unreadable(path: diskFile.path), diskFile.headers)
            }
            return (.disk(descriptor: descriptor, size: Int(info.st_size)), diskFile.headers)
        }
        guard let content = answer.response.content else { preconditionFailure("a configured body without content") }
        let headers = content.effectiveHeaders(global: tree.globalHeaders)
        if case .file(let name, let resolved, _) = content.body {
            let path = tree.exchangeTree.path(ofFile: name, at: resolved, in: answer.exchange)
            guard let bytes = tree.bytes(ofFileIn: slot, at: path) else { return (.unreadable(path: path), headers) }
            return (.memory(bytes.buffer, owner: bytes.owner), headers)
        }
        let bytes = HeapBytes(copying: content.body.inlineBytes)
        return (.memory(bytes.bytes, owner: bytes), headers)
    }
}
