#include <stdio.h>

#include "fuzz_driver.h"

// libFuzzer brings its own main, which takes the place of this weak one. A build without
// `-sanitize=fuzzer` (`swift test` builds every product) links with this one and refuses to run.
__attribute__((weak)) int main(void) {
  fputs("ctfo-fuzz: built without libFuzzer; run it with `make fuzz`\n", stderr);
  return 2;
}
