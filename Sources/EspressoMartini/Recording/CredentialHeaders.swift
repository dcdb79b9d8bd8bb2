/// The headers that carry credentials: with a proxy, their values are shown as `REDACTED` in the journal,
/// and never recorded unless `--match-header` names them (doc/recording.md).
public enum CredentialHeaders {
    /// In lower case.
    public static let names: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    /// What stands for a value kept out of sight.
    public static let redacted = "REDACTED"

    public static func contains(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { contains($0) }
    }

    /// `contains` for a name as bytes, without making a string: the journal asks for every header of every
    /// request a proxy serves.
    public static func contains(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        nameBytes.contains { name.equalsLowercased($0) }
    }

    private static let nameBytes = names.map { Array($0.utf8) }
}
