import EspressoMartini
import Logging

extension MockServer {
    public enum ReloadOutcome: Sendable {
        case reloaded(exchanges: Int)
        /// The tree had errors; the last good tree stays in service.
        case failed(Diagnostics)
    }

    /// Reads the requests folder again and, when it has no errors, swaps the new tree in. Errors are
    /// logged in the same `PATH:LINE:COLUMN: error:` form as at start-up.
    @discardableResult
    public func reload(reason: String) -> ReloadOutcome {
        reloads.withLock { reloads in
            ServiceManager.reloading()
            defer { ServiceManager.ready(status: "serving \(servingTree.tree.exchanges.count) exchanges") }
            let (tree, diagnostics) = loader.load(folder: configuration.requestsFolder)
            for warning in diagnostics.warnings { logger.warning("\(warning.description)") }
            guard let tree else {
                for error in diagnostics.errors { logger.error("\(error.description)") }
                logger.error("reload (\(reason)) failed with \(diagnostics.summary); still serving the last good tree")
                return .failed(diagnostics)
            }
            install(tree)
            reloads += 1
            logger.notice("reloaded (\(reason)): serving \(tree.exchanges.count) exchanges")
            return .reloaded(exchanges: tree.exchanges.count)
        }
    }
}
