/* raw-openal-bench: the floor for each SoundStation benchmark, written directly on OpenAL Soft,
   libvorbisfile and libvorbisenc. Usage:
     raw-openal-bench all --work DIR [--runs N] [--only CASES] [--load-seconds S] [--idle-seconds S]
                          [--quiet-seconds S]
                                                     every in-process case, one JSON line each
     raw-openal-bench startup --work DIR --out WAV   one start-to-exit run (timed by bench.sh)
   DIR is the workspace `soundstation-bench prepare` made. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "raw.h"

int main(int argc, char **argv) {
    bench_set_program("raw-openal-bench");
    if (argc < 2) bench_die("usage: raw-openal-bench all|startup --work DIR [--runs N] [--out WAV]");
    const char *work = bench_option(argc, argv, "work", NULL);
    if (!work) bench_die("--work DIR is required");
    int runs = bench_int_option(argc, argv, "runs", 5);
    const char *command = argv[1];
    if (strcmp(command, "startup") == 0) {
        char *list = bench_path(work, "demo.list");
        raw_startup(list, bench_option(argc, argv, "out", "/dev/null"));
        free(list);
        return 0;
    }
    if (strcmp(command, "all") != 0) bench_die("unknown command '%s'", command);
    const char *only = bench_option(argc, argv, "only", NULL);
    char *preload = bench_path(work, "preload.list");
    char *streamed = bench_path(work, "streamed.list");
    char *sound = bench_path(work, "trigger/Effects/coin.wav");
    char *speech = bench_path(work, "speech16k.wav");
    char *encoded = bench_path(work, "voice-raw.ogg");
    if (bench_wants(only, "preload")) {
        raw_case_preload(preload, "preload", runs);
        raw_case_preload(streamed, "preload-music-streamed", runs);
    }
    if (bench_wants(only, "trigger") || bench_wants(only, "trigger-drained")) raw_case_trigger(sound, runs);
    if (bench_wants(only, "mix-1")) raw_case_mix(runs);
    raw_case_filter(only, runs);
    if (bench_wants(only, "voice-encode")) raw_case_encode(speech, encoded, runs);
    if (bench_wants(only, "latency-device")) raw_case_latency(runs);
    /* Seconds per run: trigger-under-load 10 (--load-seconds), idle-music 20 (--idle-seconds). */
    if (bench_wants(only, "trigger-under-load"))
        raw_case_trigger_under_load(work, runs, bench_int_option(argc, argv, "load-seconds", 10));
    if (bench_wants(only, "idle-music")) raw_case_idle_music(work, runs, bench_int_option(argc, argv, "idle-seconds", 20));
    /* idle-device and idle-device-active: 10 s per run (--quiet-seconds). */
    int quiet = bench_int_option(argc, argv, "quiet-seconds", 10);
    if (bench_wants(only, "idle-device")) raw_case_idle_device("idle-device", 0, runs, quiet);
    if (bench_wants(only, "idle-device-active")) raw_case_idle_device("idle-device-active", 1, runs, quiet);
    free(encoded);
    free(speech);
    free(sound);
    free(streamed);
    free(preload);
    return 0;
}
