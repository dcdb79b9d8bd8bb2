internal import CCurl
import EspressoMartini
import Glibc

// libcurl behind Swift types: the only file that sees its C API. The library (its GnuTLS build, as Debian
// ships it) is loaded with dlopen the first time a server with a `proxy` starts, so a server without one
// neither maps it nor the thirty libraries it links. `HTTPClientTransfer` is one request to the target (an
// easy handle); `HTTPClientMulti` drives many at once on one thread (a multi handle, which keeps the
// connections to the target alive between transfers).

/// libcurl's functions, resolved with dlsym.
private struct CurlLibrary: @unchecked Sendable {
    static let soname = "libcurl-gnutls.so.4"
    static let debianPackage = "libcurl3-gnutls"

    let easyInit: EMCurlEasyInit
    let easyCleanup: EMCurlEasyCleanup
    let easySetopt: EMCurlEasySetopt
    let easyGetinfo: EMCurlEasyGetinfo
    let easyPause: EMCurlEasyPause
    let easyStrerror: EMCurlEasyStrerror
    let slistAppend: EMCurlSlistAppend
    let slistFreeAll: EMCurlSlistFreeAll
    let multiInit: EMCurlMultiInit
    let multiCleanup: EMCurlMultiCleanup
    let multiSetopt: EMCurlMultiSetopt
    let multiAddHandle: EMCurlMultiAddHandle
    let multiRemoveHandle: EMCurlMultiRemoveHandle
    let multiPerform: EMCurlMultiPerform
    let multiPoll: EMCurlMultiPoll
    let multiWakeup: EMCurlMultiWakeup
    let multiInfoRead: EMCurlMultiInfoRead

    /// Loaded, and initialised once, by whichever thread asks first; why not, when it cannot be.
    static let shared: Result<CurlLibrary, HTTPClientUnavailable> = load()

    private static func load() -> Result<CurlLibrary, HTTPClientUnavailable> {
        guard let dynamic = DynamicLibrary(soname) else {
            return .failure(HTTPClientUnavailable(description: "forwarding to a proxy target needs libcurl (\(soname)), which cannot be loaded: install the Debian package \(debianPackage)"))
        }
        let globalInit = dynamic.function("curl_global_init", as: EMCurlGlobalInit.self)
        let library = CurlLibrary(
            easyInit: dynamic.function("curl_easy_init", as: EMCurlEasyInit.self), easyCleanup: dynamic.function("curl_easy_cleanup", as: EMCurlEasyCleanup.self),
            easySetopt: dynamic.function("curl_easy_setopt", as: EMCurlEasySetopt.self),
            easyGetinfo: dynamic.function("curl_easy_getinfo", as: EMCurlEasyGetinfo.self), easyPause: dynamic.function("curl_easy_pause", as: EMCurlEasyPause.self),
            easyStrerror: dynamic.function("curl_easy_strerror", as: EMCurlEasyStrerror.self), slistAppend: dynamic.function("curl_slist_append", as: EMCurlSlistAppend.self),
            slistFreeAll: dynamic.function("curl_slist_free_all", as: EMCurlSlistFreeAll.self), multiInit: dynamic.function("curl_multi_init", as: EMCurlMultiInit.self),
            multiCleanup: dynamic.function("curl_multi_cleanup", as: EMCurlMultiCleanup.self), multiSetopt: dynamic.function("curl_multi_setopt", as: EMCurlMultiSetopt.self),
            multiAddHandle: dynamic.function("curl_multi_add_handle", as: EMCurlMultiAddHandle.self),
            multiRemoveHandle: dynamic.function("curl_multi_remove_handle", as: EMCurlMultiRemoveHandle.self),
            multiPerform: dynamic.function("curl_multi_perform", as: EMCurlMultiPerform.self), multiPoll: dynamic.function("curl_multi_poll", as: EMCurlMultiPoll.self),
            multiWakeup: dynamic.function("curl_multi_wakeup", as: EMCurlMultiWakeup.self), multiInfoRead: dynamic.function("curl_multi_info_read", as: EMCurlMultiInfoRead.self)
        )
        guard let library, let globalInit else {
            return .failure(HTTPClientUnavailable(description: "the libcurl library \(soname) lacks \(dynamic.missing.joined(separator: ", ")); install libcurl 7.68 or newer (\(debianPackage))"))
        }
        guard globalInit(em_curl_global_default) == CURLE_OK else {
            return .failure(HTTPClientUnavailable(description: "libcurl (\(soname)) cannot be initialised"))
        }
        return .success(library)
    }

