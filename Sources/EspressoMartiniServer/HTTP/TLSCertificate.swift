import CGnuTLS
import EspressoMartini

/// A certificate chain and its private key, read from PEM files and checked to belong together, as
/// GnuTLS presents them in a handshake. Immutable; freed with the object.
final class TLSCertificate: @unchecked Sendable {
    /// The files it was read from, and their bytes then: a reload compares them to tell a renewed pair.
    let files: TLSFiles
    let pem: [UInt8]
    /// The chain, server certificate first, and its length.
    let chain: UnsafeMutablePointer<gnutls_pcert_st>
    let chainLength: UInt32
    let key: gnutls_privkey_t

    /// Certificates beyond this many in one file (intermediates) are refused.
    private static let chainLimit = 16

    private init(
        files: TLSFiles, pem: [UInt8], chain: UnsafeMutablePointer<gnutls_pcert_st>, chainLength: UInt32,
        key: gnutls_privkey_t
    ) {
        self.files = files
        self.pem = pem
        self.chain = chain
        self.chainLength = chainLength
        self.key = key
    }

    deinit {
        for index in 0..<Int(chainLength) { gnutls_pcert_deinit(chain + index) }
        chain.deallocate()
        gnutls_privkey_deinit(key)
    }

    /// Reads and checks the pair. Every problem is an error naming the file it is in (a mismatch names
    /// both); nil with the errors when there is one.
    static func load(_ files: TLSFiles) -> (TLSCertificate?, Diagnostics) {
        var diagnostics = Diagnostics()
        let certificatePEM = read(files.certificate, what: "TLS certificate", into: &diagnostics)
        let keyPEM = read(files.key, what: "TLS key", into: &diagnostics)
        guard var certificatePEM, var keyPEM else { return (nil, diagnostics) }

        let chain = UnsafeMutablePointer<gnutls_pcert_st>.allocate(capacity: chainLimit)
        var chainLength = UInt32(chainLimit)
        let chainStatus = withDatum(&certificatePEM) { datum in
            gnutls_pcert_list_import_x509_raw(
                chain, &chainLength, &datum, GNUTLS_X509_FMT_PEM, GNUTLS_X509_CRT_LIST_IMPORT_FAIL_IF_EXCEED.rawValue)
        }
        if chainStatus < 0 {
            chainLength = 0
            diagnostics.error(
                files.certificate, nil, "the TLS certificate is not a PEM certificate (\(message(chainStatus)))")
        }
        var key: gnutls_privkey_t?
        var keyStatus = gnutls_privkey_init(&key)
        if keyStatus >= 0 {
            keyStatus = withDatum(&keyPEM) { datum in
                gnutls_privkey_import_x509_raw(key, &datum, GNUTLS_X509_FMT_PEM, nil, 0)
            }
        }
        if keyStatus < 0 {
            diagnostics.error(
                files.key, nil, "the TLS key is not an unencrypted PEM private key (\(message(keyStatus)))")
        }
        if chainStatus >= 0, keyStatus >= 0, let mismatch = mismatch(certificatePEM, keyPEM) {
            diagnostics.error(
                files.certificate, nil, "the TLS certificate does not match the key \(files.key) (\(mismatch))")
        }
        guard !diagnostics.hasErrors, let key else {
            for index in 0..<Int(chainLength) { gnutls_pcert_deinit(chain + index) }
            chain.deallocate()
            if let key { gnutls_privkey_deinit(key) }
            return (nil, diagnostics)
        }
        return (
            TLSCertificate(
                files: files, pem: certificatePEM + keyPEM, chain: chain, chainLength: chainLength, key: key),
            diagnostics
        )
    }

    private static func read(_ path: String, what: String, into diagnostics: inout Diagnostics) -> [UInt8]? {
        guard FileSystem.kind(of: path) == .regularFile, let bytes = FileSystem.contents(of: path) else {
            let problem = FileSystem.kind(of: path) == nil ? "does not exist" : "cannot be read as a file"
            diagnostics.error(path, nil, "the \(what) \(problem)")
            return nil
        }
        return bytes
    }

    /// Why the key does not sign for the certificate, as GnuTLS finds when it pairs them; nil when it does.
    private static func mismatch(_ certificatePEM: [UInt8], _ keyPEM: [UInt8]) -> String? {
        var credentials: gnutls_certificate_credentials_t?
        guard gnutls_certificate_allocate_credentials(&credentials) >= 0 else { return "out of memory" }
        defer { gnutls_certificate_free_credentials(credentials) }
        var certificatePEM = certificatePEM, keyPEM = keyPEM
        let status = withDatum(&certificatePEM) { certificate in
            withDatum(&keyPEM) { key in
                gnutls_certificate_set_x509_key_mem2(credentials, &certificate, &key, GNUTLS_X509_FMT_PEM, nil, 0)
            }
        }
        return status < 0 ? message(status) : nil
    }

    private static func withDatum<Result>(_ bytes: inout [UInt8], _ body: (inout gnutls_datum_t) -> Result) -> Result {
        bytes.withUnsafeMutableBufferPointer { buffer in
            var datum = gnutls_datum_t(data: buffer.baseAddress, size: UInt32(buffer.count))
            return body(&datum)
        }
    }

    private static func message(_ status: Int32) -> String {
        gnutls_strerror(status).map { String(cString: $0) } ?? "GnuTLS error \(status)"
    }
}
