/* A device lost and regained while music plays (Scripts/e2e-quiet.sh stops the private sound server
 * for about 2 s and starts it again): the music resumes where it stopped, so its position after the
 * restore must not have run ahead by the outage, and the music sends one SS_EVENT_STARTED in all (the
 * restore is SS_EVENT_DEVICE_RESTORED, not a second start). Prints what it measured.
 * LOSS_TEST_EVENTS=1 prints every event. Usage: loss_test ASSETS_DIR. Exit 1 when a check fails, 2 when
 * no loss and restore were seen. */
#define _POSIX_C_SOURCE 200809L
#include <soundstation.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double beats(const ss_musical_position *p, int per_bar) {
    return (p->bar - 1) * per_bar + (p->beat - 1) + p->fraction;
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    ss_engine *engine = NULL;
    if (ss_open(&engine, "device", argv[1]) != SS_OK) {
        printf("loss_test: open: %s\n", ss_last_error());
        return 1;
    }
    const char *main_track[] = {"main"};
    if (ss_preload(engine, main_track, 1, NULL, NULL) != SS_OK || ss_music(engine, "main", 0) != SS_OK) {
        printf("loss_test: %s\n", ss_last_error());
        return 1;
    }
    ss_musical_position position;
    double at_loss = -1, lost_time = -1, restored_time = -1, after = -1;
    int started = 0;
    struct timespec tick = {0, 20000000L};
    for (int i = 0; i < 1000 && restored_time < 0; i++) { /* up to 20 s */
        ss_event event;
        while (ss_poll_event(engine, &event, sizeof(ss_event)) == 1) {
            if (getenv("LOSS_TEST_EVENTS")) printf("event %d %s %.3f\n", event.type, event.name, event.time);
            if (event.type == SS_EVENT_STARTED && strcmp(event.name, "main") == 0) started++;
            if (event.type == SS_EVENT_DEVICE_LOST && lost_time < 0) lost_time = ss_time(engine);
            if (event.type == SS_EVENT_DEVICE_RESTORED) restored_time = ss_time(engine);
        }
        if (lost_time < 0 && ss_music_position(engine, &position, sizeof(ss_musical_position)) == 1) at_loss = beats(&position, 4);
        nanosleep(&tick, NULL);
    }
    if (lost_time < 0 || restored_time < 0) {
        printf("loss_test: no device loss and restore seen\n");
        return 2;
    }
    for (int i = 0; i < 50; i++) { /* 1 s more, for late events */
        ss_event event;
        while (ss_poll_event(engine, &event, sizeof(ss_event)) == 1) {
            if (getenv("LOSS_TEST_EVENTS")) printf("event %d %s %.3f\n", event.type, event.name, event.time);
            if (event.type == SS_EVENT_STARTED && strcmp(event.name, "main") == 0) started++;
        }
        nanosleep(&tick, NULL);
    }
    /* 125 bpm: beats after the restore, measured against the position held at the loss. */
    double since_restore = ss_time(engine) - restored_time;
    if (ss_music_position(engine, &position, sizeof(ss_musical_position)) == 1) after = beats(&position, 4);
    double expected = at_loss + since_restore * 125.0 / 60.0;
    double outage = restored_time - lost_time;
    printf("loss_test: outage %.2f s; position at loss %.2f beats, %.2f s after the restore %.2f beats "
           "(%.2f expected if it resumed where it stopped, %.2f if it ran on); music started %d time(s)\n",
           outage, at_loss, since_restore, after, expected, expected + outage * 125.0 / 60.0, started);
    int ok = after >= 0 && after - expected < 0.5 * outage * 125.0 / 60.0 && started == 1;
    ss_close(engine);
    return ok ? 0 : 1;
}
