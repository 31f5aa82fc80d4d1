/* ss_close closes the device: after it returns, the sound server holds no stream of this process.
 * A preload runs on worker threads, whose OpenAL calls used to leave the engine's context selected
 * on them; that kept the device (and its sound server stream) open after ss_close, until exit, where
 * OpenAL Soft's own teardown raced the device's backend thread (a LockLists assertion, now and then,
 * at a game's exit). Usage: close_test ASSETS (with PULSE_SERVER set and pactl on PATH). */
#define _POSIX_C_SOURCE 200809L
#include <soundstation.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How many playback streams the sound server has from this program (pactl's "application.name"). */
static int streams_of(const char *program) {
    char command[256];
    snprintf(command, sizeof command,
             "pactl list sink-inputs | grep -c 'application.process.binary = \"%s\"'", program);
    FILE *pipe = popen(command, "r");
    if (!pipe) return -1;
    int count = -1;
    if (fscanf(pipe, "%d", &count) != 1) count = -1;
    pclose(pipe);
    return count;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        printf("usage: close_test ASSETS\n");
        return 2;
    }
    const char *program = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
    int failures = 0;
    for (int round = 1; round <= 3; round++) {
        ss_engine *engine = NULL;
        if (ss_open(&engine, "device", argv[1]) != SS_OK) {
            printf("FAIL open the device: %s\n", ss_last_error());
            return 1;
        }
        /* The whole catalogue: decoded and uploaded on worker threads. */
        if (ss_preload(engine, NULL, 0, NULL, NULL) < 0) printf("note: preload: %s\n", ss_last_error());
        ss_play(engine, ss_sound_id(engine, "reward"), 1, 1, 0);
        ss_music(engine, "main", 0);
        int open_streams = streams_of(program);
        ss_close(engine);
        int left = streams_of(program);
        printf("round %d: %d stream(s) while open, %d after ss_close\n", round, open_streams, left);
        if (open_streams < 1 || left != 0) failures++;
    }
    printf("%s\n", failures ? "FAIL" : "ok");
    return failures ? 1 : 0;
}