    private init?(
        easyInit: EMCurlEasyInit?, easyCleanup: EMCurlEasyCleanup?, easySetopt: EMCurlEasySetopt?,
        easyGetinfo: EMCurlEasyGetinfo?, easyPause: EMCurlEasyPause?, easyStrerror: EMCurlEasyStrerror?, slistAppend: EMCurlSlistAppend?,
        slistFreeAll: EMCurlSlistFreeAll?, multiInit: EMCurlMultiInit?, multiCleanup: EMCurlMultiCleanup?, multiSetopt: EMCurlMultiSetopt?,
        multiAddHandle: EMCurlMultiAddHandle?, multiRemoveHandle: EMCurlMultiRemoveHandle?, multiPerform: EMCurlMultiPerform?,
        multiPoll: EMCurlMultiPoll?, multiWakeup: EMCurlMultiWakeup?, multiInfoRead: EMCurlMultiInfoRead?
    ) {
        guard let easyInit, let easyCleanup, let easySetopt, let easyGetinfo, let easyPause, let easyStrerror, let slistAppend,
              let slistFreeAll, let multiInit, let multiCleanup, let multiSetopt, let multiAddHandle, let multiRemoveHandle, let multiPerform,
              let multiPoll, let multiWakeup, let multiInfoRead else { return nil }
        self.easyInit = easyInit
        self.easyCleanup = easyCleanup
        self.easySetopt = easySetopt
        self.easyGetinfo = easyGetinfo
        self.easyPause = easyPause
        self.easyStrerror = easyStrerror
        self.slistAppend = slistAppend
        self.slistFreeAll = slistFreeAll
        self.multiInit = multiInit
        self.multiCleanup = multiCleanup
        self.multiSetopt = multiSetopt
        self.multiAddHandle = multiAddHandle
        self.multiRemoveHandle = multiRemoveHandle
        self.multiPerform = multiPerform
        self.multiPoll = multiPoll
        self.multiWakeup = multiWakeup
        self.multiInfoRead = multiInfoRead
    }
}

/// Why the HTTP client cannot be used (libcurl missing or too old): a configuration error for `proxy`.
struct HTTPClientUnavailable: Error, CustomStringConvertible {
    let description: String
}

/// Whether libcurl can be loaded; the message saying what to install when not.
func loadHTTPClient() -> HTTPClientUnavailable? {
    if case .failure(let problem) = CurlLibrary.shared { return problem }
    return nil
}

/// One request to the target, as libcurl is told it.
struct UpstreamRequest: Sendable {
    /// The body the request carries: none, one of this many bytes (`Content-Length`), or one of unknown
    /// length (sent chunked).
    enum Body: Sendable, Equatable {
        case none
        case length(Int)
        case chunked
    }

    var url: String
    var method: String
    /// `Name: value` lines, sent as they are; `Name:` removes a header libcurl would add by itself.
    var headerLines: [String]
    var body: Body
    /// Seconds to connect (TLS handshake included).
    var connectTimeout: Double
    var verifiesTLS: Bool
    /// A PEM file of the certificate authorities to trust instead of the system's.
    var certificateAuthorities: String?
}

/// What a transfer's callbacks report, on the thread that drives it (`HTTPClientMulti`'s).
protocol HTTPClientTransferReceiver: AnyObject {
    /// One line of the answer's head (the status line, a header, the empty line that ends it), with its CR LF.
    func transferHeaderLine(_ line: UnsafeRawBufferPointer)
    /// Bytes of the answer's body, as received (not content-decoded); false pauses the transfer's receiving
    /// without taking them: they come again once `HTTPClientTransfer.unpause()` is called.
    func transferBody(_ bytes: UnsafeRawBufferPointer) -> Bool
    /// Bytes of the request's body for the target.
    func transferUpload(into buffer: UnsafeMutableRawBufferPointer) -> UploadStep
}

/// What a transfer's upload does next.
enum UploadStep {
    /// This many bytes were written.
    case bytes(Int)
    /// The body is complete.
    case end
    /// None yet: the upload pauses until `HTTPClientTransfer.unpause()`.
    case wait
    /// The transfer fails.
    case abort
}

/// Why a transfer failed.
struct TransferFailure: Error, Sendable {
    /// It ran out of time.
    let timedOut: Bool
    /// libcurl's words for it (`Failed to connect to 127.0.0.1 port 9: Connection refused`).
    let reason: String
    /// It was stopped because the server stops.
    var serverStopping = false
}

/// One request to the target: a libcurl easy handle, reused for transfer after transfer (what stays the same
/// is set once, so that libcurl keeps its buffers). Configured on any thread while it is in no
/// `HTTPClientMulti`; driven only by the multi's thread.
final class HTTPClientTransfer: @unchecked Sendable {
    private let library: CurlLibrary
    fileprivate let handle: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
    /// Retained by the transfer while it runs: its callbacks reach it unretained.
    private(set) var receiver: HTTPClientTransferReceiver?

