// gzip with zlib (zlib1g-dev, linked statically into `ctfo`): the HTTP client's streaming
// inflate, and the CRC-32 the server's gzip pulls join from parts. zlib's own header stays in
// zlib.c: its init macros cannot be called from Swift.
#ifndef CTFO_CZLIB_H
#define CTFO_CZLIB_H

#include <stddef.h>

typedef struct ctfo_inflate ctfo_inflate;

/// A gzip stream to inflate (RFC 1952: a header, deflate data, a CRC-32 and the length);
/// NULL when out of memory.
ctfo_inflate *ctfo_inflate_new(void);

/// Inflates from `input` into `output`: `*consumed` and `*produced` say how many bytes of each
/// were used. 1 when the stream has ended (its trailer checked), 0 when it needs more input or
/// more room, -1 when the data is not gzip or is corrupt, with a message in `error`.
int ctfo_inflate_step(ctfo_inflate *stream, const void *input, size_t input_size,
                      size_t *consumed, void *output, size_t output_size, size_t *produced,
                      char *error, size_t error_size);

/// Frees the stream.
void ctfo_inflate_free(ctfo_inflate *stream);

/// The CRC-32 (gzip's) of `size` bytes, continuing from `crc` (0 to start).
unsigned long ctfo_crc32(unsigned long crc, const void *bytes, size_t size);

/// The CRC-32 of two runs of bytes one after the other, from each one's CRC-32 and the
/// length of the second.
unsigned long ctfo_crc32_combine(unsigned long first, unsigned long second, size_t second_size);

#endif
