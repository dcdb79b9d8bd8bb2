import CGnuTLS

/// Writing on an HTTPS connection past libmicrohttpd, through its GnuTLS session.
enum TLSRecords {
    /// Sends `bytes` as TLS records on `session` (a `gnutls_session_t`); how many were sent, negative on an error.
    static func send(_ bytes: UnsafeRawBufferPointer, on session: UnsafeMutableRawPointer) -> Int {
        gnutls_record_send(OpaquePointer(session), bytes.baseAddress, bytes.count)
    }
}
