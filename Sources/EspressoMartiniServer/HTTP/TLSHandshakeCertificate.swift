import CGnuTLS
import EspressoMartini

/// The certificate every TLS handshake presents: libmicrohttpd asks `callback` for it at each handshake
/// (its certificate callback has no context pointer, hence one per process), so installing a renewed one
/// takes effect at the next connection without restarting the listener. Every certificate installed stays
/// alive until the process ends: a handshake that fetched one may still be using it, and renewals are rare.
enum TLSHandshakeCertificate {
    /// Every certificate installed, the one in use last.
    private static let installed = Locked<[TLSCertificate]>([])

    /// Makes `certificate` the one the next handshakes present. Any thread.
    static func install(_ certificate: TLSCertificate) {
        installed.withLock { $0.append(certificate) }
    }

    /// The certificate in use, nil before the first `install`.
    static var current: TLSCertificate? { installed.withLock { $0.last } }

    /// A `gnutls_certificate_retrieve_function2`, for libmicrohttpd's `MHD_OPTION_HTTPS_CERT_CALLBACK`.
    static let callback:
        @convention(c) (
            gnutls_session_t?, UnsafePointer<gnutls_datum_t>?, Int32, UnsafePointer<gnutls_pk_algorithm_t>?, Int32,
            UnsafeMutablePointer<UnsafeMutablePointer<gnutls_pcert_st>?>?, UnsafeMutablePointer<UInt32>?,
            UnsafeMutablePointer<gnutls_privkey_t?>?
        ) -> Int32 = { _, _, _, _, _, chain, chainLength, key in
            guard let certificate = current, let chain, let chainLength, let key else { return -1 }
            chain.pointee = certificate.chain
            chainLength.pointee = certificate.chainLength
            key.pointee = certificate.key
            return 0
        }
}
