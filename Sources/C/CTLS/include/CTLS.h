// TLS for the HTTP module: a client session over a connected, non-blocking socket, with
// OpenSSL (libssl-dev, linked statically into `ctfo`). OpenSSL's own headers stay in tls.c:
// its macros (SSL_set_tlsext_host_name) cannot be called from Swift.
#ifndef CTFO_CTLS_H
#define CTFO_CTLS_H

#include <stddef.h>

typedef struct ctfo_tls ctfo_tls;

/// A client session on `fd` for `host`, verifying the peer against `ca_file` (a PEM bundle) or,
/// when it is NULL, the system's roots; the certificate must name `host` (a DNS name or an IP
/// address). NULL on failure, with a message in `error`.
ctfo_tls *ctfo_tls_new(int fd, const char *host, const char *ca_file, char *error,
                       size_t error_size);

/// Steps the handshake: 1 when done, 0 when it must wait (`*want_write` says for what), -1 on
/// failure with a message in `error`.
int ctfo_tls_handshake(ctfo_tls *tls, int *want_write, char *error, size_t error_size);

/// Reads up to `size` bytes: the count, 0 at the end of the stream, -1 when it must wait
/// (`*want_write` says for what), -2 on failure with a message in `error`.
long ctfo_tls_read(ctfo_tls *tls, void *buffer, size_t size, int *want_write, char *error,
                   size_t error_size);

/// Writes up to `size` bytes: the count written, -1 when it must wait, -2 on failure.
long ctfo_tls_write(ctfo_tls *tls, const void *buffer, size_t size, int *want_write,
                    char *error, size_t error_size);

/// Frees the session (the socket stays open: its owner closes it).
void ctfo_tls_free(ctfo_tls *tls);

#endif
