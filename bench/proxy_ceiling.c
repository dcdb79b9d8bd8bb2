/* The forwarding ceiling: the fastest a libmicrohttpd server can forward to an upstream on this machine, the way
 * SPEC §17 has espressomartini forward (the connection suspended, one thread of its own driving every upstream
 * request, the connection resumed with the answer), with nothing else to do.
 *
 *   proxy_ceiling PORT UPSTREAM_PORT    forwards every request without a body to 127.0.0.1:UPSTREAM_PORT
 *
 * Per request: the access handler formats the request (its method, path and query, its headers less the
 * hop-by-hop ones, Host and the X-Forwarded-* headers nginx's proxy and espressomartini add), suspends the
 * connection and queues the request for the upstream thread, waking it only when it may sleep. That thread sends
 * it on a kept-alive connection (made on demand, kept for the next request), reads the answer (its head and a
 * Content-Length body, up to 64 KiB) and resumes the connection; the access handler, called again, answers with
 * the upstream's status, headers (less the hop-by-hop ones and Content-Length) and body, or 502 when the upstream
 * failed.
 * Same libmicrohttpd set-up as espressomartini and bench/ceiling.c: internal polling thread + epoll, a thread
 * pool of one thread per online CPU, 16 KiB of memory per connection. Listens on 127.0.0.1 only; stops on
 * SIGTERM or SIGINT. Built by bench/run.sh with: gcc -O2 -o proxy_ceiling proxy_ceiling.c -lmicrohttpd -lpthread
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ceiling_daemon.h"

#define REQUEST_SIZE 8192
#define ANSWER_SIZE 65536
#define MAX_HEADERS 32

/* One forwarded request, from the access handler's first call to the end of its answer. */
struct job {
  struct MHD_Connection *connection;
  char request[REQUEST_SIZE];
  size_t request_size;
  int done;       /* set by the upstream thread before it resumes the connection */
  int status;     /* 0: the upstream failed */
  char *answer;   /* the upstream's head and body, owned by the job */
  size_t body_offset, body_size;
  size_t header_count;
  char *header_names[MAX_HEADERS], *header_values[MAX_HEADERS];
  struct job *next;
};

/* A kept-alive connection to the upstream, with the job it carries (NULL: idle). */
struct upstream {
  int fd;
  struct job *job;
  char buffer[ANSWER_SIZE];
  size_t filled;
  struct upstream *next_idle;
};

static struct sockaddr_in upstream_address;
static int epoll_fd, wake_fd;
static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static struct job *queue_head, *queue_tail;
static int wake_pending; /* the upstream thread has been woken and has not taken the queue yet */
static struct upstream *idle;

static int hop_by_hop(const char *name) {
  static const char *names[] = {"connection", "keep-alive", "te", "trailer", "upgrade", "transfer-encoding",
                                "proxy-authorization", "proxy-authenticate", "proxy-connection", "host", NULL};
  for (const char **n = names; *n; n++)
    if (strcasecmp(name, *n) == 0) return 1;
  return 0;
}

/* Appends "NAME: VALUE\r\n" for each request header forwarded (one that does not fit in the request is left
 * out); MHD_get_connection_values' iterator. */
static enum MHD_Result add_header(void *cls, enum MHD_ValueKind kind, const char *name, const char *value) {
  (void)kind;
  struct job *job = cls;
  if (hop_by_hop(name)) return MHD_YES;
  int n = snprintf(job->request + job->request_size, REQUEST_SIZE - job->request_size, "%s: %s\r\n", name, value);
  if (n > 0 && (size_t)n < REQUEST_SIZE - job->request_size) job->request_size += (size_t)n;
  return MHD_YES;
}

static void enqueue(struct job *job) {
  pthread_mutex_lock(&queue_lock);
  job->next = NULL;
  if (queue_tail) queue_tail->next = job; else queue_head = job;
  queue_tail = job;
  int wake = !wake_pending;
  wake_pending = 1;
  pthread_mutex_unlock(&queue_lock);
  if (wake) {
    uint64_t one = 1;
    if (write(wake_fd, &one, sizeof one) < 0) perror("proxy_ceiling: eventfd");
  }
}

static void finish(struct upstream *up, int status) {
  struct job *job = up->job;
  up->job = NULL;
  if (status == 0) {
    free(job->answer);
    job->answer = NULL;
  }
  job->status = status;
  __atomic_store_n(&job->done, 1, __ATOMIC_RELEASE);
  MHD_resume_connection(job->connection);
}

/* Closes a connection the upstream closed or failed on: its job, if it carries one, gets 502; an idle one
 * leaves the idle list. */
