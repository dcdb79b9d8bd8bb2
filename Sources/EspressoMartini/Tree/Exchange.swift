/// A method and a route, answered by a sequence of responses played in order, the last one repeating.
/// A class: the loader sorts and files thousands of them, and a reference copies with one retain.
public final class Exchange: Sendable, Equatable {
    /// What identifies an exchange across reloads: its method and a route matching the same requests.
    public struct Key: Sendable, Hashable {
        let method: HTTPMethod
        let matchKey: String

        public init(method: HTTPMethod, route: RoutePattern) {
            self.method = method
            self.matchKey = route.matchKey
        }
    }

    public let method: HTTPMethod
    public let route: RoutePattern
    /// The folder holding the method folder, relative to the requests folder (`api/user`, empty for the
    /// requests folder itself): one string shared by the folder's method folders, which counts on trees
    /// of thousands of exchanges.
    public let parentFolder: String
    /// The method folder's name as spelled on disk (`POST`, `get`): short enough to need no allocation.
    public let methodFolderName: String
    public let responses: [MockResponse]

    public init(method: HTTPMethod, route: RoutePattern, parentFolder: String, methodFolderName: String, responses: [MockResponse]) {
        self.method = method
        self.route = route
        self.parentFolder = parentFolder
        self.methodFolderName = methodFolderName
        self.responses = responses
    }

    /// `folder`: the method folder relative to the requests folder (`api/user/POST`).
    public convenience init(method: HTTPMethod, route: RoutePattern, folder: String, responses: [MockResponse]) {
        let slash = folder.utf8.lastIndex(of: UInt8(ascii: "/"))
        self.init(
            method: method, route: route, parentFolder: slash.map { String(folder[..<$0]) } ?? "",
            methodFolderName: slash.map { String(folder[folder.index(after: $0)...]) } ?? folder, responses: responses
        )
    }

    /// The method folder, relative to the requests folder (`api/user/POST`).
    public var folder: String {
        parentFolder.isEmpty ? methodFolderName : .concatenating(parentFolder, "/", methodFolderName)
    }

    /// Call counters carry over between exchanges with the same key.
    public var counterKey: Key { Key(method: method, route: route) }

    public static func == (a: Exchange, b: Exchange) -> Bool {
        a.method == b.method && a.route == b.route && a.parentFolder == b.parentFolder && a.methodFolderName == b.methodFolderName
            && a.responses == b.responses
    }
}
