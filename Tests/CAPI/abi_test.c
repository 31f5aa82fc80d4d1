/* Tests of what C ABI 1.0 added, as a game uses it, on offline renders measured by their samples:
 * voices (one of two loops stopped while the other plays on; pause, volume, bus, start time, fade-in,
 * a loop count played exactly N + 1 times), music paused while an effect plays and resumed where it
 * was, music streamed from a file with no catalogue (its samples in the render, a loop count), ss_play
 * on every id the library gave (past 16384), events naming their voices, and structs of other sizes
 * with a canary after them (nothing written or read past the size stated).
 * Usage: abi_test WORK_DIR ASSETS_DIR  (writes its tone files in WORK_DIR; exit 1 when a check fails)
 *        abi_test WORK_DIR output      (ss_output read after ss_close: run it under valgrind) */
#define _POSIX_C_SOURCE 200809L
#include <soundstation.h>

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

enum { RATE = 48000 };
static const double PI = 3.14159265358979323846;
static char work[512];

/* ---- Test material: 16-bit WAV files written here ---- */

static void put16(FILE *f, unsigned v) { fputc(v & 0xFF, f); fputc((v >> 8) & 0xFF, f); }
static void put32(FILE *f, unsigned long v) { put16(f, v & 0xFFFF); put16(f, (v >> 16) & 0xFFFF); }

/* Writes `frames` frames of `channels` channels; sample(i, c) gives each value in -1...1. */
static const char *write_wav(const char *name, int channels, long frames, double (*sample)(long, int, double),
                             double arg) {
    static char paths[8][600];
    static int next = 0;
    char *path = paths[next++ % 8];
    snprintf(path, 600, "%s/%s", work, name);
    FILE *f = fopen(path, "wb");
    if (f == NULL) {
        printf("FAIL cannot write %s\n", path);
        exit(1);
    }
    unsigned long bytes = (unsigned long)frames * channels * 2;
    fwrite("RIFF", 1, 4, f); put32(f, 36 + bytes); fwrite("WAVEfmt ", 1, 8, f);
    put32(f, 16); put16(f, 1); put16(f, channels); put32(f, RATE); put32(f, RATE * channels * 2);
    put16(f, channels * 2); put16(f, 16); fwrite("data", 1, 4, f); put32(f, bytes);
    for (long i = 0; i < frames; i++)
        for (int c = 0; c < channels; c++) {
            long v = lround(sample(i, c, arg) * 32767.0);
            put16(f, (unsigned)(v & 0xFFFF));
        }
    fclose(f);
    return path;
}

static double sine(long i, int c, double hertz) { (void)c; return 0.5 * sin(2 * PI * hertz * i / RATE); }

/* A rising sweep 200...2000 Hz over the file (no two places alike), left and right apart. */
static double sweep(long i, int c, double frames) {
    double t = i / (double)RATE, length = frames / RATE;
    double phase = 2 * PI * (200 * t + 900 * t * t / length);
    return c == 0 ? 0.4 * sin(phase) : 0.4 * cos(phase);
}

/* ---- Measures ---- */

/* The power of `hertz` in `frames` frames (both channels summed), by Goertzel, per frame. */
static double tone(const float *s, long frames, double hertz) {
    double w = 2 * PI * hertz / RATE, coeff = 2 * cos(w), a = 0, b = 0;
    for (long i = 0; i < frames; i++) {
        double x = s[2 * i] + s[2 * i + 1];
        double y = x + coeff * a - b;
        b = a;
        a = y;
    }
    double power = a * a + b * b - coeff * a * b;
    return power / ((double)frames * frames);
}

static double rms(const float *s, long frames) {
    double sum = 0;
    for (long i = 0; i < 2 * frames; i++) sum += (double)s[i] * s[i];
    return frames > 0 ? sqrt(sum / (2.0 * frames)) : 0;
}

/* The first and last frame above `floor` in either channel, or -1. */
static long first_above(const float *s, long frames, float floor) {
    for (long i = 0; i < frames; i++)
        if (fabsf(s[2 * i]) > floor || fabsf(s[2 * i + 1]) > floor) return i;
    return -1;
}
static long last_above(const float *s, long frames, float floor) {
    for (long i = frames - 1; i >= 0; i--)
        if (fabsf(s[2 * i]) > floor || fabsf(s[2 * i + 1]) > floor) return i;
    return -1;
}

static ss_engine *open_offline(void) {
    ss_open_options options;
    CHECK(ss_open_options_init(&options, sizeof options) == SS_OK, "open options init");
    options.output = SS_OUTPUT_OFFLINE;
    options.sample_rate = RATE;
    ss_engine *engine = NULL;
    if (ss_open_with(&engine, &options) != SS_OK || engine == NULL) {
        printf("FAIL cannot open an offline engine: %s\n", ss_last_error());
        exit(1);
    }
    return engine;
}