static void drop(struct upstream *up) {
  epoll_ctl(epoll_fd, EPOLL_CTL_DEL, up->fd, NULL);
  close(up->fd);
  if (up->job) {
    finish(up, 0);
  } else {
    for (struct upstream **link = &idle; *link; link = &(*link)->next_idle)
      if (*link == up) {
        *link = up->next_idle;
        break;
      }
  }
  free(up);
}

/* Whether the upstream's answer in up->buffer is whole; if so, moves it into the job and parses its head. */
static int answer_complete(struct upstream *up) {
  char *end = memmem(up->buffer, up->filled, "\r\n\r\n", 4);
  if (end == NULL) return 0;
  size_t head_size = (size_t)(end - up->buffer) + 4;
  size_t length = 0;
  for (char *line = strstr(up->buffer, "\r\n") + 2; line < end; line = strstr(line, "\r\n") + 2)
    if (strncasecmp(line, "Content-Length:", 15) == 0) length = strtoul(line + 15, NULL, 10);
  if (up->filled < head_size + length) return 0;
  struct job *job = up->job;
  job->answer = malloc(head_size + length + 1);
  memcpy(job->answer, up->buffer, head_size + length);
  job->answer[head_size + length] = '\0';
  job->body_offset = head_size;
  job->body_size = length;
  up->filled -= head_size + length;
  memmove(up->buffer, up->buffer + head_size + length, up->filled);
  /* The head, cut into names and values in place. */
  job->answer[head_size - 2] = '\0';
  char *line = strstr(job->answer, "\r\n");
  *line = '\0';
  int status = atoi(strchr(job->answer, ' ') ? strchr(job->answer, ' ') + 1 : "0");
  job->header_count = 0;
  for (line += 2; *line; ) {
    char *next = strstr(line, "\r\n");
    if (next) { *next = '\0'; next += 2; } else next = line + strlen(line);
    char *colon = strchr(line, ':');
    if (colon && job->header_count < MAX_HEADERS) {
      *colon = '\0';
      char *value = colon + 1;
      while (*value == ' ') value++;
      if (!hop_by_hop(line) && strcasecmp(line, "Content-Length") != 0) {
        job->header_names[job->header_count] = line;
        job->header_values[job->header_count++] = value;
      }
    }
    line = next;
  }
  finish(up, status >= 100 ? status : 0);
  return 1;
}

