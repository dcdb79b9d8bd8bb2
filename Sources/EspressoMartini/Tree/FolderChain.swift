/// The folders a walk is in, from the requests folder down to the current one, by real path (links
/// resolved): a link back to one of them is a loop, while two links to one folder are simply two
/// routes. A linked list, so that going one folder down costs one small object, not a copied set.
final class FolderChain: Sendable {
    /// The current folder's real path.
    let realPath: String
    let parent: FolderChain?
    /// Whether the walk came through a link on the way here. Until it does, a sub-folder's real path
    /// is its parent's plus its name, longer than any folder above: no loop to look for.
    let throughLink: Bool

    init(_ realPath: String, parent: FolderChain? = nil, throughLink: Bool = false) {
        self.realPath = realPath
        self.parent = parent
        self.throughLink = throughLink
    }

    /// The real path of the sub-folder `name`: `resolved` when the loader resolved it (a link, or below
    /// one), else this folder's real path and the name.
    func realPath(ofChild name: String, resolved: String?) -> String {
        resolved ?? FileSystem.join(realPath, name)
    }

    func contains(_ path: String) -> Bool {
        var folder: FolderChain? = self
        while let current = folder {
            if current.realPath == path { return true }
            folder = current.parent
        }
        return false
    }
}
