#include <stdio.h>

#include "fuzz_driver.h"

// A build without `-sanitize=fuzzer` (`swift test` builds every product) links this entry and
// refuses to run. SwiftPM links a debug executable with `main` set to `<module>_main`, which
// Swift code without top-level statements never defines: this is it. Under `make fuzz`
// libFuzzer's own main takes the place of the weak `main` below.
int ctfo_fuzz_main(void) {
  fputs("ctfo-fuzz: built without libFuzzer; run it with `make fuzz`\n", stderr);
  return 2;
}

__attribute__((weak, alias("ctfo_fuzz_main"))) int main(void);
