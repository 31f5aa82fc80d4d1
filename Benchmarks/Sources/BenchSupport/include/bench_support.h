#ifndef SOUNDSTATION_BENCH_SUPPORT_H
#define SOUNDSTATION_BENCH_SUPPORT_H

/* What the C peers share: clocks, fatal errors, the JSON line each case prints, the sound lists
   that Scripts/bench.sh prepares, and the command-line options. */

#include <stddef.h>

/* Monotonic wall-clock time in seconds. */
double bench_wall_seconds(void);

/* CPU time used by the whole process (all threads) in seconds. */
double bench_cpu_seconds(void);

/* Prints "<program>: <message>" to stderr and exits with status 1. */
void bench_die(const char *format, ...) __attribute__((format(printf, 1, 2), noreturn));

/* Sets the program name bench_die prints. */
void bench_set_program(const char *name);

/* Prints one case result as a JSON object on its own line of stdout:
   {"case":..., "side":"peer", "peer":..., "unit":..., "label":..., "samples":[...], "note":...}.
   `note` may be NULL. Strings must not contain quotes or backslashes. */
void bench_emit(const char *case_name, const char *peer, const char *unit, const char *label,
                const double *samples, size_t count, const char *note);

/* bench_emit with one further measured figure, as "extra":{"<extra_key>":<extra_value>} (none when
   `extra_key` is NULL), as the Swift side's CaseReport writes its `extra`. */
void bench_emit_extra(const char *case_name, const char *peer, const char *unit, const char *label,
                      const double *samples, size_t count, const char *note, const char *extra_key,
                      double extra_value);

/* One sound of a list file: "decode PATH" (load it all) or "open PATH" (open it for streaming). */
typedef struct {
    int decode;
    char *path;
} bench_sound;

/* Reads a list file written by `soundstation-bench prepare`; exits with a message on failure.
   Returns the number of sounds and sets *sounds (free with bench_free_list). */
size_t bench_read_list(const char *path, bench_sound **sounds);
void bench_free_list(bench_sound *sounds, size_t count);

/* The value of "--name VALUE" in argv, or `fallback` when absent. */
const char *bench_option(int argc, char **argv, const char *name, const char *fallback);

/* The integer value of "--name N", or `fallback`; exits on a value that is not a positive integer. */
int bench_int_option(int argc, char **argv, const char *name, int fallback);

/* Whether `--only LIST` (NULL: everything) asks for the case `name`: LIST is comma-separated case
   names or groups (`mix` for every `mix-N`). The cases that run for seconds (trigger-under-load,
   idle-music) run only when named in full, as in soundstation-bench. */
int bench_wants(const char *only, const char *name);

/* Joins a directory and a file name into a new string (free it). */
char *bench_path(const char *directory, const char *name);

#endif
