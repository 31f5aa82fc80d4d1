/* Tests of libsoundstation as a C game uses it: offline renders measured on their samples, and
 * every error path. Usage: capi_test ASSETS_DIR. Exits 1 when any check fails. */
#define _POSIX_C_SOURCE 200809L
#include <soundstation.h>

#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* The call returned `code` and ss_last_error() mentions `needle`. */
#define CHECK_ERROR(call, code, needle)                                                         \
    do {                                                                                        \
        int got_ = (call);                                                                      \
        CHECK(got_ == (code), "%s returned %d (%s), wanted %s", #call, got_,                     \
              ss_result_name(got_), #code);                                                     \
        CHECK(strstr(ss_last_error(), (needle)) != NULL, "message of %s lacks \"%s\"", #call,   \
              (needle));                                                                        \
    } while (0)

enum { RATE = 48000 };
static const double PI = 3.14159265358979323846;

static ss_engine *open_offline(const char *assets) {
    ss_engine *engine = NULL;
    int result = ss_open(&engine, "offline:48000", assets);
    if (result != SS_OK || engine == NULL) {
        printf("FAIL cannot open offline engine: %s\n", ss_last_error());
        exit(1);
    }
    return engine;
}

struct progress { int calls; double last; pthread_t thread; int other_thread; };

static void on_progress(double fraction, void *user) {
    struct progress *p = user;
    p->calls++;
    p->last = fraction;
    if (!pthread_equal(p->thread, pthread_self())) p->other_thread = 1;
}

/* The first frame whose left or right sample is not exactly 0, or -1. */
static long first_sound(const float *samples, long frames) {
    for (long i = 0; i < frames; i++)
        if (samples[2 * i] != 0.0f || samples[2 * i + 1] != 0.0f) return i;
    return -1;
}

static double rms(const float *samples, long frames) {
    double sum = 0;
    for (long i = 0; i < 2 * frames; i++) sum += (double)samples[i] * samples[i];
    return frames > 0 ? sqrt(sum / (2.0 * frames)) : 0;
}

/* Renders `seconds` after playing reward at `at` (and music when asked): the sequence two engines
 * repeat for the byte-identical check. */
static float *scene(const char *assets, double at, int music, long frames) {
    ss_engine *engine = open_offline(assets);
    const char *names[] = {"reward", "main"};
    CHECK(ss_preload(engine, names, 2, NULL, NULL) == SS_OK, "preload reward, main");
    if (music) CHECK(ss_music(engine, "main", 0) == SS_OK, "music main");
    CHECK(ss_play_at(engine, ss_sound_id(engine, "reward"), at, 1.0f, 0.0f) == SS_OK, "play_at");
    float *out = calloc((size_t)frames * 2, sizeof *out);
    CHECK(ss_render(engine, out, (int)frames) == (int)frames, "render");
    ss_close(engine);
    return out;
}

static void offline_renders(const char *assets) {
    /* Onset: reward played at t starts at frame round(t * rate). Its own first non-zero sample is at
     * offset `lead` when played at 0, so at t the first non-zero frame is round(t * rate) + lead. */
    long frames = RATE; /* 1 s */
    float *at_zero = scene(assets, 0.0, 0, frames);
    long lead = first_sound(at_zero, frames);
    CHECK(lead >= 0 && lead < 480, "reward at 0 starts within 10 ms, first sound at frame %ld", lead);
    CHECK(rms(at_zero, 4800) > 0.01, "reward is loud in its first 100 ms: rms %f", rms(at_zero, 4800));
    const double times[] = {0.25, 0.3000104, 0.5};
    for (int i = 0; i < 3; i++) {
        float *later = scene(assets, times[i], 0, frames);
        long expected = lround(times[i] * RATE) + lead;
        long onset = first_sound(later, frames);
        CHECK(onset == expected, "reward at %.7f s: first sound at frame %ld, wanted %ld", times[i], onset,
              expected);
        /* The same samples, shifted. */
        long shift = lround(times[i] * RATE);
        int same = memcmp(later + 2 * shift, at_zero, (size_t)(frames - shift) * 2 * sizeof(float)) == 0;
        CHECK(same, "reward at %.3f s is reward at 0 moved by %ld frames", times[i], shift);
        free(later);
    }
    free(at_zero);

    /* Music: energy from frame 0 on; two runs are byte-identical. */
    float *a = scene(assets, 0.5, 1, frames);
    float *b = scene(assets, 0.5, 1, frames);
    CHECK(rms(a, 4800) > 0.01, "music is heard in the first 100 ms: rms %f", rms(a, 4800));
    CHECK(memcmp(a, b, (size_t)frames * 2 * sizeof(float)) == 0, "two renders are byte-identical");
    int within = 1;
    for (long i = 0; i < 2 * frames; i++) within &= fabsf(a[i]) <= 1.0f;
    CHECK(within, "samples within -1...1");
    free(a);
    free(b);

    /* Silence, a bus volume, pause, events, ids. */
    ss_engine *engine = open_offline(assets);
    struct progress progress = {0, 0, pthread_self(), 0};
    CHECK(ss_preload(engine, NULL, 0, on_progress, &progress) == SS_OK, "preload all");
    CHECK(progress.calls == 12, "progress called once per sound: %d", progress.calls);
    CHECK(progress.last == 1.0, "progress ends at 1: %f", progress.last);
    CHECK(!progress.other_thread, "progress called on the preloading thread");
    CHECK(ss_sound_id(engine, "main") == 0 && ss_sound_id(engine, "bomb-tick") == 11,
          "ids in catalogue order: main %d, bomb-tick %d", ss_sound_id(engine, "main"),
          ss_sound_id(engine, "bomb-tick"));
    float *out = calloc((size_t)frames * 2, sizeof *out);
    CHECK(ss_render(engine, out, RATE / 4) == RATE / 4, "render 0.25 s");
    CHECK(first_sound(out, RATE / 4) == -1, "nothing played: digital silence");
    int reward = ss_sound_id(engine, "reward");
    CHECK(ss_play(engine, reward, 1.0f, 1.0f, -1.0f) == SS_OK, "play panned left");
    CHECK(ss_render(engine, out, RATE / 10) == RATE / 10, "render 0.1 s");
    double left = 0, right = 0;
    for (long i = 0; i < RATE / 10; i++) {
        left += fabs(out[2 * i]);
        right += fabs(out[2 * i + 1]);
    }
    CHECK(left > 10 * right, "pan -1 is left: left %f right %f", left, right);
    CHECK(ss_set_volume(engine, SS_BUS_EFFECTS, 0.0f) == SS_OK, "effects volume 0");
    CHECK(ss_render(engine, out, RATE / 10) == RATE / 10, "render the glide");
    CHECK(ss_play(engine, ss_sound_id(engine, "explosion"), 1.0f, 1.0f, 0.0f) == SS_OK, "play explosion");
    CHECK(ss_render(engine, out, RATE / 10) == RATE / 10, "render 0.1 s");
    CHECK(first_sound(out, RATE / 10) == -1, "an effect on a muted bus is silent");
    CHECK(ss_set_volume(engine, SS_BUS_EFFECTS, 1.0f) == SS_OK, "effects volume 1");
    CHECK(ss_render(engine, out, RATE) == RATE, "render 1 s: the sounds end");
    int started = 0, finished = 0;
    ss_event event;
    while (ss_poll_event(engine, &event, sizeof(ss_event)) == 1) {
        if (event.type == SS_EVENT_STARTED && event.sound_id == reward && strcmp(event.name, "reward") == 0)
            started++;
        if (event.type == SS_EVENT_FINISHED && event.sound_id == reward && event.reason == SS_FINISH_ENDED)
            finished++;
    }
    CHECK(started == 1 && finished == 1, "reward started %d and finished %d times (wanted 1, 1)", started,
          finished);
    CHECK(fabs(ss_time(engine) - (0.25 + 0.3 + 1.0)) < 1e-9, "clock %f", ss_time(engine));

    /* A file without a catalogue entry. */
    char path[4096];
    snprintf(path, sizeof path, "%s/Effects/coin.wav", assets);
    int coin = ss_load_file(engine, "my-coin", path);
    CHECK(coin == 12, "the next id: %d", coin);
    CHECK(ss_sound_id(engine, "my-coin") == coin, "id by name");
    CHECK(ss_play(engine, coin, 0.5f, 2.0f, 0.0f) == SS_OK, "play the file an octave up");
    CHECK(ss_render(engine, out, RATE / 10) == RATE / 10, "render");
    CHECK(rms(out, RATE / 10) > 0.005, "the file is heard: rms %f", rms(out, RATE / 10));
    free(out);
    ss_close(engine);
}

static void errors(const char *assets) {
    ss_engine *engine = NULL;
    CHECK_ERROR(ss_open(&engine, "speakers", assets), SS_ERR_INVALID_ARGUMENT, "\"speakers\"");
    CHECK(engine == NULL, "no engine on failure");
    CHECK_ERROR(ss_open(&engine, "offline:12", assets), SS_ERR_INVALID_ARGUMENT, "\"12\"");
    CHECK_ERROR(ss_open(&engine, "offline:fast", assets), SS_ERR_INVALID_ARGUMENT, "fast");
    CHECK_ERROR(ss_open(&engine, NULL, assets), SS_ERR_INVALID_ARGUMENT, "output is NULL");
    CHECK_ERROR(ss_open(NULL, "silent", assets), SS_ERR_INVALID_ARGUMENT, "out is NULL");
    CHECK_ERROR(ss_open(&engine, "offline:48000", "/nonexistent/assets"), SS_ERR_CATALOGUE,
                "/nonexistent/assets");
    CHECK_ERROR(ss_open(&engine, "device:No Such Device 42", NULL), SS_ERR_DEVICE, "No Such Device 42");

    engine = open_offline(assets);
    const char *unknown[] = {"reward", "rewrad"};
    CHECK_ERROR(ss_preload(engine, unknown, 2, NULL, NULL), SS_ERR_UNKNOWN_NAME, "rewrad");
    CHECK_ERROR(ss_sound_id(engine, "reward"), SS_ERR_NOT_LOADED, "reward");
    const char *with_null[] = {"reward", NULL};
    CHECK_ERROR(ss_preload(engine, with_null, 2, NULL, NULL), SS_ERR_INVALID_ARGUMENT, "names[1]");
    CHECK_ERROR(ss_preload(engine, unknown, -1, NULL, NULL), SS_ERR_INVALID_ARGUMENT, "-1");
    CHECK(ss_preload(engine, unknown, 1, NULL, NULL) == SS_OK, "preload reward");
    int reward = ss_sound_id(engine, "reward");
    CHECK(reward == 0, "first id 0: %d", reward);
    CHECK_ERROR(ss_sound_id(engine, "rewrad"), SS_ERR_UNKNOWN_NAME, "rewrad");
    CHECK_ERROR(ss_sound_id(engine, NULL), SS_ERR_INVALID_ARGUMENT, "name is NULL");
    CHECK_ERROR(ss_sound_id(NULL, "reward"), SS_ERR_INVALID_ARGUMENT, "engine is NULL");
    CHECK_ERROR(ss_play(NULL, reward, 1, 1, 0), SS_ERR_INVALID_ARGUMENT, "engine is NULL");
    CHECK_ERROR(ss_play(engine, 7, 1, 1, 0), SS_ERR_UNKNOWN_NAME, "id 7");
    CHECK_ERROR(ss_play(engine, -1, 1, 1, 0), SS_ERR_UNKNOWN_NAME, "id -1");
    CHECK_ERROR(ss_play(engine, reward, NAN, 1, 0), SS_ERR_INVALID_ARGUMENT, "volume nan");
    CHECK_ERROR(ss_play(engine, reward, 1, 0, 0), SS_ERR_INVALID_ARGUMENT, "pitch 0");
    CHECK_ERROR(ss_play(engine, reward, 1, 1, 2), SS_ERR_INVALID_ARGUMENT, "pan 2");
    CHECK_ERROR(ss_play_at(engine, reward, INFINITY, 1, 0), SS_ERR_INVALID_ARGUMENT, "time inf");
    CHECK_ERROR(ss_music(engine, "main", 0), SS_ERR_NOT_LOADED, "\"main\"");
    CHECK_ERROR(ss_music(engine, "mian", 0), SS_ERR_UNKNOWN_NAME, "mian");
    CHECK_ERROR(ss_music(engine, NULL, 0), SS_ERR_INVALID_ARGUMENT, "name is NULL");
    CHECK_ERROR(ss_stop_music(engine, -1), SS_ERR_INVALID_ARGUMENT, "fade -1");
    CHECK_ERROR(ss_set_volume(engine, (ss_bus)9, 1), SS_ERR_INVALID_ARGUMENT, "bus 9");
    CHECK_ERROR(ss_set_volume(engine, SS_BUS_MUSIC, NAN), SS_ERR_INVALID_ARGUMENT, "gain nan");
    CHECK_ERROR(ss_set_volume(engine, SS_BUS_DEFAULT, 1), SS_ERR_INVALID_ARGUMENT, "bus -1");
    CHECK_ERROR(ss_render(engine, NULL, 10), SS_ERR_INVALID_ARGUMENT, "NULL");
    float frame[2];
    CHECK_ERROR(ss_render(engine, frame, -5), SS_ERR_INVALID_ARGUMENT, "-5");
    CHECK_ERROR(ss_poll_event(engine, NULL, sizeof(ss_event)), SS_ERR_INVALID_ARGUMENT, "out is NULL");
    CHECK_ERROR(ss_load_file(engine, "x", "/nonexistent/x.wav"), SS_ERR_DECODE, "/nonexistent/x.wav");
    CHECK_ERROR(ss_load_file(engine, "reward", "/nonexistent/x.wav"), SS_ERR_INVALID_ARGUMENT, "\"reward\"");
    CHECK_ERROR(ss_load_file(engine, "", "/nonexistent/x.wav"), SS_ERR_INVALID_ARGUMENT, "empty");
    CHECK_ERROR(ss_load_file(engine, "x", NULL), SS_ERR_INVALID_ARGUMENT, "path is NULL");
    ss_close(engine);
    CHECK_ERROR(ss_play(engine, reward, 1, 1, 0), SS_ERR_CLOSED, "closed");
    CHECK_ERROR(ss_render(engine, frame, 1), SS_ERR_CLOSED, "closed");
    CHECK_ERROR(ss_music(engine, "main", 0), SS_ERR_CLOSED, "closed");
    CHECK(ss_time(engine) == SS_ERR_CLOSED, "time of a closed engine");
    ss_close(engine); /* a second close does nothing */
    ss_close(NULL);

    CHECK(ss_open(&engine, "silent", NULL) == SS_OK, "silent, no catalogue: %s", ss_last_error());
    CHECK_ERROR(ss_render(engine, frame, 1), SS_ERR_NOT_OFFLINE, "offline");
    CHECK_ERROR(ss_sound_id(engine, "reward"), SS_ERR_UNKNOWN_NAME, "reward");
    CHECK(ss_sample_rate(engine) == 48000, "silent runs at 48000: %d", ss_sample_rate(engine));
    ss_close(engine);
    CHECK(strcmp(ss_result_name(SS_ERR_CLOSED), "SS_ERR_CLOSED") == 0, "code names");
}

/* ss_music_with on a grid point (bars and marker as ss_music_options carries them). */
static int music_at(ss_engine *engine, const char *name, int point, int bars, const char *marker) {
    ss_music_options options;
    ss_music_options_init(&options, sizeof options);
    options.point = point;
    options.bars = bars;
    options.marker = marker;
    return ss_music_with(engine, name, &options);
}

/* Musical time: a switch asked at 1.3 s on main's next bar (125 bpm: bars of 1.92 s) is heard from
 * frame 92160 as game from its start; the polled position follows both grids; intensity moves the
 * game track's layers; bad points are named. */
static void musical_time(const char *assets) {
    ss_engine *engine = open_offline(assets);
    const char *names[] = {"main", "game"};
    CHECK(ss_preload(engine, names, 2, NULL, NULL) == SS_OK, "preload main, game");
    ss_musical_position position = {0, 0, 0};
    CHECK(ss_music_position(engine, &position, sizeof(ss_musical_position)) == 0, "no position before any music");
    CHECK(ss_music(engine, "main", 0) == SS_OK, "music main");
    long asked = 62400, bar = 92160, after = 9600;
    float *out = calloc((size_t)(bar + after) * 2, sizeof *out);
    CHECK(ss_render(engine, out, (int)asked) == (int)asked, "render to 1.3 s");
    CHECK(ss_music_position(engine, &position, sizeof(ss_musical_position)) == 1, "a position while main plays");
    CHECK(position.bar == 1 && position.beat == 3 && fabs(position.fraction - (1.3 / 0.48 - 2)) < 1e-6,
          "main at 1.3 s: bar %d beat %d + %f", position.bar, position.beat, position.fraction);
    CHECK(music_at(engine, "game", SS_MUSIC_BAR, 1, NULL) == SS_OK, "game on the next bar");
    CHECK(ss_render(engine, out + 2 * asked, (int)(bar + after - asked)) == (int)(bar + after - asked),
          "render past the bar");
    CHECK(ss_music_position(engine, &position, sizeof(ss_musical_position)) == 1 && position.bar == 1 && position.beat == 1 &&
              fabs(position.fraction - 0.5) < 1e-6,
          "game 0.2 s in: bar %d beat %d + %f", position.bar, position.beat, position.fraction);
    /* The same frames from a fresh engine playing game from frame 0. */
    ss_engine *fresh = open_offline(assets);
    CHECK(ss_preload(fresh, names + 1, 1, NULL, NULL) == SS_OK, "preload game");
    CHECK(ss_music(fresh, "game", 0) == SS_OK, "music game");
    float *alone = calloc((size_t)after * 2, sizeof *alone);
    CHECK(ss_render(fresh, alone, (int)after) == (int)after, "render game alone");
    double largest = 0;
    for (long i = 0; i < 2 * after; i++) largest = fmax(largest, fabs(out[2 * bar + i] - alone[i]));
    CHECK(largest < 1e-6, "from frame %ld the render is game from its start: off by %g", bar, largest);
    CHECK(rms(out + 2 * (bar - 4800), 4800) > 0.01, "main is heard up to the bar");
    /* Intensity 0 leaves game's pad and bass: quieter than with every layer. */
    CHECK(ss_music_intensity(fresh, 0, 0) == SS_OK, "intensity 0");
    CHECK(ss_render(fresh, alone, (int)after) == (int)after, "render at intensity 0");
    double quiet = rms(alone + 2 * 2400, after - 2400), full = rms(out + 2 * bar, after);
    CHECK(quiet < 0.8 * full, "layers out: rms %f against %f", quiet, full);
    CHECK_ERROR(music_at(engine, "main", 9, 1, NULL), SS_ERR_INVALID_ARGUMENT, "point 9");
    CHECK_ERROR(music_at(engine, "main", SS_MUSIC_MARKER, 1, NULL), SS_ERR_INVALID_ARGUMENT, "marker is NULL");
    CHECK_ERROR(music_at(engine, "main", SS_MUSIC_BARS, 0, NULL), SS_ERR_INVALID_ARGUMENT, "bars 0");
    CHECK_ERROR(music_at(engine, "mian", SS_MUSIC_BAR, 1, NULL), SS_ERR_UNKNOWN_NAME, "mian");
    CHECK_ERROR(music_at(engine, "main", SS_MUSIC_MARKER, 1, "no-such-marker"), SS_ERR_UNKNOWN_NAME,
                "no-such-marker");
    CHECK_ERROR(ss_music_position(engine, NULL, sizeof(ss_musical_position)), SS_ERR_INVALID_ARGUMENT, "out is NULL");
    CHECK_ERROR(ss_music_intensity(engine, 2, 0), SS_ERR_INVALID_ARGUMENT, "intensity 2");
    free(out);
    free(alone);
    ss_close(fresh);
    ss_close(engine);
}

/* What the SIGALRM handler plays, and what it saw. */
static ss_engine *signal_engine;
static int signal_sound;
static volatile sig_atomic_t signal_ok, signal_bad;

static void on_alarm(int signo) {
    (void)signo;
    if (ss_play(signal_engine, signal_sound, 0.5f, 1.0f, 0.0f) == SS_OK)
        signal_ok++;
    else
        signal_bad++;
}

/* ss_play from a SIGALRM handler every millisecond while the main thread plays too (so signals land
 * inside ss_play): every call is accepted and every one is started by the mixer, as its events say. */
static void signal_handler_plays(const char *assets) {
    char path[4096];
    snprintf(path, sizeof path, "%s/Effects/click.wav", assets);
    signal_engine = open_offline(NULL);
    signal_sound = ss_load_file(signal_engine, "click", path);
    CHECK(signal_sound >= 0, "ss_load_file(%s) = %d", path, signal_sound);
    if (signal_sound < 0) return;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_alarm;
    sigemptyset(&action.sa_mask);
    sigaction(SIGALRM, &action, NULL);
    struct itimerval timer = {{0, 1000}, {0, 1000}};
    setitimer(ITIMER_REAL, &timer, NULL);
    int main_ok = 0;
    struct timespec pause = {0, 300000};
    for (int i = 0; i < 120; i++) {
        if (ss_play(signal_engine, signal_sound, 0.5f, 1.0f, 0.0f) == SS_OK) main_ok++;
        nanosleep(&pause, NULL);
    }
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &off, NULL);
    signal(SIGALRM, SIG_IGN);
    CHECK(signal_ok > 0 && signal_bad == 0, "handler: %d accepted, %d refused", (int)signal_ok,
          (int)signal_bad);
    CHECK(main_ok == 120, "main thread: %d of 120 accepted", main_ok);
    static float out[2 * 480];
    CHECK(ss_render(signal_engine, out, 480) == 480, "render");
    int started = 0;
    ss_event event;
    while (ss_poll_event(signal_engine, &event, sizeof(ss_event)) == 1)
        if (event.type == SS_EVENT_STARTED) started++;
    CHECK(started == main_ok + signal_ok, "%d started for %d triggers", started, main_ok + (int)signal_ok);
    ss_close(signal_engine);
}

