@testable import EspressoMartini
import Testing

/// The server configuration's `cors` and `tls` keys (doc/server-configuration.md, doc/browsers-and-https.md).
@Suite struct ServerConfigurationBrowserTests {
    @Test func corsIsOffAndTLSAbsentByDefault() throws {
        let (configuration, diagnostics, _) = try ServerConfigurationTests.load("{}")
        #expect(diagnostics == [])
        #expect(configuration.cors == false)
        #expect(configuration.tls == nil)
    }

    @Test func corsAndTLSAreRead() throws {
        let (configuration, diagnostics, root) = try ServerConfigurationTests.load(
            #"{"cors": true, "tls": {"certificate": "tls/cert.pem", "key": "/etc/ssl/key.pem"}}"#
        )
        #expect(diagnostics == [])
        #expect(configuration.cors == true)
        #expect(
            configuration.tls == TLSFiles(certificate: root + "/config/tls/cert.pem", key: "/etc/ssl/key.pem"),
            "relative to the configuration file's folder; absolute as written")
    }

    @Test(arguments: [
        ServerConfigurationTests.MistakeCase(
            "cors as a string", #"{"cors": "yes"}"#, [":1:10: error: 'cors' must be true or false, found a string"]),
        .init(
            "tls as a string", #"{"tls": "cert.pem"}"#,
            [#":1:9: error: 'tls' must be an object {"certificate": FILE, "key": FILE}, found a string"#]),
        .init(
            "tls without a key", #"{"tls": {"certificate": "c.pem"}}"#,
            [":1:9: error: 'tls' has no 'key'; give both the certificate and its key as PEM files"]),
        .init(
            "tls without anything", #"{"tls": {}}"#,
            [
                ":1:9: error: 'tls' has no 'certificate'; give both the certificate and its key as PEM files"
            ]),
        .init(
            "tls key not a string", #"{"tls": {"certificate": "c.pem", "key": 1}}"#,
            [":1:41: error: 'tls' 'key' must be the path of a PEM file, found an integer"]),
        .init(
            "tls certificate empty", #"{"tls": {"certificate": "", "key": "k.pem"}}"#,
            [":1:25: error: 'tls' 'certificate' must be the path of a PEM file, found an empty string"]),
        .init(
            "tls with a misspelt key", #"{"tls": {"certificate": "c.pem", "key": "k.pem", "keys": "x"}}"#,
            [":1:50: warning: unknown key 'keys' is ignored; did you mean 'key'?"]),
        .init("corss", #"{"corss": true}"#, [":1:2: warning: unknown key 'corss' is ignored; did you mean 'cors'?"]),
    ])
    func mistakesAreReportedWithTheirPosition(_ mistake: ServerConfigurationTests.MistakeCase) throws {
        let (_, diagnostics, _) = try ServerConfigurationTests.load(mistake.json)
        #expect(diagnostics == mistake.expected)
    }
}
