/// Walks a requests folder and turns it into an `ExchangeTree`, or into the complete list of what is
/// wrong with it. Nothing is served from a tree with errors.
public struct TreeLoader: Sendable {
    public static let reservedFolder = "__espressomartini"
    public static let configurationFileName = "configuration.json"

    let parser: any JSONParser

    public init(parser: any JSONParser) {
        self.parser = parser
    }

    /// Loads `folder` (a path as the user gave it; messages show paths under it). Warnings come back
    /// with a tree; any error means no tree.
    public func load(folder: String) -> (tree: ExchangeTree?, diagnostics: Diagnostics) {
        var walk = Walk(folder: folder, parser: parser)
        guard FileSystem.kind(of: folder) == .directory, let rootRealPath = FileSystem.realPath(folder) else {
            let problem = FileSystem.kind(of: folder) == nil ? "does not exist" : "is not a folder"
            walk.diagnostics.error(folder, nil, "the requests folder \(problem); create it or pass --requests-folder")
            return (nil, walk.diagnostics)
        }
        walk.rootRealPath = rootRealPath
        walk.visit(relative: "", realPath: rootRealPath, route: [], ancestors: [rootRealPath], entries: FileSystem.listing(of: folder))
        let tree = walk.freeze()
        return (walk.diagnostics.hasErrors ? nil : tree, walk.diagnostics)
    }

    private struct Walk {
        let folder: String
        let parser: any JSONParser
        var rootRealPath = ""
        var exchanges: [Exchange] = []
        /// Exchanges whose configuration has errors: not served, but still checked for clashes so
        /// that one run reports every problem.
        var brokenExchanges: [Exchange] = []
        var diagnostics = Diagnostics()

        init(folder: String, parser: any JSONParser) {
            self.folder = folder
            self.parser = parser
        }

        func path(_ relative: String) -> String { FileSystem.join(folder, relative) }

        /// Walks one path-component folder. `realPath` is its path with links resolved (method folders'
        /// files are checked against the requests folder with it); `ancestors` are the real paths above,
        /// so that a link back up (a loop) is caught while two links to one folder are simply two routes.
        mutating func visit(relative: String, realPath: String, route: [RouteSegment], ancestors: Set<String>, entries: [FileSystem.Entry]?) {
            guard let entries else {
                diagnostics.error(path(relative), nil, "cannot read this folder; check its permissions")
                return
            }
            for entry in entries where !entry.name.hasPrefix(".") && entry.kind == .directory {
                let name = entry.name
                let childRelative = relative.isEmpty ? name : relative + "/" + name
                let childPath = path(childRelative)
                if relative.isEmpty && name == TreeLoader.reservedFolder {
                    diagnostics.error(childPath, nil, "the folder name '\(name)' is reserved for the admin API; rename the folder")
                    continue
                }
                guard let childReal = entry.isLink ? FileSystem.realPath(childPath) : FileSystem.join(realPath, name),
                      !ancestors.contains(childReal) else {
                    diagnostics.error(childPath, nil, "this folder links back to a folder above it, which would never end; remove the link")
                    continue
                }
                // A method folder nearly always holds its configuration: reading it straight away spares
                // listing the folder (a third of the system calls of a large tree's load).
                if let method = HTTPMethod(name: name),
                   let contents = FileSystem.contents(of: FileSystem.join(childPath, TreeLoader.configurationFileName)) {
                    readExchange(method: method, folder: childRelative, realPath: childReal, configuration: .regularFile, contents: contents, route: route)
                    continue
                }
                let childEntries = FileSystem.listing(of: childPath)
                if let method = HTTPMethod(name: name), let configuration = Self.methodFolderConfiguration(childEntries ?? []) {
                    readExchange(method: method, folder: childRelative, realPath: childReal, configuration: configuration, route: route)
                } else if route.last == .catchAll {
                    diagnostics.error(childPath, nil, "'**' must be the last path component, but '\(name)' is a folder below it; only method folders (GET, POST, …) may be inside a '**' folder")
                } else {
                    visit(
                        relative: childRelative, realPath: childReal, route: route + [RouteSegment(folderName: name)],
                        ancestors: ancestors.union([childReal]), entries: childEntries
                    )
                }
            }
        }

