/* The file system's pace for recording: what `record` writes for each new exchange, from a C loop with
 * nothing else to do, so that the recording row can be read against what the disk allows.
 *
 *   files_floor DIR N    writes N exchanges under DIR (made if missing) and prints
 *                        "EXCHANGES_PER_SECOND CPU_MICROSECONDS_PER_EXCHANGE" (user and system time)
 *
 * Per exchange, the system calls espressomartini's recorder makes for a new exchange whose body it holds in
 * memory (strace of `record`): a look for the method folder, the route's folder made and opened, the method
 * folder made under a hidden name in it, the body and configuration.json written in that, then the method
 * folder renamed into place, each of these last through the route folder's descriptor.
 * Built by bench/run.sh with: gcc -O2 -o files_floor files_floor.c
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int write_file(int folder, const char *path, const char *bytes) {
  int fd = openat(folder, path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
  if (fd < 0) return -1;
  size_t size = strlen(bytes);
  int ok = write(fd, bytes, size) == (ssize_t)size;
  return close(fd) == 0 && ok ? 0 : -1;
}

// Whether the path fits in its 4096 bytes.
#define format(buffer, ...) (snprintf(buffer, sizeof buffer, __VA_ARGS__) < (int)sizeof buffer)

int main(int argc, char **argv) {
  if (argc != 3 || atoi(argv[2]) <= 0) {
    fprintf(stderr, "usage: files_floor DIR N\n");
    return 64;
  }
  const char *root = argv[1];
  int count = atoi(argv[2]);
  static const char body[] = "{\"id\":1,\"name\":\"espresso\",\"message\":\"hello from the ceiling\",\"ok\":true,\"items\":[1,2,3]}";
  static const char configuration[] =
      "{\n  \"responses\": [\n    {\n      \"status\": 200,\n      \"headers\": {\n        \"Content-Type\": "
      "\"application/json\"\n      },\n      \"response_file\": \"response-1.json\"\n    }\n  ]\n}\n";
  char route[4096], hidden[4096], path[4096], method[4096];
  if (mkdir(root, 0755) != 0 && access(root, W_OK) != 0) {
    perror(root);
    return 73;
  }
  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (int i = 0; i < count; i++) {
    if (!format(route, "%s/new-%d", root, i) || !format(method, "%s/GET", route) || !format(hidden, ".GET-%d", i)) goto failed;
    struct stat info;
    if (stat(method, &info) == 0 || mkdir(route, 0755) != 0) goto failed;
    int folder = open(route, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (folder < 0 || mkdirat(folder, hidden, 0755) != 0) goto failed;
    if (!format(path, "%s/response-1.json", hidden) || write_file(folder, path, body) != 0) goto failed;
    if (!format(path, "%s/configuration.json", hidden) || write_file(folder, path, configuration) != 0) goto failed;
    if (renameat(folder, hidden, folder, "GET") != 0 || close(folder) != 0) goto failed;
  }
  clock_gettime(CLOCK_MONOTONIC, &end);
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  double cpu = usage.ru_utime.tv_sec + usage.ru_stime.tv_sec + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
  printf("%.0f %.1f\n", count / ((end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9), cpu * 1e6 / count);
  return 0;
failed:
  perror("files_floor");
  return 74;
}
