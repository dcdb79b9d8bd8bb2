/// Walks a requests folder and turns it into an `ExchangeTree`, or into the complete list of what is
/// wrong with it. Nothing is served from a tree with errors.
public struct TreeLoader: Sendable {
    public static let reservedFolder = "__espressomartini"
    public static let configurationFileName = "configuration.json"

    let parser: any JSONParser
    /// Compiles each script as it is read; nil records scripts unchecked (commands that serve nothing).
    let scriptChecker: (any ScriptChecker)?

    public init(parser: any JSONParser, scriptChecker: (any ScriptChecker)? = nil) {
        self.parser = parser
        self.scriptChecker = scriptChecker
    }

    /// A folder with at least this many sub-folders has them walked on every core (unless a folder
    /// above already does): enough work to share, and one level of sharing is enough for two cores or twenty.
    static let parallelWalkWidth = 4

    /// Loads `folder` (a path as the user gave it; messages show paths under it). Warnings come back
    /// with a tree; any error means no tree.
    public func load(folder: String) -> (tree: ExchangeTree?, diagnostics: Diagnostics) {
        guard FileSystem.kind(of: folder) == .directory, let rootRealPath = FileSystem.realPath(folder) else {
            let problem = FileSystem.kind(of: folder) == nil ? "does not exist" : "is not a folder"
            var diagnostics = Diagnostics()
            diagnostics.error(folder, nil, "the requests folder \(problem); create it or pass --requests-folder")
            return (nil, diagnostics)
        }
        var walk = Walk(folder: folder, parser: parser, scriptChecker: scriptChecker, rootRealPath: rootRealPath)
        walk.visit(
            OpenFolder(path: folder), chain: FolderChain(rootRealPath), route: RoutePattern([]), inParallel: false)
        let tree = walk.freeze()
        scriptChecker?.loadEnded()
        return (walk.diagnostics.hasErrors ? nil : tree, walk.diagnostics)
    }

    /// A method-named folder is a method folder when it holds a configuration or no sub-folder (its
    /// `entries`). Returns what its configuration is, or nil when the folder is a path component after all.
    static func methodFolderConfiguration(_ entries: [FileSystem.Entry]) -> FileSystem.Kind?? {
        if let configuration = entries.first(where: { $0.name == TreeLoader.configurationFileName }) {
            return .some(configuration.kind)
        }
        let hasSubfolder = entries.contains(where: \.isVisibleFolder)
        return hasSubfolder ? nil : .some(nil)
    }

    private struct Walk {
        let folder: String
        let parser: any JSONParser
        let scriptChecker: (any ScriptChecker)?
        let rootRealPath: String
        var exchanges: [Exchange] = []
        /// Exchanges whose configuration has errors: not served, but still checked for clashes so
        /// that one run reports every problem.
        var brokenExchanges: [Exchange] = []
        var diagnostics = Diagnostics()

        init(folder: String, parser: any JSONParser, scriptChecker: (any ScriptChecker)?, rootRealPath: String) {
            self.folder = folder
            self.parser = parser
            self.scriptChecker = scriptChecker
            self.rootRealPath = rootRealPath
        }

        func path(_ relative: String) -> String { FileSystem.join(folder, relative) }

        /// An empty walk of the same tree, for one sub-folder walked on another core.
        var branch: Walk {
            Walk(folder: folder, parser: parser, scriptChecker: scriptChecker, rootRealPath: rootRealPath)
        }

        /// Adds what a branch found, in walk order.
        mutating func append(_ other: Walk) {
            exchanges += other.exchanges
            brokenExchanges += other.brokenExchanges
            diagnostics.append(contentsOf: other.diagnostics)
        }