static float *render(ss_engine *engine, long frames) {
    float *out = calloc((size_t)frames * 2, sizeof *out);
    CHECK(ss_render(engine, out, (int)frames) == (int)frames, "render %ld frames", frames);
    return out;
}

/* Every event waiting, in order. */
static int drain(ss_engine *engine, ss_event *events, int max) {
    int n = 0;
    ss_event event;
    while (ss_poll_event(engine, &event, sizeof event) == 1)
        if (n < max) events[n++] = event;
    return n;
}

/* ---- One pitch range ---- */

/* A pitch the check allows plays at that speed, from ss_play, ss_play_voice and ss_voice_set_pitch
   alike (a 100 Hz tone at 12 is heard at 1200 Hz, not at a lower cap); one past the range is refused
   with a message naming it. */
static void pitch_range(void) {
    ss_engine *engine = open_offline();
    int low = ss_load_file(engine, "hundred", write_wav("hundred.wav", 1, 2 * RATE, sine, 100));
    CHECK(low >= 0, "load a 100 Hz tone: %d", low);
    CHECK(ss_play(engine, low, 1.0f, 12.0f, 0.0f) == SS_OK, "ss_play at pitch 12");
    float *played = render(engine, RATE / 10);
    double at12 = tone(played, RATE / 10, 1200), at8 = tone(played, RATE / 10, 800);
    printf("abi_test: ss_play at pitch 12: 1200 Hz %.3g, 800 Hz %.3g\n", at12, at8);
    CHECK(at12 > 0.01 && at8 < at12 * 1e-3, "heard at 1200 Hz: %g, 800 Hz %g", at12, at8);
    free(played);
    free(render(engine, 2 * RATE));
    ss_play_options options;
    ss_play_options_init(&options, sizeof options);
    options.loops = SS_LOOPS_FOREVER;
    options.pitch = 16.0f;
    ss_voice voice = 0;
    CHECK(ss_play_voice(engine, low, &options, &voice) == SS_OK, "ss_play_voice at pitch 16");
    played = render(engine, RATE / 10);
    CHECK(tone(played, RATE / 10, 1600) > 0.01, "heard at 1600 Hz: %g", tone(played, RATE / 10, 1600));
    free(played);
    CHECK(ss_voice_set_pitch(engine, voice, 12.0f, 0) == SS_OK, "ss_voice_set_pitch 12");
    free(render(engine, 512));
    played = render(engine, RATE / 10);
    double set12 = tone(played, RATE / 10, 1200), set8 = tone(played, RATE / 10, 800);
    CHECK(set12 > 0.01 && set8 < set12 * 1e-3, "set to 12, heard at 1200 Hz: %g, 800 Hz %g", set12, set8);
    free(played);
    CHECK(ss_play(engine, low, 1.0f, 16.5f, 0.0f) == SS_ERR_INVALID_ARGUMENT, "pitch 16.5 refused");
    CHECK(strstr(ss_last_error(), "pitch 16.5") != NULL, "the message names it: %s", ss_last_error());
    CHECK(ss_voice_set_pitch(engine, voice, 17.0f, 0) == SS_ERR_INVALID_ARGUMENT, "pitch 17 refused");
    CHECK(strstr(ss_last_error(), "pitch") != NULL, "the message names it: %s", ss_last_error());
    ss_close(engine);
}

/* ---- Voices ---- */

