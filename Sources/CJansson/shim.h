#ifndef ESPRESSOMARTINI_CJANSSON_SHIM_H
#define ESPRESSOMARTINI_CJANSSON_SHIM_H
#include <jansson.h>

#if JANSSON_VERSION_HEX < 0x020b00
#error "espressomartini needs jansson 2.11 or newer (json_error_code)"
#endif

// jansson's type tests and some accessors are macros, which Swift cannot import.
static inline json_type em_json_typeof(const json_t *json) { return json_typeof(json); }
static inline int em_json_error_code(const json_error_t *error) { return (int)json_error_code(error); }
#endif
