/* A stream the game feeds: a tiny chiptune synth (two square-wave voices and a noise drum, as an
 * 8-bit sound chip makes them) written into an ss_stream as it plays, with no sound file at all.
 *
 *   cc -std=c99 -o stream Examples/C/stream.c $(pkg-config --cflags --libs soundstation) -lm
 *   ./stream            plays 4 bars on the default device
 *   ./stream out.raw    renders them offline into out.raw (stereo float32, 48 kHz) instead
 *
 * The game keeps about 40 ms queued (ss_stream_queued), writing 10 ms at a time, as it would from its
 * frame loop or its emulator thread; ss_stream_write never waits. */
#define _POSIX_C_SOURCE 200809L
#include <soundstation.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

enum { RATE = 48000, PIECE = RATE / 100, STEPS_PER_BAR = 16, BARS = 4 };
static const double STEP_SECONDS = 0.125; /* sixteenth notes at 120 bpm */

/* The tune: MIDI notes per sixteenth, 0 for a rest. */
static const int melody[STEPS_PER_BAR * 2] = {76, 0, 79, 0, 84, 0, 79, 76, 74, 0, 77, 0, 81, 0, 77, 74,
                                              72, 0, 76, 0, 79, 0, 76, 72, 71, 74, 79, 74, 71, 0, 67, 0};
static const int bass[4] = {48, 53, 45, 43};

/* The chip: two pulse channels with a decaying envelope and a noise channel from a 15-bit LFSR. */
typedef struct {
    double phase, hertz, level;
} pulse;

typedef struct {
    pulse lead, low;
    uint16_t lfsr;
    double noise_level, noise_clock;
    float noise_value;
    long frame;
} chip;

static double note_hertz(int note) { return 440.0 * pow(2.0, (note - 69) / 12.0); }

static float pulse_sample(pulse *p, double duty) {
    p->phase += p->hertz / RATE;
    p->phase -= floor(p->phase);
    float v = (float)((p->phase < duty ? 1.0 : -1.0) * p->level);
    p->level *= 0.99985; /* a short decay, as a chip's volume envelope steps down */
    return v;
}

/* Makes `frames` stereo frames: the lead a little left, the bass a little right, the drum centred. */
static void chip_render(chip *c, float *out, int frames) {
    for (int i = 0; i < frames; i++, c->frame++) {
        long step = (long)(c->frame / (STEP_SECONDS * RATE));
        if (c->frame % (long)(STEP_SECONDS * RATE) == 0) {
            int note = melody[step % (STEPS_PER_BAR * 2)];
            if (note) {
                c->lead.hertz = note_hertz(note);
                c->lead.level = 0.18;
            }
            if (step % 4 == 0) {
                c->low.hertz = note_hertz(bass[(step / STEPS_PER_BAR) % 4]);
                c->low.level = 0.2;
            }
            if (step % 4 == 2) c->noise_level = 0.15;
        }
        c->noise_clock += 8000.0 / RATE;
        if (c->noise_clock >= 1) {
            c->noise_clock -= 1;
            unsigned bit = (c->lfsr ^ (c->lfsr >> 1)) & 1u;
            c->lfsr = (uint16_t)((c->lfsr >> 1) | (bit << 14));
            c->noise_value = (c->lfsr & 1) ? 1.0f : -1.0f;
        }
        float noise = c->noise_value * (float)c->noise_level;
        c->noise_level *= 0.9995;
        float lead = pulse_sample(&c->lead, 0.25), low = pulse_sample(&c->low, 0.5);
        out[2 * i] = 0.7f * lead + 0.3f * low + noise;
        out[2 * i + 1] = 0.3f * lead + 0.7f * low + noise;
    }
}

static void nap(double seconds) {
    struct timespec t = {0, (long)(seconds * 1e9)};
    nanosleep(&t, NULL);
}

int main(int argc, char **argv) {
    const char *out_path = argc > 1 ? argv[1] : NULL;
    ss_engine *engine = NULL;
    if (ss_open(&engine, out_path ? "offline:48000" : "auto", NULL) != SS_OK) {
        fprintf(stderr, "stream: %s\n", ss_last_error());
        return 1;
    }
    ss_stream *stream = NULL;
    if (ss_stream_open(engine, 2, RATE, NULL, &stream) != SS_OK) {
        fprintf(stderr, "stream: %s\n", ss_last_error());
        ss_close(engine);
        return 1;
    }
    FILE *out = out_path ? fopen(out_path, "wb") : NULL;
    if (out_path && !out) {
        perror(out_path);
        return 1;
    }
    chip c = {.lfsr = 1};
    float piece[2 * PIECE], mixed[2 * PIECE];
    const long total = (long)(BARS * STEPS_PER_BAR * STEP_SECONDS * RATE);
    long made = 0, heard = 0;
    while (made < total || (out && heard < made)) {
        if (made < total && ss_stream_queued(stream) < 4 * PIECE) {
            chip_render(&c, piece, PIECE);
            made += ss_stream_write(stream, piece, PIECE);
            continue;
        }
        if (out) {
            /* Offline: the game's frame loop renders what it has written. */
            ss_render(engine, mixed, PIECE);
            fwrite(mixed, sizeof(float), 2 * PIECE, out);
            heard += PIECE;
        } else {
            nap(0.002);
        }
    }
    if (!out) {
        while (ss_stream_queued(stream) > 0) nap(0.01);
    }
    printf("stream: %ld frames of chiptune written, underruns %d, refused %d\n", made, ss_stream_underruns(stream),
           ss_stream_refused(stream));
    ss_stream_close(stream);
    ss_close(engine);
    if (out) fclose(out);
    return 0;
}
