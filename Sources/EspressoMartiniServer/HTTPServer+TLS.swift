import EspressoMartini
import Logging

/// HTTPS (doc/browsers-and-https.md): libmicrohttpd's GnuTLS support, with the certificate handed to each handshake by
/// `TLSHandshakeCertificate`, so that `SIGHUP` can put a renewed one in service on the same listener.
extension HTTPServer {
    /// Whether this libmicrohttpd was built with TLS and takes a certificate callback.
    public static var servesTLS: Bool {
        HTTPDaemon.servesTLS
    }

    /// Reads the certificate and key and makes them what handshakes present. Returns the problems found,
    /// each naming its file; with an error nothing is installed. Call before `start`.
    public static func installCertificate(_ files: TLSFiles) -> Diagnostics {
        let (certificate, diagnostics) = TLSCertificate.load(files)
        if let certificate { TLSHandshakeCertificate.install(certificate) }
        return diagnostics
    }

    /// Reads the configuration's certificate and key again (`SIGHUP`): a changed, good pair serves the
    /// next handshakes; connections already open keep theirs. A pair with errors is logged and the one in
    /// service stays. Nothing happens without `tls`.
    public func reloadCertificate(logger: Logger) {
        guard let files = configuration.tls else { return }
        let (certificate, diagnostics) = TLSCertificate.load(files)
        guard let certificate else {
            for error in diagnostics.errors { logger.error("\(error.description)") }
            logger.error("the TLS certificate was not reloaded; still serving the last good one")
            return
        }
        guard certificate.pem != TLSHandshakeCertificate.current?.pem else { return }
        TLSHandshakeCertificate.install(certificate)
        logger.notice("reloaded the TLS certificate \(files.certificate) and its key \(files.key)")
    }

    /// The callback libmicrohttpd gets with `tls`, nil without.
    var certificateCallback: UnsafeMutableRawPointer? {
        configuration.tls == nil
            ? nil : unsafeBitCast(TLSHandshakeCertificate.callback, to: UnsafeMutableRawPointer.self)
    }

    /// `https` with `tls`, else `http`: for the listening line.
    public var scheme: String { configuration.tls == nil ? "http" : "https" }
}
