/* MIDI and chiptune songs through the C library, on offline renders measured by their samples: a MIDI
 * file of quarter notes at 120 bpm (ss_load_music_file) starts a note every 0.5 s at its pitch, and a
 * VGM log in a catalogue (with "track": 1) plays its intro, then loops at its loop offset. Both files
 * are written here, byte by byte.
 * Usage: songs_test WORK_DIR  (exit 1 when a check fails; 77 when no General MIDI SoundFont is there) */
#define _POSIX_C_SOURCE 200809L
#include <soundstation.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

enum { RATE = 48000, BEAT = 24000 };
static const double PI = 3.14159265358979323846;
static const int NOTES[4] = {57, 64, 69, 72};
static char work[512];

static double note_hertz(int note) { return 440.0 * pow(2.0, (note - 69) / 12.0); }

static const char *write_file(const char *name, const unsigned char *bytes, size_t count) {
    static char path[600];
    snprintf(path, sizeof path, "%s/%s", work, name);
    FILE *f = fopen(path, "wb");
    if (f == NULL || fwrite(bytes, 1, count, f) != count) {
        printf("FAIL cannot write %s\n", path);
        exit(1);
    }
    fclose(f);
    return path;
}

/* ---- A format-0 MIDI file: 480 ticks a beat, 120 bpm, the piano; each note 0.4 s of its 0.5 s ---- */

static size_t quantity(unsigned char *out, unsigned value) {
    unsigned char bytes[4];
    size_t n = 0;
    bytes[n++] = value & 0x7F;
    while ((value >>= 7) != 0) bytes[n++] = 0x80 | (value & 0x7F);
    for (size_t i = 0; i < n; i++) out[i] = bytes[n - 1 - i];
    return n;
}

static size_t midi_song(unsigned char *file) {
    unsigned char events[256];
    size_t n = 0;
    const unsigned char start[] = {0x00, 0xFF, 0x51, 0x03, 0x07, 0xA1, 0x20, 0x00, 0xC0, 0x00};
    memcpy(events, start, sizeof start);
    n += sizeof start;
    for (int i = 0; i < 4; i++) {
        events[n++] = 0x00; events[n++] = 0x90; events[n++] = (unsigned char)NOTES[i]; events[n++] = 100;
        n += quantity(events + n, 384);
        events[n++] = 0x80; events[n++] = (unsigned char)NOTES[i]; events[n++] = 0;
        if (i < 3) {
            n += quantity(events + n, 96);
            events[n++] = 0xFF; events[n++] = 0x01; events[n++] = 0x00;
        }
    }
    n += quantity(events + n, 96);
    events[n++] = 0xFF; events[n++] = 0x2F; events[n++] = 0x00;
    const unsigned char header[] = {'M', 'T', 'h', 'd', 0, 0, 0, 6, 0, 0, 0, 1, 0x01, 0xE0, 'M', 'T', 'r', 'k'};
    memcpy(file, header, sizeof header);
    size_t at = sizeof header;
    file[at++] = 0; file[at++] = 0; file[at++] = (unsigned char)(n >> 8); file[at++] = (unsigned char)n;
    memcpy(file + at, events, n);
    return at + n;
}

/* ---- A VGM 1.50 log for the SN76489: 1 s at 440 Hz, then the loop: 660 Hz and 880 Hz, 0.5 s each ---- */

static void le(unsigned char *at, unsigned long value, int bytes) {
    for (int i = 0; i < bytes; i++) at[i] = (unsigned char)(value >> (8 * i));
}

static size_t tone(unsigned char *out, double hertz) {
    int period = (int)lround(3579545.0 / (32 * hertz));
    out[0] = 0x50; out[1] = (unsigned char)(0x80 | (period & 0x0F));
    out[2] = 0x50; out[3] = (unsigned char)((period >> 4) & 0x3F);
    return 4;
}

static size_t wait_seconds(unsigned char *out, double seconds) {
    out[0] = 0x61;
    le(out + 1, (unsigned long)lround(seconds * 44100), 2);
    return 3;
}

static size_t vgm_song(unsigned char *file) {
    memset(file, 0, 0x40);
    size_t n = 0x40;
    file[n++] = 0x50; file[n++] = 0x90;
    n += tone(file + n, 440);
    n += wait_seconds(file + n, 1.0);
    size_t loop = n;
    n += tone(file + n, 660);
    n += wait_seconds(file + n, 0.5);
    n += tone(file + n, 880);
    n += wait_seconds(file + n, 0.5);
    file[n++] = 0x66;
    memcpy(file, "Vgm ", 4);
    le(file + 0x04, n - 4, 4);
    le(file + 0x08, 0x150, 4);
    le(file + 0x0C, 3579545, 4);
    le(file + 0x18, 2 * 44100, 4);
    le(file + 0x1C, loop - 0x1C, 4);
    le(file + 0x20, 44100, 4);
    le(file + 0x24, 60, 4);
    le(file + 0x28, 9, 2);
    file[0x2A] = 16;
    le(file + 0x34, 0x40 - 0x34, 4);
    return n;
}

/* ---- Measures ---- */

static float *render(ss_engine *engine, long frames) {
    float *out = malloc(sizeof(float) * 2 * (size_t)frames);
    if (out == NULL) exit(1);
    for (long done = 0; done < frames;) {
        int step = frames - done > 4800 ? 4800 : (int)(frames - done);
        if (ss_render(engine, out + 2 * done, step) != step) {
            printf("FAIL ss_render: %s\n", ss_last_error());
            exit(1);
        }
        done += step;
    }
    return out;
}

