/* The ceiling: the fastest a libmicrohttpd server can answer on this machine, with nothing to do.
 *
 *   ceiling PORT         every request -> a fixed 101-byte JSON body, Content-Type: application/json
 *   ceiling PORT FILE    every request -> FILE, sent with MHD_create_response_from_fd (sendfile)
 *
 * It ignores method and path. Same libmicrohttpd set-up as espressomartini: one daemon per online CPU,
 * each an internal polling thread with epoll and 16 KiB of memory per connection, listening on no socket;
 * a thread of its own accepts the connections and gives each to the daemon holding the fewest. Listens on
 * 127.0.0.1 only; stops on SIGTERM or SIGINT. Built by bench/run.sh with:
 * gcc -O2 -Wall -o ceiling ceiling.c -lmicrohttpd
 */
#define _GNU_SOURCE /* accept4 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

/* The same bytes as bench/make_tree.py's GET /api/v1/hello response file. */
static const char BODY[] =
    "{\"id\":42,\"name\":\"espresso\",\"kind\":\"martini\",\"ok\":true,"
    "\"tags\":[\"a\",\"b\",\"c\"],\"score\":3.14159,\"n\":null}\n";

static struct MHD_Response *json_response;
static const char *file_path;
static enum MHD_Result answer(void *cls, struct MHD_Connection *connection, const char *url,
                              const char *method, const char *version, const char *upload_data,
                              size_t *upload_data_size, void **request_context) {
  (void)cls; (void)url; (void)method; (void)version; (void)upload_data;
  if (*request_context == NULL) { /* first call: the headers only */
    *request_context = (void *)1;
    return MHD_YES;
  }
  if (*upload_data_size != 0) { /* a request body: ignored */
    *upload_data_size = 0;
    return MHD_YES;
  }
  if (file_path == NULL) return MHD_queue_response(connection, MHD_HTTP_OK, json_response);

  int fd = open(file_path, O_RDONLY);
  struct stat status;
  if (fd < 0 || fstat(fd, &status) != 0) {
    if (fd >= 0) close(fd);
    return MHD_NO;
  }
  struct MHD_Response *response = MHD_create_response_from_fd((uint64_t)status.st_size, fd); /* closes fd */
  if (response == NULL) {
    close(fd);
    return MHD_NO;
  }
  MHD_add_response_header(response, "Content-Type", "application/octet-stream");
  enum MHD_Result queued = MHD_queue_response(connection, MHD_HTTP_OK, response);
  MHD_destroy_response(response);
  return queued;
}

#define MAX_DAEMONS 64
static struct MHD_Daemon *daemons[MAX_DAEMONS];
static atomic_int open_connections[MAX_DAEMONS];
static int daemon_count;
static int listener;

/* Counts each daemon's connections (cls: its index) as they close; the accept loop counts them in. */
static void connection_closed(void *cls, struct MHD_Connection *connection, void **socket_context,
                              enum MHD_ConnectionNotificationCode code) {
  (void)connection; (void)socket_context;
  if (code == MHD_CONNECTION_NOTIFY_CLOSED) atomic_fetch_sub(&open_connections[(intptr_t)cls], 1);
}

/* Takes each connection and gives it to the daemon holding the fewest; ends when the socket is shut down. */
static void *accept_loop(void *unused) {
  (void)unused;
  for (;;) {
    struct sockaddr_storage address;
    socklen_t length = sizeof address;
    int connection = accept4(listener, (struct sockaddr *)&address, &length, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (connection < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      return NULL;
    }
    int chosen = 0;
    for (int i = 1; i < daemon_count; i++)
      if (atomic_load(&open_connections[i]) < atomic_load(&open_connections[chosen])) chosen = i;
    atomic_fetch_add(&open_connections[chosen], 1);
    if (MHD_add_connection(daemons[chosen], connection, (struct sockaddr *)&address, length) != MHD_YES)
      atomic_fetch_sub(&open_connections[chosen], 1);
  }
}

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3) {
    fprintf(stderr, "usage: %s PORT [FILE]\n", argv[0]);
    return 2;
  }
  int port = atoi(argv[1]);
  file_path = argc == 3 ? argv[2] : NULL;
  if (file_path != NULL && access(file_path, R_OK) != 0) {
    fprintf(stderr, "ceiling: cannot read %s\n", file_path);
    return 2;
  }

  json_response = MHD_create_response_from_buffer(sizeof BODY - 1, (void *)BODY, MHD_RESPMEM_PERSISTENT);
  MHD_add_response_header(json_response, "Content-Type", "application/json");

  struct sockaddr_in address;
  memset(&address, 0, sizeof address);
  address.sin_family = AF_INET;
  address.sin_port = htons((uint16_t)port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  int on = 1;
  listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  if (listener < 0 || bind(listener, (struct sockaddr *)&address, sizeof address) != 0 || listen(listener, 1024) != 0) {
    fprintf(stderr, "ceiling: cannot listen on 127.0.0.1:%d (port busy?)\n", port);
    return 69;
  }
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  daemon_count = cpus < 1 ? 1 : cpus > MAX_DAEMONS ? MAX_DAEMONS : (int)cpus;

  /* Blocked here, so that the other threads inherit the mask and main() takes them with sigwait. */
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, NULL);

  for (int i = 0; i < daemon_count; i++) {
    daemons[i] = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_NO_LISTEN_SOCKET | MHD_USE_ITC, 0, NULL, NULL,
        answer, NULL,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned int)4096,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)30,
        // The connection memory espressomartini gives libmicrohttpd (ConnectionMemory.bytes), which
        // zeroes it after every request: the ceiling pays what espressomartini pays.
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(16 * 1024),
        MHD_OPTION_NOTIFY_CONNECTION, connection_closed, (void *)(intptr_t)i,
        MHD_OPTION_END);
    if (daemons[i] == NULL) {
      fprintf(stderr, "ceiling: libmicrohttpd did not start\n");
      return 69;
    }
  }
  pthread_t acceptor;
  pthread_create(&acceptor, NULL, accept_loop, NULL);
  int received;
  sigwait(&stop_signals, &received);
  shutdown(listener, SHUT_RDWR); /* ends the accept under way */
  pthread_join(acceptor, NULL);
  close(listener);
  for (int i = 0; i < daemon_count; i++) MHD_stop_daemon(daemons[i]);
  MHD_destroy_response(json_response);
  return 0;
}