/* Two loops, 440 Hz and 1 kHz: stopping one leaves the other as loud as it was. */
static void two_loops(void) {
    ss_engine *engine = open_offline();
    int low = ss_load_file(engine, "low", write_wav("low.wav", 1, RATE / 2, sine, 440));
    int high = ss_load_file(engine, "high", write_wav("high.wav", 1, RATE / 2, sine, 1000));
    CHECK(low >= 0 && high >= 0, "load two tones: %d %d", low, high);
    ss_play_options options;
    ss_play_options_init(&options, sizeof options);
    options.loops = SS_LOOPS_FOREVER;
    ss_voice a = 0, b = 0;
    CHECK(ss_play_voice(engine, low, &options, &a) == SS_OK && a != 0, "play the low loop: voice %llu",
          (unsigned long long)a);
    CHECK(ss_play_voice(engine, high, &options, &b) == SS_OK && b != 0 && b != a, "play the high loop");
    float *before = render(engine, RATE); /* 1 s: each 0.5 s tone has looped once */
    double low1 = tone(before + RATE, RATE / 2, 440), high1 = tone(before + RATE, RATE / 2, 1000);
    CHECK(low1 > 1e-3 && high1 > 1e-3, "both loops heard after a pass: %g %g", low1, high1);
    CHECK(ss_voice_is_playing(engine, a) == 1 && ss_voice_is_playing(engine, b) == 1, "both playing");
    CHECK(ss_voice_stop(engine, a, 0) == SS_OK, "stop the low loop");
    free(render(engine, 256)); /* the stop takes effect within a quantum */
    float *after = render(engine, RATE / 2);
    double low2 = tone(after, RATE / 2, 440), high2 = tone(after, RATE / 2, 1000);
    printf("abi_test: 440 Hz %.3g -> %.3g, 1 kHz %.3g -> %.3g after stopping the 440 Hz voice\n", low1, low2,
           high1, high2);
    CHECK(low2 < low1 * 1e-4, "the stopped loop is gone: %g of %g", low2, low1);
    CHECK(fabs(high2 / high1 - 1) < 0.05, "the other loop plays on as loud: %g of %g", high2, high1);
    CHECK(ss_voice_is_playing(engine, a) == 0 && ss_voice_is_playing(engine, b) == 1, "only b plays");
    /* An ended voice is no error. */
    CHECK(ss_voice_stop(engine, a, 0) == SS_OK, "stopping it again is a no-op");
    CHECK(ss_voice_set_volume(engine, a, 0.5f, 0) == SS_OK, "setting an ended voice's volume is a no-op");
    /* Events carry the voices. */
    ss_event events[64];
    int n = drain(engine, events, 64);
    int started_a = 0, started_b = 0, finished_a = 0;
    for (int i = 0; i < n; i++) {
        if (events[i].type == SS_EVENT_STARTED && events[i].voice == a && events[i].sound_id == low) started_a++;
        if (events[i].type == SS_EVENT_STARTED && events[i].voice == b && events[i].sound_id == high) started_b++;
        if (events[i].type == SS_EVENT_FINISHED && events[i].voice == a && events[i].reason == SS_FINISH_STOPPED)
            finished_a++;
        CHECK(events[i].sound_id != -1, "a sound event with id -1: %s", events[i].name);
    }
    CHECK(started_a == 1 && started_b == 1 && finished_a == 1,
          "started a %d, started b %d, finished a (stopped) %d, of %d events", started_a, started_b, finished_a, n);
    /* Volume, pan, pause and resume on the one still playing. */
    CHECK(ss_voice_set_volume(engine, b, 0.5f, 0) == SS_OK, "half volume");
    free(render(engine, 256));
    float *half = render(engine, RATE / 2);
    double high3 = tone(half, RATE / 2, 1000);
    CHECK(fabs(high3 / high2 - 0.25) < 0.02, "half the volume is a quarter of the power: %g", high3 / high2);
    CHECK(ss_voice_pause(engine, b) == SS_OK, "pause b");
    free(render(engine, 256));
    float *paused = render(engine, RATE / 4);
    CHECK(rms(paused, RATE / 4) == 0, "paused: silence (rms %g)", rms(paused, RATE / 4));
    CHECK(ss_voice_is_playing(engine, b) == 1, "a paused voice still holds its sound");
    CHECK(ss_voice_resume(engine, b) == SS_OK, "resume b");
    free(render(engine, 256));
    float *resumed = render(engine, RATE / 4);
    CHECK(tone(resumed, RATE / 4, 1000) > 0.2 * high3, "resumed: heard again");
    CHECK(ss_voice_set_pan(engine, b, -1, 0.1) == SS_OK && ss_voice_set_pitch(engine, b, 2, 0) == SS_OK,
          "pan and pitch");
    free(render(engine, RATE / 4));
    float *moved = render(engine, RATE / 4);
    double left = 0, right = 0;
    for (long i = 0; i < RATE / 4; i++) left += moved[2 * i] * moved[2 * i], right += moved[2 * i + 1] * moved[2 * i + 1];
    CHECK(left > 100 * right, "panned hard left: %g against %g", left, right);
    CHECK(tone(moved, RATE / 4, 2000) > 10 * tone(moved, RATE / 4, 1000), "pitch 2: an octave up");
    /* Bad calls name the value. */
    CHECK(ss_voice_stop(engine, 0, 0) == SS_ERR_INVALID_ARGUMENT && strstr(ss_last_error(), "voice 0"), "voice 0");
    CHECK(ss_voice_stop(engine, 999999, 0) == SS_ERR_INVALID_ARGUMENT && strstr(ss_last_error(), "999999"),
          "a voice never given");
    CHECK(ss_voice_set_volume(engine, b, NAN, 0) == SS_ERR_INVALID_ARGUMENT && strstr(ss_last_error(), "volume"),
          "volume nan");
    CHECK(ss_voice_set_pitch(engine, b, 1, -1) == SS_ERR_INVALID_ARGUMENT && strstr(ss_last_error(), "tween"),
          "tween -1");
    options.loops = 5000;
    CHECK(ss_play_voice(engine, low, &options, &a) == SS_ERR_INVALID_ARGUMENT && a == 0 &&
              strstr(ss_last_error(), "loops 5000"),
          "loops 5000 is refused, naming it");
    options.loops = SS_LOOPS_DEFAULT;
    options.bus = 9;
    CHECK(ss_play_voice(engine, low, &options, &a) == SS_ERR_INVALID_ARGUMENT && strstr(ss_last_error(), "bus 9"),
          "bus 9");
    ss_play_options unset;
    memset(&unset, 0, sizeof unset);
    CHECK(ss_play_voice(engine, low, &unset, &a) == SS_ERR_INVALID_ARGUMENT && strstr(ss_last_error(), "ss_play_options_init"),
          "options never initialised say so");
    free(before); free(after); free(half); free(paused); free(resumed); free(moved);
    ss_close(engine);
    CHECK(ss_voice_stop(engine, b, 0) == SS_ERR_CLOSED, "a closed engine");
    CHECK(ss_play_voice(engine, low, NULL, &a) == SS_ERR_CLOSED && a == 0, "play_voice on a closed engine");
}

