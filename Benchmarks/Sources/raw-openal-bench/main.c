/* raw-openal-bench: the floor for each SoundStation benchmark, written directly on OpenAL Soft,
   libvorbisfile and libvorbisenc. Usage:
     raw-openal-bench all --work DIR [--runs N]      every in-process case, one JSON line each
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
    if (!only || strstr(only, "preload")) {
        raw_case_preload(preload, "preload", runs);
        raw_case_preload(streamed, "preload-music-streamed", runs);
    }
    if (!only || strstr(only, "trigger")) raw_case_trigger(sound, runs);
    if (!only || strstr(only, "mix")) raw_case_mix(runs);
    if (!only || strstr(only, "encode")) raw_case_encode(speech, encoded, runs);
    if (!only || strstr(only, "latency")) raw_case_latency(runs);
    free(encoded);
    free(speech);
    free(sound);
    free(streamed);
    free(preload);
    return 0;
}
