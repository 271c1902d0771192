#ifndef CTFO_FUZZ_DRIVER_H
#define CTFO_FUZZ_DRIVER_H

// Nothing to import: driver.c only gives `ctfo-fuzz` a main for builds without libFuzzer.

#endif