/* loops N plays N + 1 passes, exactly, by the sound's extent in the render. Also start_time, bus and
 * fade-in. */
static void loop_count(void) {
    ss_engine *engine = open_offline();
    long pass = RATE / 10; /* 0.1 s */
    int blip = ss_load_file(engine, "blip", write_wav("blip.wav", 1, pass, sine, 600));
    CHECK(blip >= 0, "load blip");
    ss_play_options options;
    ss_play_options_init(&options, sizeof options);
    options.loops = 2;
    options.start_time = 0.25;
    ss_voice voice = 0;
    CHECK(ss_play_voice(engine, blip, &options, &voice) == SS_OK, "blip, loops 2, at 0.25 s");
    float *out = render(engine, RATE);
    long first = first_above(out, RATE, 1e-4f), last = last_above(out, RATE, 1e-4f);
    printf("abi_test: loops 2 of a %ld-frame sound: heard from frame %ld to %ld (%ld frames)\n", pass, first, last,
           last - first + 1);
    CHECK(first >= 12000 && first <= 12002, "starts at 0.25 s = frame 12000: %ld", first);
    CHECK(labs((last - first + 1) - 3 * pass) <= 16, "three passes: %ld frames, wanted %ld", last - first + 1,
          3 * pass);
    CHECK(rms(out + 2 * (first + pass + pass / 2 - 100), 200) > 0.1, "the second pass is whole in its middle");
    CHECK(ss_voice_is_playing(engine, voice) == 0, "done after its passes");
    ss_event events[16];
    int n = drain(engine, events, 16), ended = 0;
    for (int i = 0; i < n; i++)
        if (events[i].type == SS_EVENT_FINISHED && events[i].voice == voice && events[i].reason == SS_FINISH_ENDED)
            ended++;
    CHECK(ended == 1, "one FINISHED (ended) for the voice");
    free(out);
    /* At pitch 2 the three passes take half as long (the count is passes, not time). */
    options.start_time = -1;
    options.pitch = 2;
    CHECK(ss_play_voice(engine, blip, &options, NULL) == SS_OK, "blip at pitch 2");
    out = render(engine, RATE / 2);
    first = first_above(out, RATE / 2, 1e-4f);
    last = last_above(out, RATE / 2, 1e-4f);
    CHECK(labs((last - first + 1) - 3 * pass / 2) <= 16, "pitch 2: %ld frames, wanted %ld", last - first + 1,
          3 * pass / 2);
    free(out);
    /* SS_LOOPS_DEFAULT of a file plays once; a fade-in starts from silence. */
    options.pitch = 1;
    options.loops = SS_LOOPS_DEFAULT;
    options.fade_in_seconds = 0.05;
    CHECK(ss_play_voice(engine, blip, &options, NULL) == SS_OK, "blip with a fade-in");
    out = render(engine, RATE / 2);
    first = first_above(out, RATE / 2, 1e-4f);
    last = last_above(out, RATE / 2, 1e-4f);
    /* The fade starts at the first rendered frame, from silence. */
    CHECK(labs((last + 1) - pass) <= 16, "once: it ends at frame %ld", last);
    double early = rms(out + 2 * first, 240), later = rms(out + 2 * (first + 3000), 240);
    CHECK(early < 0.25 * later, "fading in: %g in the first 5 ms against %g at 62 ms", early, later);
    free(out);
    /* A voice on its own bus follows that bus's volume. */
    CHECK(ss_set_volume(engine, SS_BUS_VOICE, 0) == SS_OK, "voice bus silent");
    free(render(engine, RATE / 10)); /* the bus glides to 0 over 20 ms */
    options.fade_in_seconds = 0;
    options.bus = SS_BUS_VOICE;
    CHECK(ss_play_voice(engine, blip, &options, NULL) == SS_OK, "blip on the voice bus");
    out = render(engine, RATE / 4);
    CHECK(rms(out, RATE / 4) < 1e-6, "silent on the muted voice bus: %g", rms(out, RATE / 4));
    free(out);
    options.bus = SS_BUS_DEFAULT;
    CHECK(ss_play_voice(engine, blip, &options, NULL) == SS_OK, "blip on its own bus (effects)");
    out = render(engine, RATE / 4);
    CHECK(rms(out, RATE / 4) > 0.01, "heard on the effects bus: %g", rms(out, RATE / 4));
    free(out);
    ss_close(engine);
}