        /// Walks one path-component folder (nil: it could not be opened), whose `entries` may have been
        /// read already (a folder's entries are read once). `route` names it (its folder names, relative
        /// to the requests folder); `chain` ends with its path with links resolved (method folders' files
        /// are checked against the requests folder with it).
        mutating func visit(
            _ opened: OpenFolder?, entries: [FileSystem.Entry]? = nil, chain: FolderChain, route: RoutePattern,
            inParallel: Bool
        ) {
            guard let opened else {
                diagnostics.error(path(route.folder), nil, "cannot read this folder; check its permissions")
                return
            }
            let subfolders = (entries ?? opened.entries()).filter(\.isVisibleFolder)
            let walkInParallel = !inParallel && subfolders.count >= TreeLoader.parallelWalkWidth
            guard walkInParallel else {
                for entry in subfolders {
                    visitEntry(entry, of: opened, chain: chain, route: route, inParallel: inParallel)
                }
                return
            }
            let empty = branch
            let branches = subfolders.concurrentMap { entry in
                var branch = empty
                branch.visitEntry(entry, of: opened, chain: chain, route: route, inParallel: true)
                return branch
            }
            for branch in branches { append(branch) }
        }

        /// One sub-folder of a path-component folder: a method folder, or another path component.
        /// Paths are joined only where needed: a method folder, nearly every entry of a large tree,
        /// costs no string but its configuration's bytes.
        mutating func visitEntry(
            _ entry: FileSystem.Entry, of parent: OpenFolder, chain: FolderChain, route: RoutePattern, inParallel: Bool
        ) {
            let name = entry.name
            if route.segments.isEmpty && name == TreeLoader.reservedFolder {
                diagnostics.error(
                    path(name), nil, "the folder name '\(name)' is reserved for the admin API; rename the folder")
                return
            }
            let throughLink = entry.isLink || chain.throughLink
            var knownRealPath: String?
            if throughLink {
                guard
                    let real = entry.isLink
                        ? FileSystem.realPath(path(route.folder(named: name))) : FileSystem.join(chain.realPath, name),
                    !chain.contains(real)
                else {
                    diagnostics.error(
                        path(route.folder(named: name)), nil,
                        "this folder links back to a folder above it, which would never end; remove the link")
                    return
                }
                knownRealPath = real
            }
            let method = HTTPMethod(name: name)
            // A method folder nearly always holds its configuration: reading it straight away spares
            // listing the folder, a large share of the system calls of a large tree's load.
            if let method, let contents = parent.contents(of: TreeLoader.configurationFileName, inFolder: name) {
                readExchange(
                    method: method, in: parent, name: name, knownRealPath: knownRealPath, chain: chain,
                    configuration: .regularFile, contents: contents, route: route
                )
                return
            }
            let child = OpenFolder(named: name, in: parent)
            let childEntries = child?.entries()
            if let method, let childEntries, let configuration = TreeLoader.methodFolderConfiguration(childEntries) {
                readExchange(
                    method: method, in: parent, name: name, knownRealPath: knownRealPath, chain: chain,
                    configuration: configuration, route: route
                )
            } else if case .refused(let problem)? = FolderNameEscapes.decode(name) {
                diagnostics.error(path(route.folder(named: name)), nil, problem)
            } else if route.segments.last == .catchAll {
                diagnostics.error(
                    path(route.folder(named: name)), nil,
                    "'**' must be the last path component, but '\(name)' is a folder below it; only method folders (GET, POST, …) may be inside a '**' folder"
                )
            } else {
                let childChain = FolderChain(
                    chain.realPath(ofChild: name, resolved: knownRealPath), parent: chain, throughLink: throughLink)
                visit(
                    child, entries: childEntries, chain: childChain,
                    route: route.appending(RouteSegment(folderName: name)), inParallel: inParallel)
            }
        }

