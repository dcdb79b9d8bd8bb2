#ifndef ESPRESSOMARTINI_CZLIB_SHIM_H
#define ESPRESSOMARTINI_CZLIB_SHIM_H
// zlib's types (Debian's zlib1g-dev), and nothing to link: espressomartini loads libz.so.1 with dlopen the
// first time it records a gzip or deflate answer (EspressoMartiniServer/Zlib.swift).
#include <zlib.h>

typedef int (*EMInflateInit2)(z_streamp stream, int windowBits, const char *version, int streamSize);
typedef int (*EMInflate)(z_streamp stream, int flush);
typedef int (*EMInflateReset2)(z_streamp stream, int windowBits);
typedef int (*EMInflateEnd)(z_streamp stream);

// What inflateInit2 (a macro) passes: the header's version and the stream's size, for the library to check.
static inline int em_inflate_init2(EMInflateInit2 init, z_streamp stream, int windowBits) {
    return init(stream, windowBits, ZLIB_VERSION, (int)sizeof(z_stream));
}
#endif