/* A catalogue effect that loops ("loop": true): SS_LOOPS_DEFAULT loops it, a count overrides it, and
 * its catalogue volume still applies under the caller's. */
static void catalogue_loops(void) {
    write_wav("hum.wav", 1, RATE / 10, sine, 500);
    char path[600];
    snprintf(path, sizeof path, "%s/catalogue.json", work);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL, "write %s", path);
    if (f == NULL) return;
    fputs("{ \"sounds\": [ { \"name\": \"hum\", \"path\": \"hum.wav\", \"kind\": \"effect\", "
          "\"loop\": true, \"volume\": 0.5 } ] }\n", f);
    fclose(f);
    ss_engine *engine = NULL;
    CHECK(ss_open(&engine, "offline:48000", work) == SS_OK, "open the written catalogue");
    if (engine == NULL) return;
    CHECK(ss_preload(engine, NULL, 0, NULL, NULL) == SS_OK, "preload hum");
    int hum = ss_sound_id(engine, "hum");
    ss_voice looping = 0, counted = 0;
    CHECK(ss_play_voice(engine, hum, NULL, &looping) == SS_OK, "hum with the defaults");
    float *out = render(engine, RATE);
    CHECK(rms(out + 2 * (RATE - 4800), 4800) > 0.05, "the catalogue's loop: still heard after ten passes");
    CHECK(ss_voice_is_playing(engine, looping) == 1, "still playing");
    CHECK(ss_voice_stop(engine, looping, 0) == SS_OK, "stop it");
    free(render(engine, 256));
    free(out);
    ss_play_options options;
    ss_play_options_init(&options, sizeof options);
    options.loops = 1;
    options.priority = 255;
    CHECK(ss_play_voice(engine, hum, &options, &counted) == SS_OK, "hum, loops 1");
    out = render(engine, RATE / 2);
    long last = last_above(out, RATE / 2, 1e-4f);
    CHECK(labs(last + 1 - RATE / 5) <= 16, "a count overrides the catalogue's loop: ends at %ld", last);
    /* The catalogue's volume 0.5 under the caller's 1: the tone's 0.5 amplitude, halved, at -4.5 dB. */
    double peak = 0;
    for (long i = 0; i < RATE / 5; i++) peak = fmax(peak, fabs(out[2 * i]));
    CHECK(peak > 0.12 && peak < 0.17, "the catalogue volume applies: peak %g", peak);
    free(out);
    ss_close(engine);
    remove(path);
}

/* ---- Music ---- */

/* Music from a file with no catalogue: the render holds the file's samples; paused, an effect plays
 * alone; resumed, it goes on from where it was; a loop count ends it. */
