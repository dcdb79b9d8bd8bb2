internal import CCurl
import EspressoMartini
import Glibc

/// libcurl's functions, resolved with dlsym.
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

    /// Loaded, and initialised once, by whichever thread asks first; why not, when it cannot be.
    static let shared: Result<CurlLibrary, UpstreamClientUnavailable> = load()

    private static func load() -> Result<CurlLibrary, UpstreamClientUnavailable> {
        guard let dynamic = DynamicLibrary(soname) else {
            return .failure(UpstreamClientUnavailable(description: "forwarding to a proxy target needs libcurl (\(soname)), which cannot be loaded: install the Debian package \(debianPackage)"))
        }
        let globalInit = dynamic.function("curl_global_init", as: EMCurlGlobalInit.self)
        let library = CurlLibrary(
            easyInit: dynamic.function("curl_easy_init", as: EMCurlEasyInit.self), easyCleanup: dynamic.function("curl_easy_cleanup", as: EMCurlEasyCleanup.self),
            easySetopt: dynamic.function("curl_easy_setopt", as: EMCurlEasySetopt.self),
            easyGetinfo: dynamic.function("curl_easy_getinfo", as: EMCurlEasyGetinfo.self), easyPause: dynamic.function("curl_easy_pause", as: EMCurlEasyPause.self),
            easyStrerror: dynamic.function("curl_easy_strerror", as: EMCurlEasyStrerror.self), multiInit: dynamic.function("curl_multi_init", as: EMCurlMultiInit.self),
            multiCleanup: dynamic.function("curl_multi_cleanup", as: EMCurlMultiCleanup.self), multiSetopt: dynamic.function("curl_multi_setopt", as: EMCurlMultiSetopt.self),
            multiAddHandle: dynamic.function("curl_multi_add_handle", as: EMCurlMultiAddHandle.self),
            multiRemoveHandle: dynamic.function("curl_multi_remove_handle", as: EMCurlMultiRemoveHandle.self),
            multiSocketAction: dynamic.function("curl_multi_socket_action", as: EMCurlMultiSocketAction.self),
            multiInfoRead: dynamic.function("curl_multi_info_read", as: EMCurlMultiInfoRead.self)
        )
        guard let library, let globalInit else {
            return .failure(UpstreamClientUnavailable(description: "the libcurl library \(soname) lacks \(dynamic.missing.joined(separator: ", ")); install libcurl 7.68 or newer (\(debianPackage))"))
        }
        guard globalInit(em_curl_global_default) == CURLE_OK else {
            return .failure(UpstreamClientUnavailable(description: "libcurl (\(soname)) cannot be initialised"))
        }
        return .success(library)
    }

    private init?(
        easyInit: EMCurlEasyInit?, easyCleanup: EMCurlEasyCleanup?, easySetopt: EMCurlEasySetopt?,
        easyGetinfo: EMCurlEasyGetinfo?, easyPause: EMCurlEasyPause?, easyStrerror: EMCurlEasyStrerror?, multiInit: EMCurlMultiInit?, multiCleanup: EMCurlMultiCleanup?, multiSetopt: EMCurlMultiSetopt?,
        multiAddHandle: EMCurlMultiAddHandle?, multiRemoveHandle: EMCurlMultiRemoveHandle?, multiSocketAction: EMCurlMultiSocketAction?,
        multiInfoRead: EMCurlMultiInfoRead?
    ) {
        guard let easyInit, let easyCleanup, let easySetopt, let easyGetinfo, let easyPause, let easyStrerror,
              let multiInit, let multiCleanup, let multiSetopt, let multiAddHandle, let multiRemoveHandle, let multiSocketAction,
              let multiInfoRead else { return nil }
        self.easyInit = easyInit
        self.easyCleanup = easyCleanup
        self.easySetopt = easySetopt
        self.easyGetinfo = easyGetinfo
        self.easyPause = easyPause
        self.easyStrerror = easyStrerror
        self.multiInit = multiInit
        self.multiCleanup = multiCleanup
        self.multiSetopt = multiSetopt
        self.multiAddHandle = multiAddHandle
        self.multiRemoveHandle = multiRemoveHandle
        self.multiSocketAction = multiSocketAction
        self.multiInfoRead = multiInfoRead
    }
}

extension CurlLibrary {
    /// Why libcurl cannot be loaded, saying what to install; nil when it can.
    static func unavailability() -> UpstreamClientUnavailable? {
        if case .failure(let problem) = shared { return problem }
        return nil
    }
}
