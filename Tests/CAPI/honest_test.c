/* The C library says what happened and never grows or loses quietly (offline, no device needed):
 * ss_output; a cut-short WAV's notice event; messages in C terms; ss_play on streamed music; ss_render
 * of many frames without an internal copy; ss_music_at with a huge bars=N; an offline event flood
 * with nothing lost; 20,000 music switches, 4,000 repeated preloads and 200 open/close cycles without
 * growth, counted with mallinfo2 (run it with MALLOC_ARENA_MAX=1 so that every thread's allocations
 * are counted; far faster than valgrind over the Swift runtime).
 * With "device": only the event queue's overflow on a device (needs a sound server).
 * Usage: honest_test ASSETS_DIR [device]. Exit 1 when a check fails. */
#define _GNU_SOURCE
#include <soundstation.h>

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static int checks, failures;

static void check(int ok, const char *what) {
    checks++;
    if (!ok) {
        failures++;
        printf("FAIL %s (last error: %s)\n", what, ss_last_error());
    }
}

static double seconds_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static long max_rss_kb(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

/* On a device, with nobody polling: more events than the queue keeps. The next poll returns
   SS_EVENT_OVERFLOW with the count, then the newest 4096. */
static int device_overflow(const char *assets) {
    ss_engine *engine = NULL;
    check(ss_open(&engine, "device", NULL) == SS_OK, "open the device");
    if (engine == NULL) return 1;
    char path[4096];
    snprintf(path, sizeof path, "%s/Effects/click.wav", assets);
    int click = ss_load_file(engine, "click", path);
    check(click >= 0, "load click.wav");
    int accepted = 0;
    for (int batch = 0; batch < 2; batch++) { /* the trigger ring holds 4096: two batches */
        double now = ss_time(engine);
        for (int i = 0; i < 3000; i++) accepted += ss_play_at(engine, click, now + 0.1 + 0.001 * i, 0.01f, 0) == SS_OK;
        struct timespec wait = {4, 0};
        nanosleep(&wait, NULL);
    }
    ss_event event;
    int kept = 0, overflow = 0, dropped = 0, first_is_overflow = 0;
    while (ss_poll_event(engine, &event, sizeof(ss_event)) == 1) {
        if (event.type == SS_EVENT_OVERFLOW) {
            first_is_overflow = kept == 0;
            overflow++;
            dropped += event.reason;
        } else {
            kept++;
        }
    }
    printf("honest_test: device: %d accepted, %d events kept, overflow event(s) %d saying %d dropped\n", accepted,
           kept, overflow, dropped);
    check(overflow == 1 && first_is_overflow && dropped > 0 && kept == 4096,
          "on a device a full queue says how many events it dropped, first");
    ss_close(engine);
    printf("honest_test: %d checks, %d failed\n", checks, failures);
    return failures == 0 ? 0 : 1;
}

/* A progress callback that cancels the preload once every sound is in: the call has not returned
   yet, so it must still say SS_ERR_CANCELLED. */
static void cancel_at_the_end(double fraction, void *user) {
    if (fraction >= 1.0) ss_cancel_preload((ss_engine *)user);
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    const char *assets = argv[1];
    if (argc > 2 && strcmp(argv[2], "device") == 0) return device_overflow(assets);
    char path[4096];
    ss_engine *engine = NULL;

    /* ss_output says what was opened. */
    check(ss_open(&engine, "offline:44100", assets) == SS_OK, "open offline");
    check(strcmp(ss_output(engine), "offline:44100") == 0, "ss_output offline:44100");

    /* A cut-short WAV, made here from the project's coin.wav: loads, and says so as a notice. */
    snprintf(path, sizeof path, "%s/Effects/coin.wav", assets);
    FILE *in = fopen(path, "rb");
    static unsigned char bytes[1 << 20];
    size_t size = in ? fread(bytes, 1, sizeof bytes, in) : 0;
    if (in) fclose(in);
    char cut[] = "/tmp/honest-cut-XXXXXX";
    int fd = mkstemp(cut);
    FILE *out = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (out) {
        fwrite(bytes, 1, size * 4 / 10, out);
        fclose(out);
    }
    int cut_id = ss_load_file(engine, "cut", cut);
    check(cut_id >= 0, "a cut-short WAV loads");
    ss_event event;
    int notice = 0;
    while (ss_poll_event(engine, &event, sizeof(ss_event)) == 1) {
        if (event.type == SS_EVENT_NOTICE && strstr(event.text, "cut short") && strstr(event.text, cut)) notice = 1;
    }
    check(notice, "its warning is an SS_EVENT_NOTICE naming the file");

    /* One id space: an ss_load_file id plays with ss_play like any other. */
    check(ss_play(engine, cut_id, 0.1f, 1, 0) == SS_OK, "ss_play plays an ss_load_file id");

    /* Names are UTF-8 or refused, naming the bytes; paths are bytes and are found as they are. */
    check(ss_load_file(engine, "\xff", cut) == SS_ERR_INVALID_ARGUMENT && strstr(ss_last_error(), "\\xFF") &&
              strstr(ss_last_error(), "UTF-8"),
          "a name that is not UTF-8 is refused, naming its bytes");
    check(ss_sound_id(engine, "\xfe") == SS_ERR_INVALID_ARGUMENT, "\\xfe is refused too, not taken for \\xff");
    char raw[] = "/tmp/honest-\xff-XXXXXX";
    int raw_fd = mkstemp(raw);
    FILE *raw_file = raw_fd >= 0 ? fdopen(raw_fd, "wb") : NULL;
    if (raw_file) {
        fwrite(bytes, 1, size, raw_file);
        fclose(raw_file);
    }
    check(ss_load_file(engine, "raw path", raw) >= 0, "a path that is not UTF-8 (valid on Linux) is found");
    remove(raw);
    remove(cut);

    /* Messages in C terms; "an effect". */
    check(ss_music(engine, "main", 0) == SS_ERR_NOT_LOADED && strstr(ss_last_error(), "ss_preload") &&
              !strstr(ss_last_error(), "SoundBank"),
          "not loaded: says ss_preload, not SoundBank.preload");
    const char *reward[] = {"reward", "main"};
    check(ss_preload(engine, reward, 2, NULL, NULL) == SS_OK, "preload reward and main");
    check(ss_music(engine, "reward", 0) == SS_ERR_INVALID_ARGUMENT && strstr(ss_last_error(), "an effect") &&
              strstr(ss_last_error(), "ss_play") && !strstr(ss_last_error(), "effects.play"),
          "ss_music on an effect: \"an effect\", play it with ss_play");
    int main_id = ss_sound_id(engine, "main");
    check(main_id >= 0, "streamed music has an id");
    check(ss_play(engine, main_id, 1, 1, 0) == SS_ERR_INVALID_ARGUMENT && strstr(ss_last_error(), "ss_music"),
          "ss_play on streamed music says to use ss_music");

    /* ss_music_with with bars=N far ahead returns at once: refused or placed, never walked. */
    check(ss_music(engine, "main", 0) == SS_OK, "music main");
    static float warmup[2 * 4410];
    ss_render(engine, warmup, 4410); /* the track now plays: a bars point waits for its grid */
    double start = seconds_now();
    ss_music_options options;
    ss_music_options_init(&options, sizeof options);
    options.point = SS_MUSIC_BARS;
    options.bars = 2147483647;
    int result = ss_music_with(engine, "main", &options);
    double took = seconds_now() - start;
    check(result == SS_OK && took < 1.0, "bars=2147483647 is placed in under 1 s");
    start = seconds_now();
    options.bars = -5;
    result = ss_music_with(engine, "main", &options);
    took = seconds_now() - start;
    printf("honest_test: bars=-5: %s: %s\n", ss_result_name(result), ss_last_error());
    check(result == SS_ERR_INVALID_ARGUMENT && took < 1.0 && strstr(ss_last_error(), "bars -5"),
          "bars=-5 is refused at once, naming bars");
    ss_stop_music(engine, 0);

    /* ss_render of 4 M frames into the caller's buffer: no copy the size of the output. */
    int frames = 4 * 1024 * 1024;
    float *buffer = malloc(sizeof(float) * 2 * (size_t)frames);
    memset(buffer, 0, sizeof(float) * 2 * (size_t)frames);
    long before = max_rss_kb();
    check(ss_render(engine, buffer, frames) == frames, "render 4 M frames");
    long grew = max_rss_kb() - before;
    printf("honest_test: rendering 4 M frames (32 MB) raised the peak RSS by %ld KB\n", grew);
    check(grew < 8 * 1024, "the peak grows by less than 8 MB (an internal copy would be 32 MB)");
    free(buffer);

    /* Triggers of one catalogue sound at once are folded together: each is accounted for. */
    static float bit[2 * 4410];
    ss_render(engine, bit, 4410);
    while (ss_poll_event(engine, &event, sizeof(ss_event)) == 1) {}
    int reward_id = ss_sound_id(engine, "reward"), sent = 0;
    for (int i = 0; i < 10; i++) sent += ss_play(engine, reward_id, 0.1f, 1, 0) == SS_OK;
    static float after[2 * 44100];
    ss_render(engine, after, 44100);
    int began = 0, folded = 0, turned_down = 0;
    while (ss_poll_event(engine, &event, sizeof(ss_event)) == 1) {
        began += event.type == SS_EVENT_STARTED;
        folded += event.type == SS_EVENT_COALESCED && strcmp(event.name, "reward") == 0;
        turned_down += event.type == SS_EVENT_REFUSED;
    }
    printf("honest_test: 10 triggers at once: %d started, %d coalesced, %d refused\n", began, folded, turned_down);
    check(sent == 10 && folded > 0 && began + folded + turned_down == sent,
          "every trigger is started, coalesced or refused: none is silent");

    /* An offline flood: every event of 4000 plays, made by one render, is kept (a file loaded with
       ss_load_file is never coalesced, so each accepted play comes back as started or refused). */
    int click = cut_id;
    int accepted = 0;
    double now = ss_time(engine);
    for (int i = 0; i < 4000; i++) accepted += ss_play_at(engine, click, now + 0.005 * i, 0.01f, 0) == SS_OK;
    static float flood[2 * 44100 * 22];
    ss_render(engine, flood, 44100 * 22);
    struct timespec pause = {0, 300000000L};
    nanosleep(&pause, NULL);
    int started = 0, finished = 0, refused = 0, overflow = 0;
    while (ss_poll_event(engine, &event, sizeof(ss_event)) == 1) {
        started += event.type == SS_EVENT_STARTED;
        finished += event.type == SS_EVENT_FINISHED;
        refused += event.type == SS_EVENT_REFUSED;
        overflow += event.type == SS_EVENT_OVERFLOW;
    }
    printf("honest_test: flood: %d accepted, %d started, %d refused, %d finished, %d overflow\n", accepted,
           started, refused, finished, overflow);
    /* More than the 4096 events a queue used to keep, from one render: none may be lost. (Started
       events of voices that start and end within one render are counted by the engine, not here.) */
    check(accepted == 4000 && finished + refused >= accepted && started + finished > 4096 && overflow == 0,
          "offline: every accepted play's finished (or refused) event arrives, none dropped");
    const char *opened = ss_output(engine);
    ss_close(engine);
    check(ss_output(engine) == opened && strncmp(opened, "offline:", 8) == 0,
          "ss_output after ss_close: the same string, still naming what was open");
    check(ss_play(engine, 0, 1, 1, 0) == SS_ERR_CLOSED, "ss_play after close");
    check(ss_cancel_preload(engine) == SS_ERR_CLOSED && ss_cancel_preload(NULL) == SS_ERR_INVALID_ARGUMENT,
          "ss_cancel_preload: closed and NULL");

    /* 20,000 music switches and 2,000 preloads of the same sounds: no growth. */
    /* Music held in memory (a short WAV of the project's), so that a switch opens no stream. */
    char switches_dir[] = "/tmp/honest-switches-XXXXXX";
    check(mkdtemp(switches_dir) != NULL, "a folder for the switches' catalogue");
    snprintf(path, sizeof path, "%s/loop.wav", switches_dir);
    FILE *loop = fopen(path, "wb");
    if (loop) {
        fwrite(bytes, 1, size, loop);
        fclose(loop);
    }
    snprintf(path, sizeof path, "%s/catalogue.json", switches_dir);
    FILE *catalogue = fopen(path, "w");
    if (catalogue) {
        fputs("{\"sounds\": [{\"name\": \"loop\", \"path\": \"loop.wav\", \"kind\": \"music\", \"stream\": false},"
              " {\"name\": \"tick\", \"path\": \"loop.wav\", \"kind\": \"effect\"}]}", catalogue);
        fclose(catalogue);
    }
    ss_engine *music = NULL;
    check(ss_open(&music, "offline:44100", switches_dir) == SS_OK, "open for switches");
    const char *tracks[] = {"loop", "tick"};
    check(ss_preload(music, tracks, 2, NULL, NULL) == SS_OK, "preload for switches");
    /* A cancel asked for in the last progress callback, when the loads are done, still cancels (it was
       lost whenever the preload's end and its last progress were taken together). */
    int cancelled = 0;
    for (int i = 0; i < 200; i++) cancelled += ss_preload(music, tracks, 2, cancel_at_the_end, music) == SS_ERR_CANCELLED;
    printf("honest_test: a cancel in the last progress callback: %d of 200 preloads cancelled\n", cancelled);
    check(cancelled == 200, "ss_cancel_preload in the last progress callback: SS_ERR_CANCELLED every time");
    static float slice[2 * 64];
    for (int i = 0; i < 2000; i++) {
        ss_music(music, "loop", 0);
        ss_render(music, slice, 64);
        while (ss_poll_event(music, &event, sizeof(ss_event)) == 1) {}
    }
    malloc_trim(0);
    size_t before_switches = mallinfo2().uordblks;
    for (int i = 0; i < 20000; i++) {
        ss_music(music, "loop", 0);
        ss_render(music, slice, 64);
        while (ss_poll_event(music, &event, sizeof(ss_event)) == 1) {}
    }
    malloc_trim(0);
    long per_switch = ((long)mallinfo2().uordblks - (long)before_switches) / 20000;
    printf("honest_test: each music switch keeps %ld bytes\n", per_switch);
    check(per_switch < 16, "a music switch keeps less than 16 bytes");
    /* The runtime's task and dispatch pools settle within the first few thousand calls. */
    for (int i = 0; i < 4000; i++) ss_preload(music, tracks, 2, NULL, NULL);
    malloc_trim(0);
    size_t before_preloads = mallinfo2().uordblks;
    for (int i = 0; i < 4000; i++) ss_preload(music, tracks, 2, NULL, NULL);
    malloc_trim(0);
    long per_preload = ((long)mallinfo2().uordblks - (long)before_preloads) / 4000;
    printf("honest_test: each repeated ss_preload keeps %ld bytes\n", per_preload);
    check(per_preload < 16, "preloading loaded sounds again keeps less than 16 bytes");
    ss_close(music);
    snprintf(path, sizeof path, "%s/loop.wav", switches_dir);
    remove(path);
    snprintf(path, sizeof path, "%s/catalogue.json", switches_dir);
    remove(path);
    rmdir(switches_dir);

    /* 200 open/close cycles: only a tombstone of each stays. */
    for (int i = 0; i < 20; i++) {
        ss_engine *e = NULL;
        ss_open(&e, "offline", NULL);
        ss_close(e);
    }
    malloc_trim(0);
    size_t used = mallinfo2().uordblks;
    for (int i = 0; i < 200; i++) {
        ss_engine *e = NULL;
        ss_open(&e, "offline", NULL);
        ss_close(e);
    }
    malloc_trim(0);
    long per_cycle = ((long)mallinfo2().uordblks - (long)used) / 200;
    printf("honest_test: each open/close cycle keeps %ld bytes\n", per_cycle);
    check(per_cycle < 2048, "an open/close cycle keeps less than 2 KB");

    printf("honest_test: %d checks, %d failed\n", checks, failures);
    return failures == 0 ? 0 : 1;
}