static void music_from_a_file(void) {
    long frames = RATE; /* 1 s sweep */
    const char *song = write_wav("song.wav", 2, frames, sweep, (double)frames);
    const char *fx = write_wav("fx.wav", 1, RATE, sine, 3000);
    ss_engine *engine = open_offline();
    int song_id = ss_load_music_file(engine, "song", song);
    int fx_id = ss_load_file(engine, "fx", fx);
    CHECK(song_id >= 0 && fx_id >= 0, "music file %d, effect %d", song_id, fx_id);
    CHECK(ss_sound_id(engine, "song") == song_id, "the track has an id by name");
    CHECK(ss_play(engine, song_id, 1, 1, 0) == SS_ERR_INVALID_ARGUMENT && strstr(ss_last_error(), "ss_music"),
          "ss_play of streamed music says ss_music");
    CHECK(ss_music(engine, "song", 0) == SS_OK, "music from the file");
    float *out = render(engine, RATE / 2);
    double largest = 0;
    for (long i = 0; i < RATE / 2; i++)
        for (int c = 0; c < 2; c++) {
            double want = lround(sweep(i, c, (double)frames) * 32767.0) / 32768.0;
            largest = fmax(largest, fabs(out[2 * i + c] - want));
        }
    printf("abi_test: music from a file: the render is the file's samples within %g\n", largest);
    CHECK(largest < 2e-4, "the render is the file: off by %g", largest);
    /* Paused while an effect plays. */
    CHECK(ss_pause_music(engine) == SS_OK, "pause the music");
    CHECK(ss_play(engine, fx_id, 1, 1, 0) == SS_OK, "an effect while the music is paused");
    float *during = render(engine, RATE / 4);
    double fx_power = tone(during + 2 * 256, RATE / 4 - 256, 3000);
    double music_left = 0;
    for (long i = 256; i < RATE / 4; i++) music_left += fabs(during[2 * i] - during[2 * i + 1]);
    CHECK(fx_power > 1e-3, "the effect is heard: %g", fx_power);
    CHECK(music_left < 1e-3, "the music is silent (the centred mono effect is the same left and right): %g",
          music_left);
    CHECK(ss_stop_effects(engine, 0) == SS_OK, "stop the effect");
    CHECK(ss_resume_music(engine) == SS_OK, "resume the music");
    float *resumed = render(engine, RATE / 8);
    /* It goes on at frame RATE / 2 of the file: find where the render matches, within a quantum. */
    long best = -1;
    double best_error = 1e9;
    for (long at = RATE / 2 - 1024; at <= RATE / 2 + 1024; at++) {
        double error = 0;
        for (long i = 512; i < 1536; i++)
            for (int c = 0; c < 2; c++) error += fabs(resumed[2 * i + c] - sweep(at + i, c, (double)frames));
        if (error < best_error) best_error = error, best = at;
    }
    printf("abi_test: resumed at file frame %ld (paused at %d), mean error %g\n", best, RATE / 2,
           best_error / 2048);
    CHECK(labs(best - RATE / 2) <= 256 && best_error / 2048 < 1e-3, "resumed where it was paused: frame %ld", best);
    free(out); free(during); free(resumed);
    /* A loop count: loops 1 plays the 1 s track twice, then the music stops. */
    ss_music_options options;
    ss_music_options_init(&options, sizeof options);
    options.loops = 1;
    CHECK(ss_music_with(engine, "song", &options) == SS_OK, "song, loops 1");
    out = render(engine, 3 * RATE);
    long last = last_above(out, 3 * RATE, 1e-4f);
    printf("abi_test: music loops 1 of a 1 s track: last sound at frame %ld\n", last);
    CHECK(labs(last - 2 * RATE) <= 256, "two passes, then silence: last sound at %ld", last);
    CHECK(rms(out + 2 * (RATE + RATE / 4), RATE / 2) > 0.1, "the second pass is heard");
    free(out);
    options.loops = SS_LOOPS_FOREVER;
    CHECK(ss_music_with(engine, "song", &options) == SS_OK, "song, forever");
    out = render(engine, 3 * RATE);
    CHECK(rms(out + 2 * (2 * RATE + RATE / 4), RATE / 2) > 0.1, "forever: still playing after 2 s");
    free(out);
    /* Bad files and names. */
    CHECK(ss_load_music_file(engine, "song", song) == SS_ERR_INVALID_ARGUMENT && strstr(ss_last_error(), "song"),
          "a name in use");
    CHECK(ss_load_music_file(engine, "gone", "/nonexistent/x.ogg") == SS_ERR_DECODE &&
              strstr(ss_last_error(), "/nonexistent/x.ogg"),
          "a missing file is named");
    CHECK(ss_load_music_file(engine, "gone", song) >= 0, "the name is free again after a failed load");
    ss_close(engine);
}

/* ---- One id space ---- */

/* ss_play accepts the ids ss_load_file gives past 16384, as ss_play_at and ss_play_voice do. */
static void many_ids(void) {
    ss_engine *engine = open_offline();
    const char *click = write_wav("click.wav", 1, 64, sine, 1000);
    int id = -1;
    char name[32];
    for (int i = 0; i <= 16400; i++) {
        snprintf(name, sizeof name, "c%d", i);
        id = ss_load_file(engine, name, click);
        if (id < 0) break;
    }
    CHECK(id >= 16400, "16401 files loaded: last id %d", id);
    CHECK(ss_play(engine, id, 1, 1, 0) == SS_OK, "ss_play of id %d", id);
    CHECK(ss_play_at(engine, id, 0, 1, 0) == SS_OK, "ss_play_at of id %d", id);
    CHECK(ss_play_voice(engine, id, NULL, NULL) == SS_OK, "ss_play_voice of id %d", id);
    float *out = render(engine, 256);
    CHECK(rms(out, 64) > 0.01, "it is heard: %g", rms(out, 64));
    free(out);
    ss_event events[8];
    int n = drain(engine, events, 8), started = 0;
    for (int i = 0; i < n; i++) started += events[i].type == SS_EVENT_STARTED && events[i].sound_id == id;
    CHECK(started == 3, "three starts of id %d: %d", id, started);
    CHECK(ss_play(engine, id + 1, 1, 1, 0) == SS_ERR_UNKNOWN_NAME, "an id not given");
    ss_close(engine);
}

