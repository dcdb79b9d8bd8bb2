#ifndef ESPRESSOMARTINI_CFUZZERDRIVER_H
#define ESPRESSOMARTINI_CFUZZERDRIVER_H
#include <stddef.h>
#include <stdint.h>

// libFuzzer's entry point for programs that keep their own `main` (LLVM 11 and newer): it parses the
// libFuzzer flags in argv and runs `callback` on every input. Defined by the fuzzer runtime that
// `-sanitize=fuzzer` links in; a program built without it must not call it.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
