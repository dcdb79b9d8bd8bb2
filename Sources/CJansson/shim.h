#ifndef ESPRESSOMARTINI_CJANSSON_SHIM_H
#define ESPRESSOMARTINI_CJANSSON_SHIM_H
#include <jansson.h>

#if JANSSON_VERSION_HEX < 0x020700
#error "espressomartini needs jansson 2.7 or newer (json_string_length)"
#endif

// jansson's json_typeof is a macro, which Swift cannot import.
static inline json_type em_json_typeof(const json_t *json) { return json_typeof(json); }
#endif
