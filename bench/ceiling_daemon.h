/* What bench/ceiling.c and bench/proxy_ceiling.c share: espressomartini's libmicrohttpd set-up, so that both
 * ceilings pay what espressomartini pays. Include after <microhttpd.h>, <netinet/in.h>, <signal.h> and <unistd.h>.
 */
#ifndef CEILING_DAEMON_H
#define CEILING_DAEMON_H

#include <pthread.h>
#include <string.h>

/* 127.0.0.1:port: the ceilings listen on loopback only. */
static struct sockaddr_in loopback_address(int port) {
  struct sockaddr_in address;
  memset(&address, 0, sizeof address);
  address.sin_family = AF_INET;
  address.sin_port = htons((uint16_t)port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return address;
}

/* SIGTERM and SIGINT blocked in the calling thread, before any other starts, so that every thread inherits the
 * mask and main() takes them with sigwait. */
static sigset_t block_stop_signals(void) {
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, NULL);
  return stop_signals;
}

/* MHD_start_daemon's options after the flags, port and handler, as espressomartini sets them: listening on
 * ADDRESS (a struct sockaddr_in), a thread pool of one thread per online CPU, 4096 connections, 30 s of idle
 * time, and the connection memory espressomartini gives libmicrohttpd (ConnectionMemory.bytes), which zeroes
 * it after every request. More options may follow, then MHD_OPTION_END. */
#define CEILING_DAEMON_OPTIONS(address)                                                                     \
  MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&(address),                                                      \
      MHD_OPTION_THREAD_POOL_SIZE,                                                                          \
      (unsigned int)(sysconf(_SC_NPROCESSORS_ONLN) > 0 ? sysconf(_SC_NPROCESSORS_ONLN) : 1),               \
      MHD_OPTION_CONNECTION_LIMIT, (unsigned int)4096, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)30,     \
      MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(16 * 1024)

#endif
