#define _POSIX_C_SOURCE 200809L
#include "bench_support.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *program = "bench";

void bench_set_program(const char *name) { program = name; }

double bench_wall_seconds(void) {
    struct timespec now;
    if (clock_gettime(CLOCK_MONOTONIC, &now) != 0)
        bench_die("clock_gettime(CLOCK_MONOTONIC): %s", strerror(errno));
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

double bench_cpu_seconds(void) {
    struct timespec now;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now) != 0)
        bench_die("clock_gettime(CLOCK_PROCESS_CPUTIME_ID): %s", strerror(errno));
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

void bench_die(const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    fprintf(stderr, "%s: ", program);
    vfprintf(stderr, format, arguments);
    fputc('\n', stderr);
    va_end(arguments);
    exit(1);
}

void bench_emit(const char *case_name, const char *peer, const char *unit, const char *label,
                const double *samples, size_t count, const char *note) {
    bench_emit_extra(case_name, peer, unit, label, samples, count, note, NULL, 0);
}

void bench_emit_extra(const char *case_name, const char *peer, const char *unit, const char *label,
                      const double *samples, size_t count, const char *note, const char *extra_key,
                      double extra_value) {
    printf("{\"case\":\"%s\",\"side\":\"peer\",\"peer\":\"%s\",", case_name, peer);
    printf("\"unit\":\"%s\",\"label\":\"%s\",\"samples\":[", unit, label);
    for (size_t i = 0; i < count; i++) printf("%s%.9g", i ? "," : "", samples[i]);
    printf("]");
    if (note) printf(",\"note\":\"%s\"", note);
    if (extra_key) printf(",\"extra\":{\"%s\":%.9g}", extra_key, extra_value);
    printf("}\n");
    fflush(stdout);
}

size_t bench_read_list(const char *path, bench_sound **sounds) {
    FILE *file = fopen(path, "r");
    if (!file) bench_die("cannot open the sound list %s: %s", path, strerror(errno));
    size_t count = 0, capacity = 16;
    bench_sound *list = malloc(capacity * sizeof *list);
    if (!list) bench_die("out of memory reading %s", path);
    char line[4096];
    while (fgets(line, sizeof line, file)) {
        size_t length = strcspn(line, "\r\n");
        line[length] = '\0';
        if (length == 0) continue;
        int decode;
        const char *rest;
        if (strncmp(line, "decode ", 7) == 0) {
            decode = 1;
            rest = line + 7;
        } else if (strncmp(line, "open ", 5) == 0) {
            decode = 0;
            rest = line + 5;
        } else {
            bench_die("%s: a line must start with 'decode ' or 'open ': %s", path, line);
        }
        if (count == capacity) {
            capacity *= 2;
            bench_sound *grown = realloc(list, capacity * sizeof *list);
            if (!grown) bench_die("out of memory reading %s", path);
            list = grown;
        }
        list[count].decode = decode;
        list[count].path = strdup(rest);
        if (!list[count].path) bench_die("out of memory reading %s", path);
        count++;
    }
    if (ferror(file)) bench_die("reading %s failed: %s", path, strerror(errno));
    fclose(file);
    if (count == 0) bench_die("the sound list %s is empty", path);
    *sounds = list;
    return count;
}

void bench_free_list(bench_sound *sounds, size_t count) {
    for (size_t i = 0; i < count; i++) free(sounds[i].path);
    free(sounds);
}

const char *bench_option(int argc, char **argv, const char *name, const char *fallback) {
    for (int i = 1; i + 1 < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1] == '-' && strcmp(argv[i] + 2, name) == 0) return argv[i + 1];
    }
    return fallback;
}

int bench_int_option(int argc, char **argv, const char *name, int fallback) {
    const char *text = bench_option(argc, argv, name, NULL);
    if (!text) return fallback;
    char *end;
    long value = strtol(text, &end, 10);
    if (*end != '\0' || value < 1 || value > 1000000)
        bench_die("--%s needs a positive whole number, not '%s'", name, text);
    return (int)value;
}

char *bench_path(const char *directory, const char *name) {
    size_t length = strlen(directory) + strlen(name) + 2;
    char *joined = malloc(length);
    if (!joined) bench_die("out of memory");
    snprintf(joined, length, "%s/%s", directory, name);
    return joined;
}

int bench_wants(const char *only, const char *name) {
    if (!only) return 1;
    int separate = strcmp(name, "trigger-under-load") == 0 || strcmp(name, "idle-music") == 0;
    const char *token = only;
    while (*token) {
        size_t length = strcspn(token, ",");
        if (length == strlen(name) && strncmp(token, name, length) == 0) return 1;
        if (!separate && length > 0 && strncmp(token, name, length) == 0 && name[length] == '-') return 1;
        token += length;
        if (*token == ',') token++;
    }
    return 0;
}
