#ifndef ESPRESSOMARTINI_CSYSTEMD_SHIM_H
#define ESPRESSOMARTINI_CSYSTEMD_SHIM_H
#include <systemd/sd-daemon.h>
#endif
