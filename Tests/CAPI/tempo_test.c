/* Music speed without pitch from C (ss_set_music_speed, ss_play_options.pitch_shift), on offline
 * renders: a 440 Hz tone track at speed 1.25 stays at 440 Hz and lasts 0.8 times as long; at 0.8 it
 * lasts 1.25 times; a pitch shift of 12 semitones doubles an effect's frequency and keeps its length;
 * bad values are errors naming them. Usage: tempo_test WORK_DIR */
#define _POSIX_C_SOURCE 200809L
#include <soundstation.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

enum { RATE = 48000 };
static const double PI = 3.14159265358979323846;

static void put16(FILE *f, unsigned v) { fputc(v & 0xFF, f); fputc((v >> 8) & 0xFF, f); }
static void put32(FILE *f, unsigned long v) { put16(f, v & 0xFFFF); put16(f, (v >> 16) & 0xFFFF); }

/* Writes a mono 16-bit WAV of a 440 Hz sine at half scale lasting `seconds`. */
static int write_tone(const char *path, double seconds) {
    FILE *f = fopen(path, "wb");
    if (f == NULL) return 0;
    unsigned long frames = (unsigned long)(seconds * RATE);
    fwrite("RIFF", 1, 4, f);
    put32(f, 36 + frames * 2);
    fwrite("WAVEfmt ", 1, 8, f);
    put32(f, 16);
    put16(f, 1);
    put16(f, 1);
    put32(f, RATE);
    put32(f, RATE * 2);
    put16(f, 2);
    put16(f, 16);
    fwrite("data", 1, 4, f);
    put32(f, frames * 2);
    for (unsigned long i = 0; i < frames; i++) {
        put16(f, (unsigned)(int)lround(16383.0 * sin(2 * PI * 440.0 * (double)i / RATE)) & 0xFFFF);
    }
    return fclose(f) == 0;
}

/* The frame after the last left sample louder than 0.05. */
static int end_of(const float *mix, int frames) {
    int end = frames;
    while (end > 0 && fabsf(mix[(end - 1) * 2]) < 0.05f) end--;
    return end;
}

/* The frequency from rising zero crossings of the left channel over [from, to). */
static double frequency_of(const float *mix, int from, int to) {
    int first = -1, last = -1, count = 0;
    for (int i = from + 1; i < to; i++) {
        if (mix[(i - 1) * 2] < 0 && mix[i * 2] >= 0) {
            if (first < 0) first = i;
            last = i;
            count++;
        }
    }
    return count < 2 ? 0 : (double)(count - 1) * RATE / (double)(last - first);
}

static void speed_case(const char *tone, double speed) {
    ss_engine *e = NULL;
    CHECK(ss_open(&e, "offline:48000", NULL) == SS_OK, "open");
    CHECK(ss_load_music_file(e, "tone", tone) >= 0, "load the tone");
    CHECK(ss_set_music_speed(e, speed, 0) == SS_OK, "speed %.2f", speed);
    ss_music_options options;
    ss_music_options_init(&options, sizeof options);
    options.loops = 0;
    CHECK(ss_music_with(e, "tone", &options) == SS_OK, "play the tone once");
    int frames = 4 * RATE;
    float *mix = calloc((size_t)frames * 2, sizeof *mix);
    CHECK(ss_render(e, mix, frames) == frames, "render");
    double length = end_of(mix, frames) / (double)RATE;
    CHECK(fabs(length - 2.0 / speed) < 0.02, "speed %.2f: lasted %.3f s, expected %.3f", speed, length, 2.0 / speed);
    double hz = frequency_of(mix, RATE / 5, (int)((2.0 / speed - 0.2) * RATE));
    CHECK(fabs(hz - 440) < 1, "speed %.2f: %.2f Hz", speed, hz);
    free(mix);
    ss_close(e);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        printf("usage: tempo_test WORK_DIR\n");
        return 2;
    }
    char tone[1024];
    snprintf(tone, sizeof tone, "%s/tone.wav", argv[1]);
    if (!write_tone(tone, 2)) {
        printf("FAIL: cannot write %s\n", tone);
        return 1;
    }
    speed_case(tone, 1.25);
    speed_case(tone, 0.8);

    ss_engine *e = NULL;
    CHECK(ss_open(&e, "offline:48000", NULL) == SS_OK, "open");
    CHECK(ss_set_music_speed(e, 3, 0) == SS_ERR_INVALID_ARGUMENT, "speed 3 is refused");
    CHECK(strstr(ss_last_error(), "music speed 3") != NULL, "the error names the speed: %s", ss_last_error());
    CHECK(ss_set_music_speed(e, 1.5, -1) == SS_ERR_INVALID_ARGUMENT, "a negative tween is refused");
    CHECK(ss_set_music_speed(NULL, 1, 0) == SS_ERR_INVALID_ARGUMENT, "NULL engine");

    /* An octave up without a change of length. */
    int id = ss_load_file(e, "beep", tone);
    CHECK(id >= 0, "load the tone as an effect");
    ss_play_options play;
    ss_play_options_init(&play, sizeof play);
    CHECK(play.pitch_shift == 0, "pitch_shift defaults to 0");
    play.pitch_shift = 30;
    CHECK(ss_play_voice(e, id, &play, NULL) == SS_ERR_INVALID_ARGUMENT, "a shift of 30 is refused");
    CHECK(strstr(ss_last_error(), "pitch_shift") != NULL, "the error names pitch_shift: %s", ss_last_error());
    play.pitch_shift = 12;
    CHECK(ss_play_voice(e, id, &play, NULL) == SS_OK, "play shifted");
    int frames = 3 * RATE;
    float *mix = calloc((size_t)frames * 2, sizeof *mix);
    CHECK(ss_render(e, mix, frames) == frames, "render");
    double hz = frequency_of(mix, RATE / 10, RATE);
    CHECK(fabs(hz - 880) < 1, "shifted an octave: %.2f Hz", hz);
    double length = end_of(mix, frames) / (double)RATE;
    CHECK(fabs(length - 2) < 0.02, "shifted, it lasted %.3f s", length);
    free(mix);
    ss_close(e);

    printf("%s: tempo tests\n", failures == 0 ? "ok" : "FAILED");
    return failures == 0 ? 0 : 1;
}
