#define _GNU_SOURCE
#include "CMicroHTTPDAnswers.h"
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

typedef enum MHD_Result (*em_queue_function)(struct MHD_Connection *, unsigned int, struct MHD_Response *);

static em_queue_function library_queue;
static _Atomic(em_library_answer_function) library_answer;

// The library's definition, found once at load: the next object after the executable that defines it.
__attribute__((constructor)) static void em_find_library_queue(void) {
    library_queue = (em_queue_function)dlsym(RTLD_NEXT, "MHD_queue_response");
    if (library_queue == NULL) {
        fprintf(stderr, "espressomartini: libmicrohttpd's MHD_queue_response cannot be found: %s\n", dlerror());
        abort();
    }
}

void em_set_library_answer(em_library_answer_function answer) {
    atomic_store(&library_answer, answer);
}

enum MHD_Result em_queue_response(struct MHD_Connection *connection, unsigned int status, struct MHD_Response *response) {
    return library_queue(connection, status, response);
}

enum MHD_Result MHD_queue_response(struct MHD_Connection *connection, unsigned int status, struct MHD_Response *response) {
    em_library_answer_function answer = atomic_load(&library_answer);
    int queued = answer != NULL ? answer(connection, status) : -1;
    if (queued < 0) {
        return library_queue(connection, status, response);
    }
    return queued == MHD_YES ? MHD_YES : MHD_NO;
}
