#include "CZlib.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <zlib.h>

struct ctfo_inflate {
  z_stream z;
};

ctfo_inflate *ctfo_inflate_new(void) {
  ctfo_inflate *stream = calloc(1, sizeof *stream);
  if (stream == NULL) return NULL;
  // 16 + the largest window: a gzip wrapper only, not zlib's own or raw deflate.
  if (inflateInit2(&stream->z, 16 + MAX_WBITS) != Z_OK) {
    free(stream);
    return NULL;
  }
  return stream;
}

int ctfo_inflate_step(ctfo_inflate *stream, const void *input, size_t input_size,
                      size_t *consumed, void *output, size_t output_size, size_t *produced,
                      char *error, size_t error_size) {
  // zlib counts in uInt: larger buffers are taken a part at a time.
  uInt in_size = input_size > UINT_MAX ? UINT_MAX : (uInt)input_size;
  uInt out_size = output_size > UINT_MAX ? UINT_MAX : (uInt)output_size;
  stream->z.next_in = (Bytef *)input;
  stream->z.avail_in = in_size;
  stream->z.next_out = output;
  stream->z.avail_out = out_size;
  int status = inflate(&stream->z, Z_NO_FLUSH);
  *consumed = in_size - stream->z.avail_in;
  *produced = out_size - stream->z.avail_out;
  switch (status) {
  case Z_STREAM_END:
    return 1;
  case Z_OK:
  case Z_BUF_ERROR:  // no progress possible: it needs more input or more room
    return 0;
  case Z_MEM_ERROR:
    snprintf(error, error_size, "out of memory");
    return -1;
  default:
    snprintf(error, error_size, "%s",
             stream->z.msg != NULL ? stream->z.msg : "not a gzip stream");
    return -1;
  }
}

void ctfo_inflate_free(ctfo_inflate *stream) {
  if (stream == NULL) return;
  inflateEnd(&stream->z);
  free(stream);
}

unsigned long ctfo_crc32(unsigned long crc, const void *bytes, size_t size) {
  return crc32_z(crc, bytes, size);
}

unsigned long ctfo_crc32_combine(unsigned long first, unsigned long second, size_t second_size) {
  return crc32_combine(first, second, (z_off_t)second_size);
}
