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
        walk.visited.insert(rootRealPath)
        walk.visit(relative: "", route: [])
        let tree = walk.freeze()
        return (walk.diagnostics.hasErrors ? nil : tree, walk.diagnostics)
    }

    private struct Walk {
        let folder: String
        let parser: any JSONParser
        var rootRealPath = ""
        var visited: Set<String> = []
        var exchanges: [Exchange] = []
        var diagnostics = Diagnostics()

        init(folder: String, parser: any JSONParser) {
            self.folder = folder
            self.parser = parser
        }

        func path(_ relative: String) -> String { FileSystem.join(folder, relative) }

        mutating func visit(relative: String, route: [RouteSegment]) {
            guard let names = FileSystem.entries(of: path(relative)) else {
                diagnostics.error(path(relative), nil, "cannot read this folder; check its permissions")
                return
            }
            for name in names where !name.hasPrefix(".") {
                let childRelative = relative.isEmpty ? name : relative + "/" + name
                let childPath = path(childRelative)
                guard FileSystem.kind(of: childPath) == .directory else { continue }  // files are content, not routes
                if relative.isEmpty && name == TreeLoader.reservedFolder {
                    diagnostics.error(childPath, nil, "the folder name '\(name)' is reserved for the admin API; rename the folder")
                    continue
                }
                if let method = HTTPMethod(name: name), isMethodFolder(childPath) {
                    readExchange(method: method, folder: childRelative, route: route)
                } else if route.last == .catchAll {
                    diagnostics.error(childPath, nil, "'**' must be the last path component, but '\(name)' is a folder below it; only method folders (GET, POST, …) may be inside a '**' folder")
                } else {
                    guard let real = FileSystem.realPath(childPath), visited.insert(real).inserted else {
                        diagnostics.error(childPath, nil, "this folder links back to a folder already in the tree; remove the link")
                        continue
                    }
                    visit(relative: childRelative, route: route + [RouteSegment(folderName: name)])
                }
            }
        }

        /// A method-named folder is a method folder when it holds a configuration or no sub-folder.
        func isMethodFolder(_ path: String) -> Bool {
            if FileSystem.kind(of: FileSystem.join(path, TreeLoader.configurationFileName)) != nil { return true }
            let names = FileSystem.entries(of: path) ?? []
            return !names.contains { !$0.hasPrefix(".") && FileSystem.kind(of: FileSystem.join(path, $0)) == .directory }
        }

        mutating func readExchange(method: HTTPMethod, folder relative: String, route: [RouteSegment]) {
            let methodFolder = path(relative)
            let file = FileSystem.join(methodFolder, TreeLoader.configurationFileName)
            var responses = [MockResponse()]
            switch FileSystem.kind(of: file) {
            case nil:
                break  // no configuration: 200 with an empty body
            case .regularFile:
                guard let bytes = FileSystem.contents(of: file) else {
                    diagnostics.error(file, nil, "cannot read this file; check its permissions")
                    return
                }
                switch parser.parse(bytes) {
                case .failure(let syntax):
                    diagnostics.error(file, syntax.position, syntax.message)
                    return
                case .success(let document):
                    let reader = ResponseReader(
                        file: file, methodFolder: methodFolder, rootRealPath: rootRealPath, map: JSONSourceMap(bytes)
                    )
                    let errorsBefore = diagnostics.errors.count
                    responses = reader.read(document, into: &diagnostics)
                    guard diagnostics.errors.count == errorsBefore else { return }
                }
            default:
                diagnostics.error(file, nil, "'\(TreeLoader.configurationFileName)' must be a file")
                return
            }
            exchanges.append(Exchange(method: method, route: RoutePattern(route), folder: relative, responses: responses))
        }

        /// Sorts the exchanges and builds the trie, reporting exchanges that would answer the same requests.
        mutating func freeze() -> ExchangeTree {
            let sorted = exchanges.sorted { a, b in
                let (routeA, routeB) = (a.route.description, b.route.description)
                if routeA != routeB { return routeA.utf8.lexicographicallyPrecedes(routeB.utf8) }
                return a.method.name < b.method.name
            }
            var trie = RouteTrie()
            var kept: [Exchange] = []
            for exchange in sorted {
                if let clash = trie.insert(exchange.route, method: exchange.method, exchange: kept.count) {
                    let other = kept[clash]
                    diagnostics.error(
                        path(exchange.folder), nil,
                        "\(exchange.method.name) \(exchange.route) matches exactly the same requests as \(other.method.name) \(other.route) in \(path(other.folder)); remove or rename one of the two folders"
                    )
                    continue
                }
                kept.append(exchange)
            }
            return ExchangeTree(exchanges: kept, trie: trie, folder: folder)
        }
    }
}
