#ifndef ESPRESSOMARTINI_CEPOLL_SHIM_H
#define ESPRESSOMARTINI_CEPOLL_SHIM_H
// Linux's epoll and eventfd, which the Swift Glibc module leaves out: part of libc, nothing to link.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#endif