/* ---- Sizes stated by the caller ---- */

/* What a program built against a header whose structs were shorter declared. */
struct short_event {
    int32_t type, sound_id, reason, reserved;
    double time;
    ss_voice voice;
    char name[8];
};
struct short_play_options {
    uint32_t size;
    float volume, pitch, pan;
};
struct short_open_options {
    uint32_t size;
    int32_t output;
};

static int canary_intact(const unsigned char *canary, size_t n, unsigned char value) {
    for (size_t i = 0; i < n; i++)
        if (canary[i] != value) return 0;
    return 1;
}

static void sizes(void) {
    /* An older, shorter ss_open_options: the rest takes the defaults (48000 Hz). */
    struct { struct short_open_options o; unsigned char canary[64]; } open_box;
    memset(open_box.canary, 0x7F, sizeof open_box.canary);
    CHECK(ss_open_options_init((ss_open_options *)&open_box.o, sizeof open_box.o) == SS_OK, "short open init");
    CHECK(canary_intact(open_box.canary, 64, 0x7F), "ss_open_options_init wrote past the size");
    CHECK(open_box.o.size == sizeof open_box.o && open_box.o.output == SS_OUTPUT_AUTO, "short init filled");
    open_box.o.output = SS_OUTPUT_OFFLINE;
    ss_engine *engine = NULL;
    /* The canary bytes, read as sample_rate or latency, would be refused. */
    CHECK(ss_open_with(&engine, (const ss_open_options *)&open_box.o) == SS_OK, "open from a short struct");
    CHECK(engine != NULL && ss_sample_rate(engine) == 48000, "the default rate: %d", ss_sample_rate(engine));
    int blip = ss_load_file(engine, "blip", write_wav("blip2.wav", 1, RATE / 10, sine, 600));
    /* An older ss_play_options: volume, pitch, pan only; bytes past it must not be read. */
    struct { struct short_play_options o; unsigned char canary[64]; } play_box;
    memset(play_box.canary, 0x7F, sizeof play_box.canary);
    CHECK(ss_play_options_init((ss_play_options *)&play_box.o, sizeof play_box.o) == SS_OK, "short play init");
    CHECK(canary_intact(play_box.canary, 64, 0x7F), "ss_play_options_init wrote past the size");
    CHECK(play_box.o.volume == 1 && play_box.o.pitch == 1 && play_box.o.pan == 0, "short play defaults");
    play_box.o.volume = 0.5f;
    ss_voice voice = 0;
    CHECK(ss_play_voice(engine, blip, (const ss_play_options *)&play_box.o, &voice) == SS_OK && voice != 0,
          "play from a short struct (bus, loops and priority past it would be refused if read)");
    /* A newer, longer struct: the tail is zeroed by _init and never read. */
    struct { ss_play_options o; uint64_t future[4]; } long_box;
    memset(&long_box, 0xEE, sizeof long_box);
    CHECK(ss_play_options_init(&long_box.o, sizeof long_box) == SS_OK, "long play init");
    CHECK(long_box.o.size == sizeof long_box && long_box.future[3] == 0, "the tail within the size is zeroed");
    CHECK(ss_play_voice(engine, blip, &long_box.o, NULL) == SS_OK, "play from a longer struct");
    free(render(engine, RATE / 5));
    /* An older, shorter ss_event: cut inside `name`, with a canary after it. */
    struct { struct short_event e; unsigned char canary[400]; } event_box;
    memset(event_box.canary, 0x5A, sizeof event_box.canary);
    int got = ss_poll_event(engine, (ss_event *)&event_box.e, sizeof event_box.e);
    CHECK(got == 1, "an event into a short struct");
    CHECK(canary_intact(event_box.canary, sizeof event_box.canary, 0x5A), "ss_poll_event wrote past the size");
    CHECK(event_box.e.type == SS_EVENT_STARTED && event_box.e.voice == voice && event_box.e.sound_id == blip &&
              memcmp(event_box.e.name, "blip", 4) == 0,
          "the fields it has are filled: type %d voice %llu", event_box.e.type,
          (unsigned long long)event_box.e.voice);
    /* Only `type`: 4 bytes. */
    struct { int32_t type; unsigned char canary[64]; } tiny;
    memset(tiny.canary, 0x5A, sizeof tiny.canary);
    CHECK(ss_poll_event(engine, (ss_event *)&tiny, sizeof tiny.type) == 1 && tiny.type > 0 &&
              canary_intact(tiny.canary, 64, 0x5A),
          "a 4-byte event gets its type and nothing more");
    CHECK(ss_poll_event(engine, (ss_event *)&tiny, 0) == SS_ERR_INVALID_ARGUMENT, "size 0 is refused");
    /* ss_musical_position cut after `bar`. */
    CHECK(ss_load_music_file(engine, "song2", write_wav("song2.wav", 2, RATE, sweep, (double)RATE)) >= 0,
          "a track");
    CHECK(ss_music(engine, "song2", 0) == SS_OK, "play it");
    free(render(engine, 4800));
    struct { int32_t bar; unsigned char canary[32]; } position;
    memset(position.canary, 0x5A, sizeof position.canary);
    int has = ss_music_position(engine, (ss_musical_position *)&position, sizeof position.bar);
    CHECK(has == 0 || (has == 1 && canary_intact(position.canary, 32, 0x5A)),
          "ss_music_position wrote past the size (%d)", has);
    ss_close(engine);
    /* A struct whose size was never set. */
    ss_open_options zero;
    memset(&zero, 0, sizeof zero);
    CHECK(ss_open_with(&engine, &zero) == SS_ERR_INVALID_ARGUMENT && engine == NULL &&
              strstr(ss_last_error(), "ss_open_options_init"),
          "open options never initialised say so");
    CHECK(ss_play_options_init(NULL, sizeof(ss_play_options)) == SS_ERR_INVALID_ARGUMENT, "init NULL");
    CHECK(ss_music_options_init((ss_music_options *)&zero, 2) == SS_ERR_INVALID_ARGUMENT, "a size of 2");
}