    /// Nil when libcurl cannot be loaded or makes no handle.
    init?() {
        guard case .success(let library) = CurlLibrary.shared, let handle = library.easyInit() else { return nil }
        self.library = library
        self.handle = handle
        let setopt = library.easySetopt
        _ = em_curl_setopt_long(setopt, handle, CURLOPT_NOSIGNAL, 1)
        // The target is reached directly: proxies named in the environment (http_proxy) are not used.
        _ = em_curl_setopt_string(setopt, handle, CURLOPT_PROXY, "")
        _ = em_curl_setopt_long(setopt, handle, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1))
        // The path as the client sent it, and the body as the target sent it (no content decoding).
        _ = em_curl_setopt_long(setopt, handle, CURLOPT_PATH_AS_IS, 1)
        _ = em_curl_setopt_long(setopt, handle, CURLOPT_HTTP_CONTENT_DECODING, 0)
        _ = em_curl_setopt_long(setopt, handle, CURLOPT_BUFFERSIZE, 64 * 1024)
        _ = em_curl_setopt_long(setopt, handle, CURLOPT_UPLOAD_BUFFERSIZE, 64 * 1024)
        _ = em_curl_setopt_pointer(setopt, handle, CURLOPT_ERRORBUFFER, errorBuffer)
        let me = Unmanaged.passUnretained(self).toOpaque()
        _ = em_curl_setopt_pointer(setopt, handle, CURLOPT_PRIVATE, me)
        _ = em_curl_setopt_callback(setopt, handle, CURLOPT_READFUNCTION, Self.readCallback)
        _ = em_curl_setopt_pointer(setopt, handle, CURLOPT_READDATA, me)
        _ = em_curl_setopt_callback(setopt, handle, CURLOPT_HEADERFUNCTION, Self.headerCallback)
        _ = em_curl_setopt_pointer(setopt, handle, CURLOPT_HEADERDATA, me)
        _ = em_curl_setopt_callback(setopt, handle, CURLOPT_WRITEFUNCTION, Self.writeCallback)
        _ = em_curl_setopt_pointer(setopt, handle, CURLOPT_WRITEDATA, me)
    }

    deinit {
        library.easyCleanup(handle)
        if let headerList { library.slistFreeAll(headerList) }
        errorBuffer.deallocate()
    }

    /// Sets the transfer up for `request`, reporting to `receiver`: every option an earlier request may have
    /// set is set again.
    func configure(_ request: UpstreamRequest, receiver: HTTPClientTransferReceiver) {
        if let headerList { library.slistFreeAll(headerList) }
        headerList = nil
        self.receiver = receiver
        errorBuffer[0] = 0
        let setopt = library.easySetopt
        _ = em_curl_setopt_string(setopt, handle, CURLOPT_URL, request.url)
        _ = em_curl_setopt_long(setopt, handle, CURLOPT_CONNECTTIMEOUT_MS, max(1, Int(request.connectTimeout * 1000)))
        _ = em_curl_setopt_long(setopt, handle, CURLOPT_SSL_VERIFYPEER, request.verifiesTLS ? 1 : 0)
        _ = em_curl_setopt_long(setopt, handle, CURLOPT_SSL_VERIFYHOST, request.verifiesTLS ? 2 : 0)
        // The same for every transfer of a server: never reset to the default.
        if let authorities = request.certificateAuthorities { _ = em_curl_setopt_string(setopt, handle, CURLOPT_CAINFO, authorities) }
        // Back to a plain GET, then the request's own method and body.
        _ = em_curl_setopt_long(setopt, handle, CURLOPT_HTTPGET, 1)
        _ = em_curl_setopt_pointer(setopt, handle, CURLOPT_CUSTOMREQUEST, nil)
        _ = em_curl_setopt_offset(setopt, handle, CURLOPT_INFILESIZE_LARGE, -1)
        switch (request.method, request.body) {
        case ("GET", .none): break
        case ("HEAD", _): _ = em_curl_setopt_long(setopt, handle, CURLOPT_NOBODY, 1)
        default: _ = em_curl_setopt_string(setopt, handle, CURLOPT_CUSTOMREQUEST, request.method)
        }
        if request.body != .none {
            _ = em_curl_setopt_long(setopt, handle, CURLOPT_UPLOAD, 1)
            if case .length(let length) = request.body { _ = em_curl_setopt_offset(setopt, handle, CURLOPT_INFILESIZE_LARGE, curl_off_t(length)) }
        }
        var list: UnsafeMutablePointer<curl_slist>?
        for line in request.headerLines { list = library.slistAppend(list, line) ?? list }
        headerList = list
        _ = em_curl_setopt_pointer(setopt, handle, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(list))
    }

    /// Lets go of the receiver once the transfer has ended.
    func release() {
        receiver = nil
    }

    /// Receiving and sending go on after a pause. On the multi's thread; the callbacks may run at once.
    func unpause() {
        _ = library.easyPause(handle, em_curl_pause_continue)
    }

    fileprivate func failure(_ code: CURLcode) -> TransferFailure {
        let detail = String(cString: errorBuffer)
        return TransferFailure(timedOut: code == CURLE_OPERATION_TIMEDOUT, reason: detail.isEmpty ? library.easyStrerror(code).map { String(cString: $0) } ?? "error \(code.rawValue)" : detail)
    }

    private static func transfer(_ context: UnsafeMutableRawPointer?) -> HTTPClientTransfer {
        Unmanaged<HTTPClientTransfer>.fromOpaque(context!).takeUnretainedValue()
    }

    private static let headerCallback: curl_write_callback = { bytes, size, count, context in
        let length = size * count
        guard let receiver = transfer(context).receiver else { return 0 }
        receiver.transferHeaderLine(UnsafeRawBufferPointer(start: bytes, count: length))
        return length
    }

    private static let writeCallback: curl_write_callback = { bytes, size, count, context in
        let length = size * count
        guard let receiver = transfer(context).receiver else { return 0 }
        return receiver.transferBody(UnsafeRawBufferPointer(start: bytes, count: length)) ? length : em_curl_write_pause
    }

    private static let readCallback: curl_read_callback = { bytes, size, count, context in
        guard let receiver = transfer(context).receiver, let bytes else { return em_curl_read_abort }
        switch receiver.transferUpload(into: UnsafeMutableRawBufferPointer(start: bytes, count: size * count)) {
        case .bytes(let written): return written
        case .end: return 0
        case .wait: return em_curl_read_pause
        case .abort: return em_curl_read_abort
        }
    }
}

