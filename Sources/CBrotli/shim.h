#ifndef ESPRESSOMARTINI_CBROTLI_SHIM_H
#define ESPRESSOMARTINI_CBROTLI_SHIM_H
// Brotli's decoder types (Debian's libbrotli-dev), and nothing to link: espressomartini loads
// libbrotlidec.so.1 with dlopen the first time it records a `br` answer (EspressoMartiniServer/Brotli.swift).
#include <brotli/decode.h>

typedef BrotliDecoderState *(*EMBrotliDecoderCreateInstance)(brotli_alloc_func alloc, brotli_free_func free, void *opaque);
typedef BrotliDecoderResult (*EMBrotliDecoderDecompressStream)(BrotliDecoderState *state, size_t *availableIn, const uint8_t **nextIn,
                                                              size_t *availableOut, uint8_t **nextOut, size_t *totalOut);
typedef void (*EMBrotliDecoderDestroyInstance)(BrotliDecoderState *state);
#endif
