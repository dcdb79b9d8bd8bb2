/* Many slow clients at once, for the streams and slow-links rows of `make bench` (bench/README.md).
 *
 *   slow_clients events PORT PATH STREAMS EVENTS INTERVAL_MS PROBE_PATH PID
 *     opens STREAMS connections at once, each asking GET PATH (a Server-Sent Events stream of EVENTS
 *     events, each INTERVAL_MS after the previous one); notes how late each event arrives against when it
 *     was due, (i + 1) * INTERVAL_MS after its stream started, and how long each stream took to start (its
 *     headers' arrival); meanwhile asks GET PROBE_PATH again and again on one more connection, to see that
 *     other requests are answered. The server starts a stream's schedule when it queues its headers, which
 *     the client cannot see: an event is never sent early, so the start is taken as the earliest arrival
 *     less its due offset (and not before the request was sent), which holds unless every event of a
 *     stream is late alike.
 *   slow_clients downloads PORT PATH COUNT PID
 *     opens COUNT connections at once, each downloading PATH whole (its Content-Length), and notes how long
 *     each took.
 *
 * Both sample the server's threads (/proc/PID/task) and resident memory (VmRSS) every 20 ms, and print one
 * JSON object. One thread, epoll, no allocation per event: on a 2-CPU machine the client must not be what
 * makes events late. Connects to 127.0.0.1 only. Built by bench/run.sh with: gcc -O2 -o slow_clients
 * slow_clients.c -lm
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

static void die(const char *what) {
  fprintf(stderr, "slow_clients: %s: %s\n", what, strerror(errno));
  exit(1);
}

static int connect_to(int port) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) die("socket");
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port)};
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0 && errno != EINPROGRESS) die("connect");
  return fd;
}

/* Sends a whole small request on a socket that may not be connected yet: waits (bounded) until it is. */
static void send_request(int fd, const char *path) {
  char request[1024];
  int length = snprintf(request, sizeof request, "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", path);
  int sent = 0;
  double deadline = now() + 10;
  while (sent < length) {
    ssize_t n = send(fd, request + sent, length - sent, MSG_NOSIGNAL);
    if (n > 0) { sent += n; continue; }
    if (n < 0 && (errno == EAGAIN || errno == ENOTCONN || errno == EINPROGRESS) && now() < deadline) { usleep(200); continue; }
    die("send");
  }
}

/* The server's threads and resident memory, their highest so far. */
static int server_pid, threads_max, threads_idle;
static long rss_max_kib, rss_idle_kib;

static int count_threads(void) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/task", server_pid);
  DIR *folder = opendir(path);
  if (!folder) return -1;
  int count = 0;
  struct dirent *entry;
  while ((entry = readdir(folder))) if (entry->d_name[0] != '.') count++;
  closedir(folder);
  return count;
}

static long resident_kib(void) {
  char path[64], line[256];
  snprintf(path, sizeof path, "/proc/%d/status", server_pid);
  FILE *status = fopen(path, "r");
  if (!status) return -1;
  long kib = -1;
  while (fgets(line, sizeof line, status)) if (sscanf(line, "VmRSS: %ld", &kib) == 1) break;
  fclose(status);
  return kib;
}

static void sample(void) {
  int threads = count_threads();
  long rss = resident_kib();
  if (threads > threads_max) threads_max = threads;
  if (rss > rss_max_kib) rss_max_kib = rss;
}

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double percentile(double *values, int count, double p) {
  if (count == 0) return -1;
  qsort(values, count, sizeof *values, compare_doubles);
  int index = (int)(p * (count - 1) + 0.5);
  return values[index];
}

/* One client connection. */
struct client {
  int fd;
  int is_probe;
  double started;       /* request sent */
  double headers_at;    /* 0 until the headers are in */
  int head_match;       /* bytes of "\r\n\r\n" matched so far */
  char last;            /* the previous body byte, to find "\n\n" split across reads */
  int events;
  long long body, expected; /* downloads: body bytes so far, Content-Length (-1 unknown) */
  char head[2048];
  int head_length;
  int done;
  double first_event;
};

static char buffer[256 * 1024];

/* Reads the headers byte by byte into c->head until the blank line; returns the offset in `data` where the
 * body starts, or -1 while the headers are not complete. */
static int take_headers(struct client *c, const char *data, int length) {
  static const char end[] = "\r\n\r\n";
  for (int i = 0; i < length; i++) {
    if (c->head_length < (int)sizeof c->head - 1) c->head[c->head_length++] = data[i];
    c->head_match = data[i] == end[c->head_match] ? c->head_match + 1 : (data[i] == '\r' ? 1 : 0);
    if (c->head_match == 4) {
      c->head[c->head_length] = 0;
      c->headers_at = now();
      return i + 1;
    }
  }
  return -1;
}

