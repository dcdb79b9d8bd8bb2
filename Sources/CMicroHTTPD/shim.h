#ifndef ESPRESSOMARTINI_CMICROHTTPD_SHIM_H
#define ESPRESSOMARTINI_CMICROHTTPD_SHIM_H
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

#if MHD_VERSION < 0x00097400
#error "espressomartini needs libmicrohttpd 0.9.74 or newer"
#endif

// MHD_start_daemon is variadic, which Swift cannot call: this fixed-argument wrapper passes the
// options espressomartini uses. The daemon takes over `listen_fd`, bound by the caller, and has no thread
// of its own: its caller drives it with MHD_run or MHD_run_wait. With a `certificate_callback` (a
// gnutls_certificate_retrieve_function2), the daemon serves HTTPS and asks it for the certificate at every
// handshake; NULL serves plain HTTP.
static inline struct MHD_Daemon *em_start_daemon(unsigned int flags, int listen_fd,
                                                 unsigned int connection_timeout, unsigned int connection_limit,
                                                 size_t connection_memory,
                                                 MHD_AccessHandlerCallback handler,
                                                 MHD_RequestCompletedCallback completed,
                                                 void *(*uri_log)(void *cls, const char *uri, struct MHD_Connection *connection),
                                                 void *context, void *certificate_callback) {
    // Optional options, or nothing: an option array whose first item ends it is empty.
    struct MHD_OptionItem tls[] = {
        {certificate_callback != NULL ? MHD_OPTION_HTTPS_CERT_CALLBACK : MHD_OPTION_END, 0, certificate_callback},
        {MHD_OPTION_END, 0, NULL},
    };
    return MHD_start_daemon(flags | (certificate_callback != NULL ? MHD_USE_TLS : 0), 0, NULL, NULL, handler, context,
                            MHD_OPTION_LISTEN_SOCKET, (MHD_socket)listen_fd,
                            MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, context,
                            MHD_OPTION_URI_LOG_CALLBACK, uri_log, context,
                            MHD_OPTION_ARRAY, tls,
                            MHD_OPTION_END);
}

// The epoll set of a daemon without threads of its own, which its caller watches; -1 when there is none.
static inline int em_daemon_epoll_fd(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_EPOLL_FD);
    return info == NULL ? -1 : info->epoll_fd;
}

// The connection's socket, -1 when libmicrohttpd does not say (the union it returns is awkward in Swift).
static inline int em_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : (int)info->connect_fd;
}

// The client's address, NULL when libmicrohttpd does not say.
static inline const struct sockaddr *em_connection_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

// The daemon serving the connection, NULL when libmicrohttpd does not say.
static inline struct MHD_Daemon *em_connection_daemon(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_DAEMON);
    return info == NULL ? NULL : info->daemon;
}

// The size of the request's line and headers once all its headers are in; 0 before.
static inline size_t em_request_header_size(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    return info == NULL ? 0 : info->header_size;
}

// What a request whose headers are in takes of its connection's memory: its request line and headers as read,
// and libmicrohttpd's record of each header and cookie (64 bytes each in 0.9.75, where a `Cookie` header is also
// copied). The answer's status line and headers must fit in what is left.
static inline size_t em_request_memory(struct MHD_Connection *connection) {
    size_t used = em_request_header_size(connection);
    int records = MHD_get_connection_values_n(connection, (enum MHD_ValueKind)(MHD_HEADER_KIND | MHD_COOKIE_KIND),
                                              NULL, NULL);
    const char *cookie = NULL;
    size_t cookie_size = 0;
    if (records > 0 && MHD_get_connection_values_n(connection, MHD_COOKIE_KIND, NULL, NULL) > 0 &&
        MHD_lookup_connection_value_n(connection, MHD_HEADER_KIND, "Cookie", 6, &cookie, &cookie_size) == MHD_YES) {
        used += cookie_size + 1;
    }
    return used + (size_t)(records > 0 ? records : 0) * 64;
}

// Sends `response` without a Content-Length or a Transfer-Encoding when its size is unknown (the connection
// is then closed after it): for a HEAD or 304 answer whose length is not known, which must not claim one.
static inline void em_response_without_length(struct MHD_Response *response) {
    MHD_set_response_options(response, MHD_RF_HTTP_1_0_COMPATIBLE_STRICT, MHD_RO_END);
}

// The connection's GnuTLS session (a gnutls_session_t), NULL for plain HTTP.
static inline void *em_connection_tls_session(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_GNUTLS_SESSION);
    return info == NULL ? NULL : info->tls_session;
}

// Writes `size` bytes on the connection's plain socket past libmicrohttpd, without waiting; how many were
// written, -1 on an error.
static inline ssize_t em_connection_send_plain(struct MHD_Connection *connection, const void *bytes, size_t size) {
    int socket = em_connection_fd(connection);
    return socket < 0 ? -1 : send(socket, bytes, size, MSG_DONTWAIT | MSG_NOSIGNAL);
}

#endif
