#include "CTLS.h"

#include <arpa/inet.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ctfo_tls {
  SSL_CTX *context;
  SSL *ssl;
};

static void describe(const char *what, char *error, size_t error_size) {
  unsigned long code = ERR_get_error();
  char reason[256] = "";
  if (code != 0) ERR_error_string_n(code, reason, sizeof reason);
  ERR_clear_error();
  snprintf(error, error_size, "%s%s%s", what, code != 0 ? ": " : "", reason);
}

static int is_ip_address(const char *host) {
  unsigned char address[16];
  return inet_pton(AF_INET, host, address) == 1 || inet_pton(AF_INET6, host, address) == 1;
}

ctfo_tls *ctfo_tls_new(int fd, const char *host, const char *ca_file, char *error,
                       size_t error_size) {
  ctfo_tls *tls = calloc(1, sizeof *tls);
  if (tls == NULL) {
    snprintf(error, error_size, "out of memory");
    return NULL;
  }
  tls->context = SSL_CTX_new(TLS_client_method());
  if (tls->context == NULL) goto fail;
  SSL_CTX_set_min_proto_version(tls->context, TLS1_2_VERSION);
  SSL_CTX_set_verify(tls->context, SSL_VERIFY_PEER, NULL);
  // A peer that closes the TCP connection without close_notify ends the stream; the HTTP layer
  // checks that it got the length it was promised.
  SSL_CTX_set_options(tls->context, SSL_OP_IGNORE_UNEXPECTED_EOF);
  int loaded = ca_file != NULL ? SSL_CTX_load_verify_locations(tls->context, ca_file, NULL)
                               : SSL_CTX_set_default_verify_paths(tls->context);
  if (loaded != 1) goto fail;
  tls->ssl = SSL_new(tls->context);
  if (tls->ssl == NULL || SSL_set_fd(tls->ssl, fd) != 1) goto fail;
  if (is_ip_address(host)) {
    if (X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(tls->ssl), host) != 1) goto fail;
  } else {
    if (SSL_set_tlsext_host_name(tls->ssl, host) != 1 || SSL_set1_host(tls->ssl, host) != 1)
      goto fail;
  }
  SSL_set_connect_state(tls->ssl);
  return tls;
fail:
  describe("cannot set up TLS", error, error_size);
  ctfo_tls_free(tls);
  return NULL;
}

/// -1 (wait) or -2 (failure, described) for a failed SSL call that returned `result`.
static long failure(ctfo_tls *tls, int result, int *want_write, char *error,
                    size_t error_size) {
  switch (SSL_get_error(tls->ssl, result)) {
    case SSL_ERROR_WANT_READ:
      *want_write = 0;
      return -1;
    case SSL_ERROR_WANT_WRITE:
      *want_write = 1;
      return -1;
    case SSL_ERROR_ZERO_RETURN:
      return 0;
    default: {
      long verify = SSL_get_verify_result(tls->ssl);
      if (verify != X509_V_OK) {
        ERR_clear_error();
        snprintf(error, error_size, "the server's certificate is not trusted: %s",
                 X509_verify_cert_error_string(verify));
      } else {
        describe("TLS failed", error, error_size);
      }
      return -2;
    }
  }
}

int ctfo_tls_handshake(ctfo_tls *tls, int *want_write, char *error, size_t error_size) {
  int result = SSL_do_handshake(tls->ssl);
  if (result == 1) return 1;
  long outcome = failure(tls, result, want_write, error, error_size);
  if (outcome == -1) return 0;
  if (outcome == 0) snprintf(error, error_size, "the server closed the TLS handshake");
  return -1;
}

long ctfo_tls_read(ctfo_tls *tls, void *buffer, size_t size, int *want_write, char *error,
                   size_t error_size) {
  size_t count = 0;
  int result = SSL_read_ex(tls->ssl, buffer, size, &count);
  if (result == 1) return (long)count;
  return failure(tls, result, want_write, error, error_size);
}

long ctfo_tls_write(ctfo_tls *tls, const void *buffer, size_t size, int *want_write,
                    char *error, size_t error_size) {
  size_t count = 0;
  int result = SSL_write_ex(tls->ssl, buffer, size, &count);
  if (result == 1) return (long)count;
  long outcome = failure(tls, result, want_write, error, error_size);
  return outcome == 0 ? -2 : outcome;
}

void ctfo_tls_free(ctfo_tls *tls) {
  if (tls == NULL) return;
  if (tls->ssl != NULL) SSL_free(tls->ssl);
  if (tls->context != NULL) SSL_CTX_free(tls->context);
  free(tls);
}
