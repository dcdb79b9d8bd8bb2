#ifndef ESPRESSOMARTINI_CCURL_SHIM_H
#define ESPRESSOMARTINI_CCURL_SHIM_H
// libcurl's types and constants (Debian's libcurl4-gnutls-dev), and nothing to link: espressomartini loads
// libcurl-gnutls.so.4 with dlopen when the server configuration has a `proxy`
// (EspressoMartiniServer/LibCurl.swift), so a server without one neither maps it nor its thirty libraries.
// The functions are called through these pointer types, resolved with dlsym; the variadic ones through
// fixed-argument wrappers, which Swift can call.
#include <curl/curl.h>

#if LIBCURL_VERSION_NUM < 0x074400
#error "espressomartini needs libcurl 7.68 or newer"
#endif

typedef CURLcode (*EMCurlGlobalInit)(long flags);
typedef CURL *(*EMCurlEasyInit)(void);
typedef void (*EMCurlEasyCleanup)(CURL *handle);
typedef CURLcode (*EMCurlEasySetopt)(CURL *handle, CURLoption option, ...);
typedef CURLcode (*EMCurlEasyGetinfo)(CURL *handle, CURLINFO info, ...);
typedef CURLcode (*EMCurlEasyPause)(CURL *handle, int bitmask);
typedef const char *(*EMCurlEasyStrerror)(CURLcode code);
typedef CURLM *(*EMCurlMultiInit)(void);
typedef CURLMcode (*EMCurlMultiCleanup)(CURLM *multi);
typedef CURLMcode (*EMCurlMultiSetopt)(CURLM *multi, CURLMoption option, ...);
typedef CURLMcode (*EMCurlMultiAddHandle)(CURLM *multi, CURL *handle);
typedef CURLMcode (*EMCurlMultiRemoveHandle)(CURLM *multi, CURL *handle);
typedef CURLMcode (*EMCurlMultiSocketAction)(CURLM *multi, curl_socket_t socket, int events, int *running);
typedef CURLMsg *(*EMCurlMultiInfoRead)(CURLM *multi, int *left);
typedef curl_version_info_data *(*EMCurlVersionInfo)(CURLversion age);

static inline CURLcode em_curl_setopt_long(EMCurlEasySetopt setopt, CURL *handle, CURLoption option, long value) {
    return setopt(handle, option, value);
}
static inline CURLcode em_curl_setopt_pointer(EMCurlEasySetopt setopt, CURL *handle, CURLoption option, void *value) {
    return setopt(handle, option, value);
}
static inline CURLcode em_curl_setopt_string(EMCurlEasySetopt setopt, CURL *handle, CURLoption option, const char *value) {
    return setopt(handle, option, value);
}
static inline CURLcode em_curl_setopt_offset(EMCurlEasySetopt setopt, CURL *handle, CURLoption option, curl_off_t value) {
    return setopt(handle, option, value);
}
// The write, read and header callbacks have the same type.
static inline CURLcode em_curl_setopt_callback(EMCurlEasySetopt setopt, CURL *handle, CURLoption option, curl_write_callback value) {
    return setopt(handle, option, value);
}
static inline CURLcode em_curl_getinfo_long(EMCurlEasyGetinfo getinfo, CURL *handle, CURLINFO info, long *value) {
    return getinfo(handle, info, value);
}
static inline CURLcode em_curl_getinfo_pointer(EMCurlEasyGetinfo getinfo, CURL *handle, CURLINFO info, void **value) {
    return getinfo(handle, info, value);
}
static inline CURLcode em_curl_setopt_close_socket(EMCurlEasySetopt setopt, CURL *handle, curl_closesocket_callback value) {
    return setopt(handle, CURLOPT_CLOSESOCKETFUNCTION, value);
}
static inline CURLcode em_curl_setopt_socket_opened(EMCurlEasySetopt setopt, CURL *handle, curl_sockopt_callback value) {
    return setopt(handle, CURLOPT_SOCKOPTFUNCTION, value);
}
static inline CURLMcode em_curl_multi_setopt_long(EMCurlMultiSetopt setopt, CURLM *multi, CURLMoption option, long value) {
    return setopt(multi, option, value);
}
static inline CURLMcode em_curl_multi_setopt_pointer(EMCurlMultiSetopt setopt, CURLM *multi, CURLMoption option, void *value) {
    return setopt(multi, option, value);
}
static inline CURLMcode em_curl_multi_setopt_socket(EMCurlMultiSetopt setopt, CURLM *multi, curl_socket_callback value) {
    return setopt(multi, CURLMOPT_SOCKETFUNCTION, value);
}
static inline CURLMcode em_curl_multi_setopt_timer(EMCurlMultiSetopt setopt, CURLM *multi, curl_multi_timer_callback value) {
    return setopt(multi, CURLMOPT_TIMERFUNCTION, value);
}

// Macros Swift does not import.
static const long em_curl_global_default = CURL_GLOBAL_DEFAULT;
static const int em_curl_pause_continue = CURLPAUSE_CONT;
static const size_t em_curl_write_pause = CURL_WRITEFUNC_PAUSE;
static const size_t em_curl_read_pause = CURL_READFUNC_PAUSE;
static const size_t em_curl_read_abort = CURL_READFUNC_ABORT;
static const curl_socket_t em_curl_socket_timeout = CURL_SOCKET_TIMEOUT;
static const int em_curl_poll_in = CURL_POLL_IN;
static const int em_curl_poll_out = CURL_POLL_OUT;
static const int em_curl_poll_remove = CURL_POLL_REMOVE;
static const int em_curl_select_in = CURL_CSELECT_IN;
static const int em_curl_select_out = CURL_CSELECT_OUT;
static const int em_curl_sockopt_ok = CURL_SOCKOPT_OK;
#endif