/* A layered track's stems report under the track's id and name, never the -1 of device events. */
static void stems_carry_their_track(const char *assets) {
    ss_engine *engine = NULL;
    CHECK(ss_open(&engine, "offline:48000", assets) == SS_OK, "open with the catalogue");
    const char *names[] = {"game"};
    CHECK(ss_preload(engine, names, 1, NULL, NULL) == SS_OK, "preload game (three stems)");
    int game = ss_sound_id(engine, "game");
    CHECK(ss_music(engine, "game", 0) == SS_OK, "play game");
    free(render(engine, RATE / 2));
    CHECK(ss_stop_music(engine, 0) == SS_OK, "stop it");
    free(render(engine, 256));
    ss_event events[32];
    int n = drain(engine, events, 32), started = 0, finished = 0;
    for (int i = 0; i < n; i++) {
        if (events[i].type != SS_EVENT_STARTED && events[i].type != SS_EVENT_FINISHED) continue;
        CHECK(events[i].sound_id == game && strcmp(events[i].name, "game") == 0 && events[i].voice != 0,
              "event %d of %s (id %d, voice %llu)", events[i].type, events[i].name, events[i].sound_id,
              (unsigned long long)events[i].voice);
        started += events[i].type == SS_EVENT_STARTED;
        finished += events[i].type == SS_EVENT_FINISHED;
    }
    CHECK(started == 4 && finished == 4, "the track and its three stems: %d started, %d finished", started, finished);
    ss_close(engine);
}

/* ss_output's string read after ss_close (the Valgrind run checks no freed memory is read). */
static void output_after_close(void) {
    ss_engine *engine = open_offline();
    const char *output = ss_output(engine);
    ss_close(engine);
    size_t length = strlen(output);
    CHECK(length > 0 && strcmp(output, "offline:48000") == 0, "still \"%s\" after ss_close", output);
    CHECK(strcmp(ss_output(engine), output) == 0, "asked again after close");
}

int main(int argc, char **argv) {
    if (argc < 3) {
        printf("usage: abi_test WORK_DIR ASSETS_DIR | abi_test WORK_DIR output\n");
        return 2;
    }
    snprintf(work, sizeof work, "%s", argv[1]);
    CHECK(ss_version() == SS_API_VERSION && ss_version() >= 10000, "library %d, header %d", ss_version(),
          SS_API_VERSION);
    if (strcmp(argv[2], "output") == 0) {
        output_after_close();
    } else {
        two_loops();
        pitch_range();
        loop_count();
        catalogue_loops();
        music_from_a_file();
        many_ids();
        sizes();
        stems_carry_their_track(argv[2]);
        output_after_close();
    }
    printf("abi_test: %d checks, %d failed\n", checks, failures);
    return failures == 0 ? 0 : 1;
}