        /// A method-named folder is a method folder when it holds a configuration or no sub-folder.
        /// Returns what its configuration is, or nil when the folder is a path component after all.
        static func methodFolderConfiguration(_ entries: [FileSystem.Entry]) -> FileSystem.Kind?? {
            if let configuration = entries.first(where: { $0.name == TreeLoader.configurationFileName }) {
                return .some(configuration.kind)
            }
            let hasSubfolder = entries.contains { !$0.name.hasPrefix(".") && $0.kind == .directory }
            return hasSubfolder ? nil : .some(nil)
        }

        /// `configuration` is what the folder's configuration.json is (nil: none); `contents`, its bytes
        /// when already read.
        mutating func readExchange(
            method: HTTPMethod, folder relative: String, realPath: String, configuration: FileSystem.Kind?, contents: [UInt8]? = nil,
            route: [RouteSegment]
        ) {
            let errorsBefore = diagnostics.errors.count
            let responses = readResponses(methodFolder: path(relative), realPath: realPath, configuration: configuration, contents: contents)
            let exchange = Exchange(method: method, route: RoutePattern(route), folder: relative, responses: responses)
            if diagnostics.errors.count == errorsBefore {
                exchanges.append(exchange)
            } else {
                brokenExchanges.append(exchange)
            }
        }

        /// The responses of a method folder: its configuration's, or one `200` with no body when it has none.
        mutating func readResponses(methodFolder: String, realPath: String, configuration: FileSystem.Kind?, contents: [UInt8]?) -> [MockResponse] {
            let file = FileSystem.join(methodFolder, TreeLoader.configurationFileName)
            switch configuration {
            case nil:
                return [MockResponse()]
            case .regularFile:
                guard let bytes = contents ?? FileSystem.contents(of: file) else {
                    diagnostics.error(file, nil, "cannot read this file; check its permissions")
                    return []
                }
                switch parser.parse(bytes) {
                case .failure(let syntax):
                    diagnostics.error(file, syntax.position, syntax.message)
                    return []
                case .success(let document):
                    let reader = ResponseReader(
                        file: file, methodFolder: methodFolder, methodFolderRealPath: realPath, rootRealPath: rootRealPath,
                        map: LazyJSONSourceMap(bytes)
                    )
                    return reader.read(document, into: &diagnostics)
                }
            default:
                diagnostics.error(file, nil, "'\(TreeLoader.configurationFileName)' must be a file")
                return []
            }
        }

        /// Reports exchanges that would answer the same requests (broken ones included), then sorts the
        /// served ones by route and method and builds the trie.
        mutating func freeze() -> ExchangeTree {
            var firstFolder: [String: Exchange] = [:]
            for exchange in Self.sorted(exchanges + brokenExchanges) {
                guard let other = firstFolder[exchange.counterKey] else {
                    firstFolder[exchange.counterKey] = exchange
                    continue
                }
                diagnostics.error(
                    path(exchange.folder), nil,
                    "\(exchange.method.name) \(exchange.route) matches exactly the same requests as \(other.method.name) \(other.route) in \(path(other.folder)); remove or rename one of the two folders"
                )
            }
            var trie = RouteTrie()
            var kept: [Exchange] = []
            for exchange in Self.sorted(exchanges) where trie.insert(exchange.route, method: exchange.method, exchange: kept.count) == nil {
                kept.append(exchange)
            }
            return ExchangeTree(exchanges: kept, trie: trie, folder: folder)
        }

        /// By route (byte-wise), then method, then folder so that the order never depends on the disk.
        static func sorted(_ exchanges: [Exchange]) -> [Exchange] {
            exchanges.sorted { a, b in
                let (routeA, routeB) = (a.route.description, b.route.description)
                if routeA != routeB { return routeA.utf8.lexicographicallyPrecedes(routeB.utf8) }
                if a.method != b.method { return a.method.name < b.method.name }
                return a.folder.utf8.lexicographicallyPrecedes(b.folder.utf8)
            }
        }
    }
}
