/* The ceiling: the fastest a libmicrohttpd server can answer on this machine, with nothing to do.
 *
 *   ceiling PORT         every request -> a fixed 101-byte JSON body, Content-Type: application/json
 *   ceiling PORT FILE    every request -> FILE, sent with MHD_create_response_from_fd (sendfile)
 *
 * It ignores method and path. Same libmicrohttpd set-up as espressomartini: internal polling thread
 * + epoll, a thread pool of one thread per online CPU, 16 KiB of memory per connection. Listens on
 * 127.0.0.1 only; stops on SIGTERM or SIGINT. Built by bench/run.sh with:
 * gcc -O2 -o ceiling ceiling.c -lmicrohttpd
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ceiling_daemon.h"

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

  struct sockaddr_in address = loopback_address(port);
  sigset_t stop_signals = block_stop_signals();
  struct MHD_Daemon *daemon = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL, (uint16_t)port, NULL,
                                               NULL, answer, NULL, CEILING_DAEMON_OPTIONS(address), MHD_OPTION_END);
  if (daemon == NULL) {
    fprintf(stderr, "ceiling: cannot listen on 127.0.0.1:%d (port busy?)\n", port);
    return 69;
  }
  int received;
  sigwait(&stop_signals, &received);
  MHD_stop_daemon(daemon);
  MHD_destroy_response(json_response);
  return 0;
}