static long long content_length(const char *head) {
  const char *line = strcasestr(head, "\r\ncontent-length:");
  return line ? atoll(line + 17) : -1;
}

static int events_mode(int argc, char **argv) {
  if (argc != 9) return 64;
  int port = atoi(argv[2]), streams = atoi(argv[4]), per_stream = atoi(argv[5]);
  double interval = atof(argv[6]) / 1000;
  const char *path = argv[3], *probe_path = argv[7];
  server_pid = atoi(argv[8]);
  threads_idle = count_threads();
  rss_idle_kib = resident_kib();
  int poll = epoll_create1(EPOLL_CLOEXEC);
  struct client *clients = calloc(streams + 1, sizeof *clients);
  double *lateness = malloc(sizeof(double) * streams * per_stream);
  double *arrivals = malloc(sizeof(double) * streams * per_stream);
  double *first_byte = malloc(sizeof(double) * streams);
  int first_count = 0;
  double *probe_times = malloc(sizeof(double) * 1000000);
  int late_count = 0, probe_count = 0, probe_errors = 0, complete = 0;
  for (int i = 0; i <= streams; i++) {
    struct client *c = &clients[i];
    c->is_probe = i == streams;
    c->fd = connect_to(port);
    struct epoll_event event = {.events = EPOLLOUT, .data.ptr = c};
    epoll_ctl(poll, EPOLL_CTL_ADD, c->fd, &event);
  }
  double deadline = now() + per_stream * interval + 15, next_sample = 0;
  struct epoll_event ready[256];
  while (complete < streams && now() < deadline) {
    if (now() >= next_sample) { sample(); next_sample = now() + 0.02; }
    int count = epoll_wait(poll, ready, 256, 10);
    for (int k = 0; k < count; k++) {
      struct client *c = ready[k].data.ptr;
      if (!c->started) { /* connected: ask, then wait for the answer */
        c->started = now();
        send_request(c->fd, c->is_probe ? probe_path : path);
        struct epoll_event event = {.events = EPOLLIN, .data.ptr = c};
        epoll_ctl(poll, EPOLL_CTL_MOD, c->fd, &event);
        continue;
      }
      ssize_t n = recv(c->fd, buffer, sizeof buffer, 0);
      if (n <= 0) {
        if (n < 0 && errno == EAGAIN) continue;
        epoll_ctl(poll, EPOLL_CTL_DEL, c->fd, NULL);
        close(c->fd);
        if (c->is_probe) probe_errors++;
        else if (!c->done) { c->done = 1; complete++; }
        continue;
      }
      int offset = 0;
      if (!c->headers_at) {
        offset = take_headers(c, buffer, (int)n);
        if (offset < 0) continue;
        if (c->is_probe) c->expected = content_length(c->head);
        else first_byte[first_count++] = c->headers_at - c->started;
      }
      if (c->is_probe) {
        c->body += n - offset;
        if (c->expected >= 0 && c->body >= c->expected) {
          if (strncmp(c->head, "HTTP/1.1 200", 12) != 0) probe_errors++;
          probe_times[probe_count < 999999 ? probe_count++ : probe_count] = now() - c->started;
          memset(&c->head_match, 0, sizeof *c - offsetof(struct client, head_match));
          c->headers_at = 0;
          c->started = now();
          send_request(c->fd, probe_path);
        }
        continue;
      }
      for (ssize_t i = offset; i < n; i++) {
        if (buffer[i] == '\n' && c->last == '\n' && c->events < per_stream) {
          arrivals[(c - clients) * per_stream + c->events] = now();
          c->events++;
        }
        c->last = buffer[i];
      }
      if (c->events == per_stream && !c->done) {
        c->done = 1;
        complete++;
        epoll_ctl(poll, EPOLL_CTL_DEL, c->fd, NULL);
        close(c->fd);
      }
    }
  }
  sample();
  double probes[3] = {percentile(probe_times, probe_count, 0.5), percentile(probe_times, probe_count, 0.99),
                      probe_count ? probe_times[probe_count - 1] : -1};
  /* When each stream started, as the server counts: an event is never sent before it is due, so the start
   * is at most the earliest arrival less its due offset; and not before the request was sent. */
  for (int i = 0; i < streams; i++) {
    struct client *c = &clients[i];
    if (c->events == 0) continue;
    double start = 1e300;
    for (int e = 0; e < c->events; e++) {
      double candidate = arrivals[i * per_stream + e] - (e + 1) * interval;
      if (candidate < start) start = candidate;
    }
    if (start < c->started) start = c->started;
    for (int e = 0; e < c->events; e++) lateness[late_count++] = arrivals[i * per_stream + e] - (start + (e + 1) * interval);
  }
  double late[3] = {percentile(lateness, late_count, 0.5), percentile(lateness, late_count, 0.99),
                    late_count ? lateness[late_count - 1] : -1};
  double first[2] = {percentile(first_byte, first_count, 0.5), percentile(first_byte, first_count, 0.99)};
  printf("{\"streams\":%d,\"complete\":%d,\"events\":%d,\"expected\":%d,"
         "\"late_p50_ms\":%.3f,\"late_p99_ms\":%.3f,\"late_max_ms\":%.3f,\"first_byte_p50_ms\":%.3f,\"first_byte_p99_ms\":%.3f,"
         "\"threads_idle\":%d,\"threads_max\":%d,\"rss_idle_kib\":%ld,\"rss_max_kib\":%ld,"
         "\"probe_requests\":%d,\"probe_errors\":%d,\"probe_p50_ms\":%.3f,\"probe_p99_ms\":%.3f,\"probe_max_ms\":%.3f}\n",
         streams, complete, late_count, streams * per_stream, late[0] * 1000, late[1] * 1000, late[2] * 1000, first[0] * 1000, first[1] * 1000,
         threads_idle, threads_max, rss_idle_kib, rss_max_kib, probe_count, probe_errors,
         probes[0] * 1000, probes[1] * 1000, probes[2] * 1000);
  return complete == streams && late_count == streams * per_stream ? 0 : 1;
}

