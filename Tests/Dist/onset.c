/* A C game in a clean Debian root (Scripts/dist-test.sh): built with `pkg-config --cflags --libs
 * soundstation` against libsoundstation-dev, it renders the reward effect offline and checks that it
 * starts at its exact frame, and that a bad name is refused with a message naming it.
 * Usage: onset ASSETS_DIR */
#include <math.h>
#include <soundstation.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RATE 48000

static long first_sound(const float *samples, long frames) {
    for (long i = 0; i < frames; i++)
        if (samples[2 * i] != 0.0f || samples[2 * i + 1] != 0.0f) return i;
    return -1;
}

/* The first sounding frame of reward played at `at` seconds, in one second rendered offline. */
static long onset(const char *assets, double at) {
    ss_engine *engine;
    if (ss_open(&engine, "offline:48000", assets) != SS_OK) {
        printf("FAIL open: %s\n", ss_last_error());
        exit(1);
    }
    const char *names[] = {"reward"};
    if (ss_preload(engine, names, 1, NULL, NULL) != SS_OK) {
        printf("FAIL preload: %s\n", ss_last_error());
        exit(1);
    }
    if (ss_play_at(engine, ss_sound_id(engine, "reward"), at, 1.0f, 0.0f) != SS_OK) {
        printf("FAIL play_at: %s\n", ss_last_error());
        exit(1);
    }
    float *out = calloc(2 * RATE, sizeof *out);
    if (ss_render(engine, out, RATE) != RATE) {
        printf("FAIL render: %s\n", ss_last_error());
        exit(1);
    }
    long first = first_sound(out, RATE);
    free(out);
    ss_close(engine);
    return first;
}

int main(int argc, char **argv) {
    if (argc != 2) return 2;
    long lead = onset(argv[1], 0.0);
    long later = onset(argv[1], 0.25);
    long wanted = lround(0.25 * RATE) + lead;
    printf("C: libsoundstation %d; reward at 0 s sounds from frame %ld, at 0.25 s from frame %ld (wanted %ld)\n",
           ss_version(), lead, later, wanted);
    if (lead < 0 || lead >= 480 || later != wanted) return 1;
    ss_engine *engine;
    if (ss_open(&engine, "offline:48000", argv[1]) != SS_OK) return 1;
    int id = ss_sound_id(engine, "no-such-sound");
    const char *message = ss_last_error();
    printf("C: ss_sound_id(\"no-such-sound\") = %d: %s\n", id, message);
    int named = id < 0 && strstr(message, "no-such-sound") != NULL;
    ss_close(engine);
    return named ? 0 : 1;
}
