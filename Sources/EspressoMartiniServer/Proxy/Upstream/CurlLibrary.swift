internal import CCurl
import EspressoMartini
import Glibc

/// libcurl's functions (its GnuTLS build, as Debian ships it), loaded with dlopen the first time a server
/// with a `proxy` that needs libcurl starts, so that a server without one neither maps it nor the thirty
/// libraries it links. The files `Curl*.swift` are the only ones that see libcurl's C API: a `CurlTransfer`
/// is one request to the target (an easy handle), a `CurlUpstreamClient` drives many at once on a serving
/// loop (a multi handle, which keeps the connections to the target alive between transfers).
struct CurlLibrary: @unchecked Sendable {
    static let soname = "libcurl-gnutls.so.4"
    static let debianPackage = "libcurl3-gnutls"

    let easyInit: EMCurlEasyInit
    let easyCleanup: EMCurlEasyCleanup
    let easySetopt: EMCurlEasySetopt
    let easyGetinfo: EMCurlEasyGetinfo
    let easyPause: EMCurlEasyPause
    let easyStrerror: EMCurlEasyStrerror
    let multiInit: EMCurlMultiInit
    let multiCleanup: EMCurlMultiCleanup
    let multiSetopt: EMCurlMultiSetopt
    let multiAddHandle: EMCurlMultiAddHandle
    let multiRemoveHandle: EMCurlMultiRemoveHandle
    let multiSocketAction: EMCurlMultiSocketAction
    let multiInfoRead: EMCurlMultiInfoRead
    let globalInit: EMCurlGlobalInit

    /// Loaded, and initialised once, by whichever thread asks first; why not, when it cannot be.
    static let shared: Result<CurlLibrary, LibraryUnavailable> = DynamicLibrary.load(
        soname, package: debianPackage, neededBy: "forwarding to a proxy target needs libcurl"
    ) { curl in
        CurlLibrary(
            easyInit: curl("curl_easy_init"), easyCleanup: curl("curl_easy_cleanup"),
            easySetopt: curl("curl_easy_setopt"),
            easyGetinfo: curl("curl_easy_getinfo"), easyPause: curl("curl_easy_pause"),
            easyStrerror: curl("curl_easy_strerror"),
            multiInit: curl("curl_multi_init"), multiCleanup: curl("curl_multi_cleanup"),
            multiSetopt: curl("curl_multi_setopt"),
            multiAddHandle: curl("curl_multi_add_handle"), multiRemoveHandle: curl("curl_multi_remove_handle"),
            multiSocketAction: curl("curl_multi_socket_action"), multiInfoRead: curl("curl_multi_info_read"),
            globalInit: curl("curl_global_init")
        )
    }.flatMap { library in
        library.globalInit(em_curl_global_default) == CURLE_OK
            ? .success(library) : .failure(LibraryUnavailable("libcurl (\(soname)) cannot be initialised"))
    }

    /// Why libcurl cannot be loaded, saying what to install; nil when it can.
    static var unavailability: LibraryUnavailable? {
        if case .failure(let problem) = shared { return problem }
        return nil
    }
}