/* The magnitude of `hertz` on the left channel over frames [start, start + count). */
static double magnitude(const float *s, long start, long count, double hertz) {
    double re = 0, im = 0;
    for (long i = 0; i < count; i++) {
        double phase = 2 * PI * hertz * (double)i / RATE;
        re += s[2 * (start + i)] * cos(phase);
        im -= s[2 * (start + i)] * sin(phase);
    }
    return sqrt(re * re + im * im) / (double)count;
}

static double window_rms(const float *s, long start) {
    double sum = 0;
    for (long i = start; i < start + 96; i++) sum += s[2 * i] * s[2 * i];
    return sqrt(sum / 96);
}

/* The first 1 ms step from 50 ms before `beat` louder than a third of the loudest 2 ms window in the
 * 0.1 s after it. */
static long onset(const float *s, long beat) {
    double loudest = 0;
    for (long at = beat; at < beat + 4800; at += 48)
        if (window_rms(s, at) > loudest) loudest = window_rms(s, at);
    for (long at = beat > 2400 ? beat - 2400 : 0; at < beat + 4800; at += 48)
        if (window_rms(s, at) > loudest / 3) return at;
    return -1;
}

static void midi_quarter_notes(void) {
    unsigned char song[512];
    const char *path = write_file("song.mid", song, midi_song(song));
    ss_engine *engine = NULL;
    CHECK(ss_open(&engine, "offline:48000", NULL) == SS_OK, "offline engine");
    CHECK(ss_load_music_file(engine, "tune", path) >= 0, "the MIDI file loads");
    CHECK(ss_music(engine, "tune", 0) == SS_OK, "it plays");
    float *s = render(engine, RATE * 5 / 2);
    long starts[4];
    for (int i = 0; i < 4; i++) starts[i] = onset(s, (long)i * BEAT);
    CHECK(starts[0] >= 0 && starts[0] <= 240, "the first note starts at frame %ld", starts[0]);
    for (int i = 1; i < 4; i++)
        CHECK(labs(starts[i] - starts[i - 1] - BEAT) <= 240, "note %d starts %ld frames after the one before", i,
              starts[i] - starts[i - 1]);
    for (int i = 0; i < 4; i++) {
        long start = (long)i * BEAT + 2400;
        double wanted = magnitude(s, start, 9600, note_hertz(NOTES[i]));
        double below = magnitude(s, start, 9600, note_hertz(NOTES[i] - 1));
        double above = magnitude(s, start, 9600, note_hertz(NOTES[i] + 1));
        CHECK(wanted > 3 * below && wanted > 3 * above && wanted > 0.002,
              "note %d at its pitch: %.4f against %.4f and %.4f a semitone away", NOTES[i], wanted, below, above);
    }
    free(s);
    ss_close(engine);
}

static int strongest(const float *s, double seconds) {
    const int tones[3] = {440, 660, 880};
    int best = 0;
    for (int i = 1; i < 3; i++)
        if (magnitude(s, (long)(seconds * RATE), 4800, tones[i]) > magnitude(s, (long)(seconds * RATE), 4800, tones[best]))
            best = i;
    return tones[best];
}

static void vgm_loops(void) {
    unsigned char song[256];
    write_file("song.vgm", song, vgm_song(song));
    const char catalogue[] = "{\"sounds\": [{\"name\": \"chip\", \"path\": \"song.vgm\", \"kind\": \"music\", \"track\": 1},"
                             " {\"name\": \"two\", \"path\": \"song.vgm\", \"kind\": \"music\", \"track\": 2}]}";
    write_file("catalogue.json", (const unsigned char *)catalogue, sizeof catalogue - 1);
    ss_engine *engine = NULL;
    CHECK(ss_open(&engine, "offline:48000", work) == SS_OK, "offline engine on the catalogue");
    const char *chip[] = {"chip"};
    CHECK(ss_preload(engine, chip, 1, NULL, NULL) == SS_OK, "the VGM loads");
    const char *two[] = {"two"};
    CHECK(ss_preload(engine, two, 1, NULL, NULL) == SS_ERR_DECODE && strstr(ss_last_error(), "not track 2"),
          "a track the file does not hold is an error naming it");
    CHECK(ss_music(engine, "chip", 0) == SS_OK, "it plays");
    float *s = render(engine, RATE * 4);
    const double at[7] = {0.3, 1.2, 1.7, 2.2, 2.7, 3.2, 3.7};
    const int wanted[7] = {440, 660, 880, 660, 880, 660, 880};
    for (int i = 0; i < 7; i++)
        CHECK(strongest(s, at[i]) == wanted[i], "%.1f s: %d Hz, not %d (after 2 s the loop, never the intro)", at[i],
              strongest(s, at[i]), wanted[i]);
    free(s);
    ss_close(engine);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: songs_test WORK_DIR\n");
        return 2;
    }
    snprintf(work, sizeof work, "%s", argv[1]);
    vgm_loops();
    if (access("/usr/share/sounds/sf2/default-GM.sf2", R_OK) == 0 || access("/usr/share/sounds/sf2/TimGM6mb.sf2", R_OK) == 0) {
        midi_quarter_notes();
    } else {
        printf("SKIP the MIDI checks: no General MIDI SoundFont (Debian's timgm6mb-soundfont)\n");
    }
    printf("%d checks, %d failures\n", checks, failures);
    return failures == 0 ? 0 : 1;
}