static int downloads_mode(int argc, char **argv) {
  if (argc != 6) return 64;
  int port = atoi(argv[2]), total = atoi(argv[4]);
  const char *path = argv[3];
  server_pid = atoi(argv[5]);
  threads_idle = count_threads();
  rss_idle_kib = resident_kib();
  int poll = epoll_create1(EPOLL_CLOEXEC);
  struct client *clients = calloc(total, sizeof *clients);
  double *seconds = malloc(sizeof(double) * total);
  int complete = 0, finished = 0;
  long long bytes = 0;
  for (int i = 0; i < total; i++) {
    clients[i].fd = connect_to(port);
    clients[i].expected = -1;
    struct epoll_event event = {.events = EPOLLOUT, .data.ptr = &clients[i]};
    epoll_ctl(poll, EPOLL_CTL_ADD, clients[i].fd, &event);
  }
  double deadline = now() + 120, next_sample = 0;
  struct epoll_event ready[256];
  while (finished < total && now() < deadline) {
    if (now() >= next_sample) { sample(); next_sample = now() + 0.02; }
    int count = epoll_wait(poll, ready, 256, 10);
    for (int k = 0; k < count; k++) {
      struct client *c = ready[k].data.ptr;
      if (!c->started) { /* connected: ask, then wait for the answer */
        c->started = now();
        send_request(c->fd, path);
        struct epoll_event event = {.events = EPOLLIN, .data.ptr = c};
        epoll_ctl(poll, EPOLL_CTL_MOD, c->fd, &event);
        continue;
      }
      ssize_t n = recv(c->fd, buffer, sizeof buffer, 0);
      if (n < 0 && errno == EAGAIN) continue;
      int offset = 0;
      if (n > 0 && !c->headers_at) {
        offset = take_headers(c, buffer, (int)n);
        if (offset < 0) continue;
        c->expected = content_length(c->head);
      }
      if (n > 0) { c->body += n - offset; bytes += n - offset; }
      if (n <= 0 || (c->expected >= 0 && c->body >= c->expected)) {
        if (c->expected >= 0 && c->body == c->expected) seconds[complete++] = now() - c->started;
        finished++;
        epoll_ctl(poll, EPOLL_CTL_DEL, c->fd, NULL);
        close(c->fd);
      }
    }
  }
  sample();
  double median = percentile(seconds, complete, 0.5);
  printf("{\"downloads\":%d,\"complete\":%d,\"bytes\":%lld,\"seconds_min\":%.3f,\"seconds_p50\":%.3f,\"seconds_max\":%.3f,"
         "\"threads_idle\":%d,\"threads_max\":%d,\"rss_idle_kib\":%ld,\"rss_max_kib\":%ld}\n",
         total, complete, bytes, complete ? seconds[0] : -1, median, complete ? seconds[complete - 1] : -1,
         threads_idle, threads_max, rss_idle_kib, rss_max_kib);
  return complete == total ? 0 : 1;
}

int main(int argc, char **argv) {
  struct rlimit limit;
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0) { limit.rlim_cur = limit.rlim_max; setrlimit(RLIMIT_NOFILE, &limit); }
  int status = 64;
  if (argc > 1 && strcmp(argv[1], "events") == 0) status = events_mode(argc, argv);
  if (argc > 1 && strcmp(argv[1], "downloads") == 0) status = downloads_mode(argc, argv);
  if (status == 64) fprintf(stderr, "usage: slow_clients events PORT PATH STREAMS EVENTS INTERVAL_MS PROBE_PATH PID\n"
                                    "       slow_clients downloads PORT PATH COUNT PID\n");
  return status;
}