        /// `configuration` is what the folder's configuration.json is (nil: none); `contents`, its bytes
        /// when already read.
        mutating func readExchange(
            method: HTTPMethod, in parent: OpenFolder, name: String, knownRealPath: String?, chain: FolderChain,
            configuration: FileSystem.Kind?, contents: [UInt8]? = nil, route: RoutePattern
        ) {
            let errorsBefore = diagnostics.errors.count
            let (responses, variants, sequence) = readResponses(
                in: parent, name: name, knownRealPath: knownRealPath, chain: chain, configuration: configuration,
                contents: contents, route: route
            )
            let exchange = Exchange(
                method: method, route: route, methodFolderName: name, responses: responses, variants: variants,
                sequence: sequence
            )
            if diagnostics.errors.count == errorsBefore {
                exchanges.append(exchange)
            } else {
                brokenExchanges.append(exchange)
            }
        }

        /// The responses (and variants) of a method folder: its configuration's, or one `200` with no body
        /// when it has none.
        mutating func readResponses(
            in parent: OpenFolder, name: String, knownRealPath: String?, chain: FolderChain,
            configuration: FileSystem.Kind?,
            contents: [UInt8]?, route: RoutePattern
        ) -> (responses: [ConfiguredResponse], variants: [Variant], sequence: SequenceMode) {
            var file: String { FileSystem.join(path(route.folder(named: name)), TreeLoader.configurationFileName) }
            switch configuration {
            case nil:
                return ([ConfiguredResponse()], [], .repeatLast)
            case .regularFile:
                guard let bytes = contents ?? parent.contents(of: TreeLoader.configurationFileName, inFolder: name)
                else {
                    diagnostics.error(file, nil, "cannot read this file; check its permissions")
                    return ([], [], .repeatLast)
                }
                switch parser.parse(bytes) {
                case .failure(let syntax):
                    diagnostics.error(file, syntax.position, syntax.message)
                    return ([], [], .repeatLast)
                case .success(let document):
                    let reader = ResponseReader(
                        requestsFolder: folder, route: route, parentFolder: parent, methodFolderName: name,
                        knownRealPath: knownRealPath,
                        parentChain: chain, rootRealPath: rootRealPath, map: LazyJSONSourceMap(bytes),
                        scriptChecker: scriptChecker
                    )
                    return reader.read(document, into: &diagnostics)
                }
            default:
                diagnostics.error(file, nil, "'\(TreeLoader.configurationFileName)' must be a file")
                return ([], [], .repeatLast)
            }
        }

        /// Sorts the served exchanges by route and method and builds the trie, reporting exchanges that
        /// would answer the same requests (broken ones included): the first in that order is kept.
        mutating func freeze() -> ExchangeTree {
            let ordered = ExchangeTree.ordered(exchanges)
            // The trie finds the clashes of served exchanges as they go in; broken ones, which stay out
            // of it, are checked apart, on the rare tree with errors.
            let trieFindsClashes = brokenExchanges.isEmpty
            if !trieFindsClashes {
                var first: [Exchange.Key: Exchange] = [:]
                for exchange in ExchangeTree.ordered(exchanges + brokenExchanges) {
                    if let other = first[exchange.key] {
                        reportClash(exchange, with: other)
                    } else {
                        first[exchange.key] = exchange
                    }
                }
            }
            var routes = RouteTrie.Builder()
            var kept: [Exchange] = []
            kept.reserveCapacity(exchanges.count)
            var last: (route: String, node: Int)?
            for exchange in ordered {
                let node = last?.route == exchange.route.description ? last!.node : routes.node(for: exchange.route)
                last = (exchange.route.description, node)
                if let other = routes.insert(method: exchange.method, exchange: kept.count, at: node) {
                    if trieFindsClashes { reportClash(exchange, with: kept[other]) }
                } else {
                    kept.append(exchange)
                }
            }
            return ExchangeTree(exchanges: kept, trie: routes.freeze(), folder: folder, realFolder: rootRealPath)
        }

        mutating func reportClash(_ exchange: Exchange, with other: Exchange) {
            diagnostics.error(
                path(exchange.folder), nil,
                "\(exchange.method.name) \(exchange.route) matches exactly the same requests as \(other.method.name) \(other.route) in \(path(other.folder)); remove or rename one of the two folders"
            )
        }

    }
}
