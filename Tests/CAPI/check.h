/* The checks the C tests share: CHECK(cond, printf-style message) counts a check and prints a failure
 * with its line and the library's last error; each test exits 1 when `failures` is not 0. */
#ifndef SOUNDSTATION_TEST_CHECK_H
#define SOUNDSTATION_TEST_CHECK_H

#include <soundstation.h>
#include <stdio.h>

static int failures = 0;
static int checks = 0;

#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        checks++;                                                          \
        if (!(cond)) {                                                     \
            failures++;                                                    \
            printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);         \
            printf(__VA_ARGS__);                                           \
            printf(" (last error: %s)\n", ss_last_error());                \
        }                                                                  \
    } while (0)

#endif
