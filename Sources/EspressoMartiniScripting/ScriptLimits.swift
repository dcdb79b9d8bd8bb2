import EspressoMartini

/// How long one call of a script may run and how much it may grow the server's memory
/// (`script_timeout`, `script_memory`).
public struct ScriptLimits: Sendable, Equatable {
    /// Seconds of the script's processor time.
    public var timeout: Double
    /// Bytes.
    public var memory: Int

    public init(timeout: Double, memoryMiB: Int) {
        self.timeout = timeout
        memory = memoryMiB << 20
    }

    public init(_ configuration: ServerConfiguration) {
        self.init(timeout: configuration.scriptTimeout, memoryMiB: configuration.scriptMemory)
    }
}