/// Many transfers driven at once by one thread (a libcurl multi handle): it keeps the connections to the
/// target open between transfers. Every method but `wakeup` on that thread only.
final class HTTPClientMulti: @unchecked Sendable {
    private let library: CurlLibrary
    private let handle: UnsafeMutableRawPointer

    /// Nil when libcurl cannot be loaded or makes no multi handle.
    init?(connectionsKept: Int) {
        guard case .success(let library) = CurlLibrary.shared, let handle = library.multiInit() else { return nil }
        self.library = library
        self.handle = handle
        _ = em_curl_multi_setopt_long(library.multiSetopt, handle, CURLMOPT_MAXCONNECTS, connectionsKept)
    }

    deinit {
        _ = library.multiCleanup(handle)
    }

    func add(_ transfer: HTTPClientTransfer) {
        _ = library.multiAddHandle(handle, transfer.handle)
    }

    /// Stops `transfer` where it is (its connection is closed unless it was complete).
    func remove(_ transfer: HTTPClientTransfer) {
        _ = library.multiRemoveHandle(handle, transfer.handle)
    }

    /// Moves every transfer on as far as it can without waiting; the callbacks run meanwhile.
    func perform() {
        var running: Int32 = 0
        _ = library.multiPerform(handle, &running)
    }

    /// The transfers that have ended since the last call, each with its failure (nil: the answer is complete).
    /// They are still in the multi: `remove` each.
    func ended() -> [(transfer: HTTPClientTransfer, failure: TransferFailure?)] {
        var ended: [(HTTPClientTransfer, TransferFailure?)] = []
        var left: Int32 = 0
        while let message = library.multiInfoRead(handle, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            var context: UnsafeMutableRawPointer?
            guard em_curl_getinfo_pointer(library.easyGetinfo, easy, CURLINFO_PRIVATE, &context) == CURLE_OK, let context else { continue }
            let transfer = Unmanaged<HTTPClientTransfer>.fromOpaque(context).takeUnretainedValue()
            let code = message.pointee.data.result
            ended.append((transfer, code == CURLE_OK ? nil : transfer.failure(code)))
        }
        return ended
    }

    /// Waits until a transfer can move, `wakeup` is called, or `milliseconds` have passed.
    func poll(milliseconds: Int) {
        var ready: Int32 = 0
        _ = library.multiPoll(handle, nil, 0, Int32(milliseconds), &ready)
    }

    /// Ends a `poll` now. Any thread.
    func wakeup() {
        _ = library.multiWakeup(handle)
    }
}
