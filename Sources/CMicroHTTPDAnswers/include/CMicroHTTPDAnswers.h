#ifndef ESPRESSOMARTINI_CMICROHTTPDANSWERS_H
#define ESPRESSOMARTINI_CMICROHTTPDANSWERS_H
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

// libmicrohttpd answers some requests itself, before any handler sees them (a request line or headers too
// large for the connection's memory, a malformed request line, Content-Length or chunk, an HTTP version it
// does not serve), with HTML pages of its own and no Content-Type; no option of 0.9.75 (or 1.0) changes
// them. It queues them through its own exported MHD_queue_response, which this module defines in the
// executable in its place (the library calls it through its PLT). That definition asks `answer`, set once,
// to queue the server's own answer instead: `answer` returns MHD_YES or MHD_NO as it queued it, or -1 to
// let the library's page go.
typedef int (*em_library_answer_function)(struct MHD_Connection *connection, unsigned int status);

void em_set_library_answer(em_library_answer_function answer);

// libmicrohttpd's own MHD_queue_response: every answer of the server goes through this, never through the
// name MHD_queue_response, which is the library's errors' way in.
enum MHD_Result em_queue_response(struct MHD_Connection *connection, unsigned int status, struct MHD_Response *response);

#endif
