/* ss_play from a signal handler, on the device: a SIGALRM timer fires every millisecond for SECONDS
 * and its handler plays a sound loaded with ss_load_file (no coalescing, so every accepted trigger
 * must come back as exactly one SS_EVENT_STARTED or SS_EVENT_REFUSED), while the main thread switches
 * the music every 0.5 s with ss_music and drains the events. Checks that it finishes (no deadlock:
 * the script runs it under `timeout`), that the timer really fired about once a millisecond, and that
 * every accepted trigger is accounted for. The music bus is at a tenth, so that a recording of the
 * sink's monitor measures the effects (the music alone records at an RMS of about 0.01).
 * Usage: sigalrm_test ASSETS_DIR [SECONDS [OUTPUT]]   (OUTPUT "device" by default). Exit 1 on failure. */
#define _POSIX_C_SOURCE 200809L
#include <soundstation.h>

#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

static ss_engine *engine;
static int probe = -1;
static volatile sig_atomic_t firing;
/* Counted in the handler: lock-free atomics are async-signal-safe. */
static atomic_long fired, accepted, dropped, errors;

static void on_alarm(int signo) {
    (void)signo;
    if (!firing) return;
    atomic_fetch_add(&fired, 1);
    long n = atomic_load(&fired);
    int result = ss_play(engine, probe, 0.5f, 1.0f, (float)(n % 21 - 10) / 10.0f);
    if (result == SS_OK) atomic_fetch_add(&accepted, 1);
    else if (result == SS_REFUSED) atomic_fetch_add(&dropped, 1);
    else atomic_fetch_add(&errors, 1);
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static long started, refused, other;

static void drain(void) {
    ss_event event;
    while (ss_poll_event(engine, &event, sizeof(ss_event)) == 1) {
        if (event.sound_id != probe) continue;
        if (event.type == SS_EVENT_STARTED) started++;
        else if (event.type == SS_EVENT_REFUSED) refused++;
        else if (event.type != SS_EVENT_FINISHED) other++;
    }
}

static void nap(double seconds) { /* EINTR from SIGALRM just ends a nap early */
    struct timespec t = {0, (long)(seconds * 1e9)};
    nanosleep(&t, NULL);
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: sigalrm_test ASSETS_DIR [SECONDS [OUTPUT]]\n"); return 2; }
    const char *assets = argv[1];
    double seconds = argc > 2 ? atof(argv[2]) : 10.0;
    const char *output = argc > 3 ? argv[3] : "device";
    if (!(seconds > 0 && seconds <= 600)) { fprintf(stderr, "SECONDS must be in 0...600\n"); return 2; }
    setvbuf(stdout, NULL, _IOLBF, 0);

    if (ss_open(&engine, output, assets) != SS_OK) { printf("FAIL ss_open: %s\n", ss_last_error()); return 1; }
    if (ss_preload(engine, NULL, 0, NULL, NULL) != SS_OK) { printf("FAIL ss_preload: %s\n", ss_last_error()); return 1; }
    char path[4096];
    snprintf(path, sizeof path, "%s/Effects/click.wav", assets);
    probe = ss_load_file(engine, "probe", path);
    if (probe < 0) { printf("FAIL ss_load_file(%s): %s\n", path, ss_last_error()); return 1; }
    /* The music at a tenth (RMS about 0.01 on the monitor), so that the recording's energy is the effects'. */
    if (ss_set_volume(engine, SS_BUS_MUSIC, 0.1f) != SS_OK) { printf("FAIL ss_set_volume: %s\n", ss_last_error()); return 1; }
    if (ss_music(engine, "main", 0.0) != SS_OK) { printf("FAIL ss_music: %s\n", ss_last_error()); return 1; }

    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_alarm;
    sigemptyset(&action.sa_mask);
    sigaction(SIGALRM, &action, NULL); /* no SA_RESTART: calls in the main thread see EINTR too */
    struct itimerval every_ms = {{0, 1000}, {0, 1000}};
    setitimer(ITIMER_REAL, &every_ms, NULL);

    firing = 1;
    double begin = now(), next_switch = begin + 0.5;
    int switches = 0, music_failures = 0;
    while (now() - begin < seconds) {
        if (now() >= next_switch) {
            if (ss_music(engine, switches % 2 ? "main" : "game", 0.25) != SS_OK) music_failures++;
            switches++;
            next_switch += 0.5;
        }
        drain();
        nap(0.002);
    }
    firing = 0;
    setitimer(ITIMER_REAL, &(struct itimerval){{0, 0}, {0, 0}}, NULL);
    double elapsed = now() - begin;
    /* The last triggers come back within a few mixer rounds; wait up to 5 s for them. */
    double waited = now();
    while (started + refused < atomic_load(&accepted) && now() - waited < 5.0) {
        drain();
        nap(0.005);
    }
    nap(0.5);
    drain();
    ss_close(engine);

    long f = atomic_load(&fired), a = atomic_load(&accepted), d = atomic_load(&dropped), e = atomic_load(&errors);
    printf("%.2f s: %ld triggers from the handler (%.0f a second), %ld accepted, %ld dropped by a full ring, "
           "%ld errors; events: %ld started + %ld refused = %ld; %d music switches (%d failed)\n",
           elapsed, f, f / elapsed, a, d, e, started, refused, started + refused, switches, music_failures);
    int failed = 0;
    if (f < (long)(seconds * 1000 * 0.5)) printf("FAIL the timer fired %ld times, wanted about %.0f\n", f, seconds * 1000), failed = 1;
    if (e != 0) printf("FAIL %ld ss_play calls from the handler failed\n", e), failed = 1;
    if (started + refused != a) printf("FAIL %ld accepted triggers, %ld accounted for by events\n", a, started + refused), failed = 1;
    if (started == 0) printf("FAIL nothing started\n"), failed = 1;
    if (other != 0) printf("FAIL %ld unexpected events for the probe\n", other), failed = 1;
    if (switches < (int)(seconds * 2) - 1 || music_failures) printf("FAIL music switches: %d, %d failed\n", switches, music_failures), failed = 1;
    if (!failed) printf("ok\n");
    return failed;
}