/* The amplitude of `frequency` on the left channel over frames [from, to) (a Goertzel bin). */
static double tone_level(const float *samples, long from, long to, double frequency) {
    double k = 2 * cos(2 * PI * frequency / RATE), s1 = 0, s2 = 0;
    for (long i = from; i < to; i++) {
        double s = samples[2 * i] + k * s1 - s2;
        s2 = s1;
        s1 = s;
    }
    return 2 * sqrt(fmax(0, s1 * s1 + s2 * s2 - k * s1 * s2)) / (double)(to - from);
}

/* Writes 1 s of 200 Hz + 6 kHz (0.2 each) as a 16-bit mono WAV, for the filter checks. */
static int write_tones(const char *path) {
    FILE *file = fopen(path, "wb");
    if (file == NULL) return 0;
    unsigned char header[44] = "RIFF\0\0\0\0WAVEfmt \x10\0\0\0\x01\0\x01\0\x80\xbb\0\0\0\x77\x01\0\x02\0\x10\0data";
    unsigned data = RATE * 2, riff = data + 36;
    for (int i = 0; i < 4; i++) {
        header[4 + i] = (unsigned char)(riff >> (8 * i));
        header[40 + i] = (unsigned char)(data >> (8 * i));
    }
    fwrite(header, 1, 44, file);
    for (int i = 0; i < RATE; i++) {
        double t = (double)i / RATE;
        short value = (short)lrint(32767 * (0.2 * sin(2 * PI * 200 * t) + 0.2 * sin(2 * PI * 6000 * t)));
        unsigned char bytes[2] = {(unsigned char)(value & 0xff), (unsigned char)((value >> 8) & 0xff)};
        fwrite(bytes, 1, 2, file);
    }
    return fclose(file) == 0;
}

