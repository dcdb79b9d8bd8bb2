#ifndef ESPRESSOMARTINI_CGNUTLS_SHIM_H
#define ESPRESSOMARTINI_CGNUTLS_SHIM_H
// GnuTLS, which libmicrohttpd already uses for HTTPS: espressomartini reads the certificate and key
// with it and hands them to each handshake, so that a renewed certificate is picked up without a restart.
#include <gnutls/gnutls.h>
#include <gnutls/abstract.h>
#include <gnutls/x509.h>
#endif
