#ifndef ESPRESSOMARTINI_CEPOLL_SHIM_H
#define ESPRESSOMARTINI_CEPOLL_SHIM_H
// Linux's epoll, eventfd and accept4, which the Swift Glibc module leaves out: part of libc, nothing to link.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>

// Declared by <sys/socket.h> only under _GNU_SOURCE, which the Glibc module is built without.
extern int accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);
#endif
