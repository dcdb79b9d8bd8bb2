import Glibc

/// The files `espressomartini init` writes: a server configuration and a small tree with one GET answered
/// from a JSON file, one POST with a sequence and one `{id}` route. The object files name the installed JSON
/// Schemas with `"$schema"` (an array, the sequence, cannot).
struct StarterTree {
    struct File {
        /// Relative to the folder `init` writes into.
        let path: String
        let text: String
    }

    /// What the tree serves, for the message after writing it.
    static let routes = [
        ("GET", "/api/hello", "hello.json"),
        ("POST", "/api/orders", "503 on the first call, then 201"),
        ("GET", "/api/orders/{id}", "one order, for any id"),
    ]
    static let port = 8080

    /// Where the schemas are: the `file://` URL of `FOLDER/NAME`.
    let schemaFolder: String

    var files: [File] {
        let exchangeSchema = Self.exchangeSchema(in: schemaFolder)
        let serverSchema = "file://" + schemaFolder + "/server-configuration.schema.json"
        return [
            File(
                path: "configuration.json",
                text: """
                    {
                      "$schema": "\(serverSchema)",
                      "hostname": "127.0.0.1",
                      "port": \(Self.port),
                      "requests_folder": "network-exchanges",
                      "headers": {
                        "X-Mock-Server": "espressomartini"
                      }
                    }

                    """),
            File(
                path: "network-exchanges/api/hello/GET/configuration.json",
                text: """
                    {
                      "$schema": "\(exchangeSchema)",
                      "response_file": "hello.json"
                    }

                    """),
            File(
                path: "network-exchanges/api/hello/GET/hello.json",
                text: """
                    {
                      "message": "Hello from espressomartini. Edit network-exchanges/api/hello/GET/hello.json and ask again."
                    }

                    """),
            File(
                path: "network-exchanges/api/orders/POST/configuration.json",
                text: """
                    [
                      {
                        "status_code": 503,
                        "headers": { "Retry-After": "1" },
                        "body": { "error": "busy", "message": "The first order fails; send it again." }
                      },
                      {
                        "status_code": 201,
                        "headers": { "Location": "/api/orders/1" },
                        "body": { "id": 1, "status": "created" }
                      }
                    ]

                    """),
            File(
                path: "network-exchanges/api/orders/{id}/GET/configuration.json",
                text: """
                    {
                      "$schema": "\(exchangeSchema)",
                      "body": {
                        "id": 1,
                        "status": "created",
                        "items": [{ "product": "espresso", "quantity": 2 }]
                      }
                    }

                    """),
        ]
    }

    /// The `file://` URL of the installed schema of a method folder's `configuration.json`, which the tree
    /// files written by `import openapi` and `record` name with `"$schema"`.
    static var installedExchangeSchema: String {
        exchangeSchema(in: installedSchemaFolder)
    }

    private static func exchangeSchema(in folder: String) -> String {
        "file://" + folder + "/exchange-configuration.schema.json"
    }

    /// The schemas installed beside this executable (`PREFIX/share/espressomartini/schemas` for
    /// `PREFIX/bin/espressomartini`), else where the Debian package puts them.
    static var installedSchemaFolder: String {
        let packaged = "/usr/share/espressomartini/schemas"
        guard let executable = realpath("/proc/self/exe", nil) else { return packaged }
        defer { free(executable) }
        var components = String(cString: executable).split(separator: "/", omittingEmptySubsequences: false)
        guard components.count > 2 else { return packaged }
        components.removeLast(2)
        let folder = components.joined(separator: "/") + "/share/espressomartini/schemas"
        let plain = folder.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "%") }
        return plain && access(folder + "/exchange-configuration.schema.json", R_OK) == 0 ? folder : packaged
    }
}