/* Renders the tones on the effects bus with `type` at `hertz` on the bus (SS_FILTER_OFF: none). */
static void filtered_tones(const char *path, int type, float hertz, float *out) {
    ss_engine *engine = open_offline(NULL);
    int tones = ss_load_file(engine, "tones", path);
    CHECK(tones >= 0, "ss_load_file(%s) = %d", path, tones);
    CHECK(ss_set_filter(engine, SS_BUS_EFFECTS, type, hertz, 0.7071f, 0) == SS_OK, "set filter %d", type);
    CHECK(ss_play(engine, tones, 1.0f, 1.0f, 0.0f) == SS_OK, "play the tones");
    CHECK(ss_render(engine, out, RATE) == RATE, "render 1 s");
    ss_close(engine);
}

/* Positions, the listener, bus filters with a real cutoff and reverb, measured on renders. */
static void space_and_colour(const char *assets) {
    static float plain[2 * RATE], low[2 * RATE], high[2 * RATE];
    char path[] = "/tmp/capi-tones-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0 && write_tones(path), "write %s", path);
    if (fd >= 0) close(fd);
    filtered_tones(path, SS_FILTER_OFF, 0, plain);
    filtered_tones(path, SS_FILTER_LOWPASS, 1000, low);
    filtered_tones(path, SS_FILTER_HIGHPASS, 1500, high);
    remove(path);
    long a = 4800, b = 43200;
    double low_200 = 20 * log10(tone_level(low, a, b, 200) / tone_level(plain, a, b, 200));
    double low_6k = 20 * log10(tone_level(low, a, b, 6000) / tone_level(plain, a, b, 6000));
    double high_200 = 20 * log10(tone_level(high, a, b, 200) / tone_level(plain, a, b, 200));
    double high_6k = 20 * log10(tone_level(high, a, b, 6000) / tone_level(plain, a, b, 6000));
    CHECK(low_6k <= -20 && fabs(low_200) <= 1.5, "low-pass 1 kHz: 6 kHz %.1f dB, 200 Hz %.2f dB", low_6k,
          low_200);
    printf("capi_test: low-pass 1 kHz: 6 kHz %.1f dB, 200 Hz %.2f dB; high-pass 1.5 kHz: 200 Hz %.1f dB, "
           "6 kHz %.2f dB\n", low_6k, low_200, high_200, high_6k);
    CHECK(high_200 <= -20 && fabs(high_6k) <= 1.5, "high-pass 1.5 kHz: 200 Hz %.1f dB, 6 kHz %.2f dB",
          high_200, high_6k);

    static float out[2 * RATE];
    ss_engine *engine = open_offline(assets);
    const char *names[] = {"hit"};
    CHECK(ss_preload(engine, names, 1, NULL, NULL) == SS_OK, "preload hit");
    int hit = ss_sound_id(engine, "hit");
    CHECK(ss_set_grid(engine, 80, 24) == SS_OK, "grid 80 x 24");
    CHECK(ss_set_listener(engine, 40, 23, 0) == SS_OK, "listener at the bottom middle");
    CHECK(ss_play_position(engine, hit, 0, 23, 1.0f, 1.0f) == SS_OK, "hit at column 0");
    CHECK(ss_render(engine, out, RATE / 4) == RATE / 4, "render");
    double left = 0, right = 0;
    for (long i = 0; i < RATE / 4; i++) {
        left += (double)out[2 * i] * out[2 * i];
        right += (double)out[2 * i + 1] * out[2 * i + 1];
    }
    CHECK(left > 100 * right && left > 0, "column 0 of 80 is hard left: left %g right %g", left, right);
    CHECK(ss_set_listener(engine, 0, 23, 0) == SS_OK, "listener at column 0");
    CHECK(ss_play_position(engine, hit, 0, 23, 1.0f, 1.0f) == SS_OK, "hit at the listener");
    CHECK(ss_render(engine, out, RATE / 4) == RATE / 4, "render");
    left = right = 0;
    for (long i = 0; i < RATE / 4; i++) {
        left += (double)out[2 * i] * out[2 * i];
        right += (double)out[2 * i + 1] * out[2 * i + 1];
    }
    CHECK(left > 0 && fabs(10 * log10(left / right)) < 0.5, "at the listener it is centred: %.2f dB",
          10 * log10(left / right));
    CHECK(ss_set_reverb(engine, SS_BUS_EFFECTS, "cave") == SS_OK, "cave reverb on the effects");
    CHECK(ss_play(engine, hit, 1.0f, 1.0f, 0.0f) == SS_OK, "hit in the cave");
    CHECK(ss_render(engine, out, RATE) == RATE, "render 1 s");
    double tail = rms(out + 2 * (RATE / 2), RATE / 4);
    CHECK(tail > 1e-4, "the cave's tail is heard 0.5 s after a 0.2 s hit: rms %g", tail);
    CHECK(ss_set_reverb(engine, SS_BUS_EFFECTS, "off") == SS_OK, "reverb off");
    CHECK(ss_set_reverb(engine, SS_BUS_MUSIC, NULL) == SS_OK, "reverb off (NULL)");

    CHECK_ERROR(ss_set_filter(engine, SS_BUS_MUSIC, SS_FILTER_LOWPASS, 30000, 0.7f, 0), SS_ERR_INVALID_ARGUMENT,
                "30000");
    CHECK_ERROR(ss_set_filter(engine, SS_BUS_MUSIC, SS_FILTER_LOWPASS, NAN, 0.7f, 0), SS_ERR_INVALID_ARGUMENT, "nan");
    CHECK_ERROR(ss_set_filter(engine, SS_BUS_MUSIC, SS_FILTER_BANDPASS, 800, 0, 0), SS_ERR_INVALID_ARGUMENT, "Q 0.0");
    CHECK_ERROR(ss_set_filter(engine, SS_BUS_MUSIC, 7, 800, 1, 0), SS_ERR_INVALID_ARGUMENT, "type 7");
    CHECK_ERROR(ss_set_filter(engine, SS_BUS_MUSIC, SS_FILTER_LOWPASS, 800, 1, -1), SS_ERR_INVALID_ARGUMENT, "glide -1");
    CHECK_ERROR(ss_set_filter(engine, (ss_bus)9, SS_FILTER_LOWPASS, 800, 1, 0), SS_ERR_INVALID_ARGUMENT, "bus 9");
    CHECK_ERROR(ss_set_reverb(engine, SS_BUS_EFFECTS, "cathedral"), SS_ERR_UNKNOWN_NAME, "cathedral");
    CHECK_ERROR(ss_set_listener(engine, NAN, 0, 0), SS_ERR_INVALID_ARGUMENT, "nan");
    CHECK_ERROR(ss_play_position(engine, hit, 1, INFINITY, 1, 1), SS_ERR_INVALID_ARGUMENT, "inf");
    CHECK_ERROR(ss_set_grid(engine, 0, 24), SS_ERR_INVALID_ARGUMENT, "0 x 24");
    ss_close(engine);
    CHECK_ERROR(ss_set_filter(engine, SS_BUS_MUSIC, SS_FILTER_OFF, 0, 0, 0), SS_ERR_CLOSED, "closed");
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s ASSETS_DIR\n", argv[0]);
        return 2;
    }
    CHECK(ss_version() == SS_API_VERSION, "library %d, header %d", ss_version(), SS_API_VERSION);
    offline_renders(argv[1]);
    errors(argv[1]);
    space_and_colour(argv[1]);
    musical_time(argv[1]);
    signal_handler_plays(argv[1]);
    printf("capi_test: %d checks, %d failed\n", checks, failures);
    return failures == 0 ? 0 : 1;
}