static void send_job(struct job *job) {
  struct upstream *up = idle;
  if (up) {
    idle = up->next_idle;
  } else {
    up = calloc(1, sizeof *up);
    up->fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    setsockopt(up->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (connect(up->fd, (struct sockaddr *)&upstream_address, sizeof upstream_address) != 0) {
      close(up->fd);
      up->job = job;
      finish(up, 0);
      free(up);
      return;
    }
    struct epoll_event event = {.events = EPOLLIN, .data.ptr = up};
    epoll_ctl(epoll_fd, EPOLL_CTL_ADD, up->fd, &event);
  }
  up->job = job;
  if (send(up->fd, job->request, job->request_size, MSG_NOSIGNAL) != (ssize_t)job->request_size) drop(up);
}

static void *upstream_thread(void *unused) {
  (void)unused;
  struct epoll_event events[64];
  for (;;) {
    int n = epoll_wait(epoll_fd, events, 64, -1);
    for (int i = 0; i < n; i++) {
      if (events[i].data.ptr == NULL) { /* the wake-up: take every queued job */
        uint64_t count;
        if (read(wake_fd, &count, sizeof count) < 0 && errno != EAGAIN) perror("proxy_ceiling: eventfd");
        pthread_mutex_lock(&queue_lock);
        struct job *job = queue_head;
        queue_head = queue_tail = NULL;
        wake_pending = 0;
        pthread_mutex_unlock(&queue_lock);
        while (job) {
          struct job *next = job->next;
          send_job(job);
          job = next;
        }
        continue;
      }
      /* Level-triggered: one read per wake-up, the rest (if any) at the next. */
      struct upstream *up = events[i].data.ptr;
      ssize_t got = recv(up->fd, up->buffer + up->filled, ANSWER_SIZE - up->filled, 0);
      if (got < 0 && (errno == EAGAIN || errno == EINTR)) continue;
      if (got <= 0) {
        drop(up); /* closed or failed */
        continue;
      }
      up->filled += (size_t)got;
      if (up->job == NULL) continue;
      if (answer_complete(up)) {
        up->next_idle = idle;
        idle = up;
      } else if (up->filled == ANSWER_SIZE) {
        drop(up); /* an answer larger than this ceiling reads */
      }
    }
  }
  return NULL;
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                              const char *version, const char *upload_data, size_t *upload_data_size,
                              void **request_context) {
  (void)cls; (void)version; (void)upload_data;
  struct job *job = *request_context;
  if (job == NULL) { /* first call: the headers only */
    job = calloc(1, sizeof *job);
    *request_context = job;
    return MHD_YES;
  }
  if (*upload_data_size != 0) { /* a request body: not forwarded by this ceiling */
    *upload_data_size = 0;
    return MHD_YES;
  }
  if (!__atomic_load_n(&job->done, __ATOMIC_ACQUIRE)) {
    if (job->connection != NULL) return MHD_YES; /* resumed before the answer: not expected */
    job->connection = connection;
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    char client[INET6_ADDRSTRLEN] = "";
    if (info && info->client_addr->sa_family == AF_INET)
      inet_ntop(AF_INET, &((struct sockaddr_in *)info->client_addr)->sin_addr, client, sizeof client);
    const char *host = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "Host");
    int n = snprintf(job->request, REQUEST_SIZE, "%s %s HTTP/1.1\r\nHost: 127.0.0.1:%u\r\n", method, url,
                     (unsigned)ntohs(upstream_address.sin_port));
    job->request_size = (size_t)n;
    MHD_get_connection_values(connection, MHD_HEADER_KIND, add_header, job);
    n = snprintf(job->request + job->request_size, REQUEST_SIZE - job->request_size,
                 "X-Forwarded-For: %s\r\nX-Forwarded-Proto: http\r\nX-Forwarded-Host: %s\r\n\r\n", client, host ? host : "");
    if (n < 0 || (size_t)n >= REQUEST_SIZE - job->request_size) return MHD_NO;
    job->request_size += (size_t)n;
    MHD_suspend_connection(connection);
    enqueue(job);
    return MHD_YES;
  }
  struct MHD_Response *response;
  if (job->status == 0) {
    static const char failed[] = "{\"error\":\"upstream_unavailable\"}";
    response = MHD_create_response_from_buffer(sizeof failed - 1, (void *)failed, MHD_RESPMEM_PERSISTENT);
    MHD_add_response_header(response, "Content-Type", "application/json");
    job->status = MHD_HTTP_BAD_GATEWAY;
  } else {
    response = MHD_create_response_from_buffer(job->body_size, job->answer + job->body_offset, MHD_RESPMEM_MUST_COPY);
    for (size_t i = 0; i < job->header_count; i++)
      MHD_add_response_header(response, job->header_names[i], job->header_values[i]);
  }
  enum MHD_Result queued = MHD_queue_response(connection, (unsigned)job->status, response);
  MHD_destroy_response(response);
  return queued;
}

static void request_ended(void *cls, struct MHD_Connection *connection, void **request_context,
                          enum MHD_RequestTerminationCode code) {
  (void)cls; (void)connection; (void)code;
  struct job *job = *request_context;
  if (job == NULL) return;
  free(job->answer);
  free(job);
  *request_context = NULL;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s PORT UPSTREAM_PORT\n", argv[0]);
    return 2;
  }
  int port = atoi(argv[1]);
  upstream_address = loopback_address(atoi(argv[2]));

  epoll_fd = epoll_create1(EPOLL_CLOEXEC);
  wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  struct epoll_event wake = {.events = EPOLLIN, .data.ptr = NULL};
  if (epoll_fd < 0 || wake_fd < 0 || epoll_ctl(epoll_fd, EPOLL_CTL_ADD, wake_fd, &wake) != 0) {
    perror("proxy_ceiling");
    return 1;
  }

  struct sockaddr_in address = loopback_address(port);
  sigset_t stop_signals = block_stop_signals();
  pthread_t thread;
  if (pthread_create(&thread, NULL, upstream_thread, NULL) != 0) {
    fprintf(stderr, "proxy_ceiling: cannot start the upstream thread\n");
    return 1;
  }
  struct MHD_Daemon *daemon = MHD_start_daemon(
      MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME, (uint16_t)port, NULL, NULL, answer,
      NULL, CEILING_DAEMON_OPTIONS(address), MHD_OPTION_NOTIFY_COMPLETED, request_ended, NULL, MHD_OPTION_END);
  if (daemon == NULL) {
    fprintf(stderr, "proxy_ceiling: cannot listen on 127.0.0.1:%d\n", port);
    return 1;
  }
  int signal_number;
  sigwait(&stop_signals, &signal_number);
  MHD_stop_daemon(daemon);
  return 0;
}
