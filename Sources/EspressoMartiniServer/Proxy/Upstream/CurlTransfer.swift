internal import CCurl
import EspressoMartini
import Glibc

/// One request to the target: a libcurl easy handle, reused for transfer after transfer (what stays the same
/// is set once, so that libcurl keeps its buffers). Configured on any thread while it is in no
/// `CurlUpstreamClient`; driven only by that client's loop.
final class CurlTransfer: UpstreamTransfer, @unchecked Sendable {
    private let library: CurlLibrary
    let handle: UnsafeMutableRawPointer
    /// Its sockets are closed through the multi it was added to, which is always the same one.
    var closesSocketsThroughMulti = false
    /// The next request's URL and header lines, written by the caller before `configure`; read by libcurl
    /// while the transfer runs.
    let text = UpstreamRequestText(style: .curl)
    var lanePosition = -1
    /// libcurl's header list, made of nodes pointing into `text`: no copy, nothing allocated per request.
    private var headerNodes: UnsafeMutablePointer<curl_slist>
    private var headerNodeCapacity = 32
    /// The method and body of the last request, whose options the next one may keep.
    private var lastRequest = UpstreamRequest(method: "GET", body: .none)
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
    /// Retained by the transfer while it runs: its callbacks reach it unretained.
    private(set) var receiver: UpstreamTransferReceiver?

    /// Nil when libcurl cannot be loaded or makes no handle.
    init?(settings: CurlSettings) {
        guard case .success(let library) = CurlLibrary.shared, let handle = library.easyInit() else { return nil }
        self.library = library
        self.handle = handle
        headerNodes = .allocate(capacity: headerNodeCapacity)
        let setopt = library.easySetopt
        _ = em_curl_setopt_long(setopt, handle, CURLOPT_NOSIGNAL, 1)
        // The target is reached directly: proxies named in the environment (http_proxy) are not used.
        _ = em_curl_setopt_string(setopt, handle, CURLOPT_PROXY, "")
        _ = em_curl_setopt_long(setopt, handle, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1))
        _ = em_curl_setopt_long(setopt, handle, CURLOPT_TCP_NODELAY, 1)
        // The path as the client sent it, and the body as the target sent it (no content decoding).
        _ = em_curl_setopt_long(setopt, handle, CURLOPT_PATH_AS_IS, 1)
        _ = em_curl_setopt_long(setopt, handle, CURLOPT_HTTP_CONTENT_DECODING, 0)
        _ = em_curl_setopt_long(setopt, handle, CURLOPT_BUFFERSIZE, 64 * 1024)
        _ = em_curl_setopt_long(setopt, handle, CURLOPT_UPLOAD_BUFFERSIZE, 64 * 1024)
        _ = em_curl_setopt_long(setopt, handle, CURLOPT_CONNECTTIMEOUT_MS, max(1, Int(settings.connectTimeout * 1000)))
        _ = em_curl_setopt_long(setopt, handle, CURLOPT_SSL_VERIFYPEER, settings.verifiesTLS ? 1 : 0)
        _ = em_curl_setopt_long(setopt, handle, CURLOPT_SSL_VERIFYHOST, settings.verifiesTLS ? 2 : 0)
        if let authorities = settings.certificateAuthorities {
            _ = em_curl_setopt_string(setopt, handle, CURLOPT_CAINFO, authorities)
        }
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
        headerNodes.deallocate()
        errorBuffer.deallocate()
    }

    /// Sets the transfer up for `request`, whose URL and header lines are in `text`, reporting to `receiver`.
    func configure(_ request: UpstreamRequest, receiver: UpstreamTransferReceiver) {
        self.receiver = receiver
        errorBuffer[0] = 0
        let setopt = library.easySetopt
        _ = em_curl_setopt_pointer(setopt, handle, CURLOPT_URL, text.bytes)  // copied by libcurl
        if request != lastRequest {
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
                if case .length(let length) = request.body {
                    _ = em_curl_setopt_offset(setopt, handle, CURLOPT_INFILESIZE_LARGE, curl_off_t(length))
                }
            }
            lastRequest = request
        }
        let lines = text.lineStarts
        if lines.count > headerNodeCapacity {
            headerNodes.deallocate()
            headerNodeCapacity = lines.count
            headerNodes = .allocate(capacity: headerNodeCapacity)
        }
        for (index, start) in lines.enumerated() {
            let next = index + 1 < lines.count ? headerNodes + index + 1 : nil
            (headerNodes + index).initialize(
                to: curl_slist(
                    data: UnsafeMutableRawPointer(text.bytes + start).assumingMemoryBound(to: CChar.self), next: next))
        }
        _ = em_curl_setopt_pointer(
            setopt, handle, CURLOPT_HTTPHEADER, lines.isEmpty ? nil : UnsafeMutableRawPointer(headerNodes))
    }

    /// Lets go of the receiver once the transfer has ended.
    func release() {
        receiver = nil
    }

    /// Receiving and sending go on after a pause. On the client's loop; the callbacks may run at once.
    func unpause() {
        _ = library.easyPause(handle, em_curl_pause_continue)
    }

    func failure(_ code: CURLcode) -> TransferFailure {
        let detail = String(cString: errorBuffer)
        return TransferFailure(
            timedOut: code == CURLE_OPERATION_TIMEDOUT,
            reason: detail.isEmpty
                ? library.easyStrerror(code).map { String(cString: $0) } ?? "error \(code.rawValue)" : detail)
    }

    private static func transfer(_ context: UnsafeMutableRawPointer?) -> CurlTransfer {
        Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
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
