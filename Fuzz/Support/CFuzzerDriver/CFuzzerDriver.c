// Nothing to compile: the module only exists for include/CFuzzerDriver.h, whose function libFuzzer defines.
#include "CFuzzerDriver.h"
