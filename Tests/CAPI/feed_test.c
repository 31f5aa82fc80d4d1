/* Sounds from memory and streams a game feeds, on real audio rendered offline:
 * a file's bytes render the same samples as the file, raw PCM renders as written, a fed stream
 * renders sample-exactly, a full queue refuses and counts, bad arguments are clear errors.
 * Usage: feed_test DIR   (DIR holds tone.wav, tone.ogg, tone.flac, tone.opus, tone.mp3: the same
 * tone in each format the engine reads, made by Scripts/e2e-feed.sh) */
#define _POSIX_C_SOURCE 200809L
#include <soundstation.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

enum { RATE = 48000 };
static const double PI = 3.14159265358979323846;

static ss_engine *open_offline(void) {
    ss_engine *engine = NULL;
    if (ss_open(&engine, "offline:48000", NULL) != SS_OK || engine == NULL) {
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

static double rms(const float *s, long samples) {
    double sum = 0;
    for (long i = 0; i < samples; i++) sum += (double)s[i] * s[i];
    return samples > 0 ? sqrt(sum / (double)samples) : 0;
}

/* The frequency of channel `c` of stereo `s` by upward zero crossings. */
static double hertz(const float *s, long frames, int c) {
    long first = -1, last = -1, count = 0;
    for (long i = 1; i < frames; i++) {
        if (s[2 * (i - 1) + c] < 0 && s[2 * i + c] >= 0) {
            if (first < 0) first = i;
            last = i;
            count++;
        }
    }
    return count > 1 ? (double)(count - 1) * RATE / (double)(last - first) : 0;
}

static unsigned char *read_all(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *bytes = malloc((size_t)n);
    *size = fread(bytes, 1, (size_t)n, f) == (size_t)n ? (size_t)n : 0;
    fclose(f);
    return bytes;
}

/* Plays sound `id` once and renders `frames`. */
static float *play_and_render(ss_engine *engine, int id, long frames) {
    CHECK(ss_play(engine, id, 1, 1, 0) == SS_OK, "play %d", id);
    return render(engine, frames);
}

/* ---- Sounds from memory ---- */

/* Each format: the file's bytes from memory render exactly what the file from disk renders. */
static void memory_matches_disk(const char *dir) {
    const char *formats[] = {"wav", "ogg", "flac", "opus", "mp3"};
    for (size_t k = 0; k < sizeof formats / sizeof *formats; k++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/tone.%s", dir, formats[k]);
        size_t size = 0;
        unsigned char *bytes = read_all(path, &size);
        CHECK(bytes != NULL && size > 0, "read %s", path);
        if (!bytes || !size) continue;
        const long frames = RATE / 2;
        ss_engine *disk = open_offline();
        int from_disk = ss_load_file(disk, "tone", path);
        CHECK(from_disk >= 0, "%s from disk", formats[k]);
        float *a = play_and_render(disk, from_disk, frames);
        ss_engine *memory = open_offline();
        int from_memory = ss_load_memory(memory, "tone", bytes, size);
        /* The library copied what it needs: the bytes can go at once. */
        memset(bytes, 0, size);
        free(bytes);
        CHECK(from_memory >= 0, "%s from memory", formats[k]);
        float *b = play_and_render(memory, from_memory, frames);
        long differ = 0;
        for (long i = 0; i < frames * 2; i++) differ += a[i] != b[i];
        CHECK(differ == 0, "%s: %ld of %ld samples differ between disk and memory", formats[k], differ, frames * 2);
        CHECK(rms(b, frames * 2) > 0.05, "%s from memory is heard: rms %.4f", formats[k], rms(b, frames * 2));
        CHECK(fabs(hertz(b, frames, 0) - 440) < 3, "%s from memory is 440 Hz: %.1f", formats[k], hertz(b, frames, 0));
        printf("memory %-4s: %zu bytes, samples identical to the file, rms %.4f\n", formats[k], size,
               rms(b, frames * 2));
        free(a);
        free(b);
        ss_close(disk);
        ss_close(memory);
    }
}

/* Raw PCM: float stereo at the engine's rate renders exactly what was written; int16 mono at 22050
 * renders its tone at its pitch; six channels are mixed down (front left full, centre at -3 dB). */
static void pcm_renders(void) {
    ss_engine *engine = open_offline();
    const int frames = RATE / 4;
    float *stereo = malloc(sizeof(float) * 2 * frames);
    for (int i = 0; i < frames; i++) {
        stereo[2 * i] = (float)(0.5 * sin(2 * PI * 440 * i / RATE));
        stereo[2 * i + 1] = (float)(0.25 * sin(2 * PI * 660 * i / RATE));
    }
    int id = ss_load_pcm(engine, "float", stereo, SS_SAMPLE_FLOAT32, frames, 2, RATE);
    CHECK(id >= 0, "float pcm");
    float *out = play_and_render(engine, id, frames);
    long differ = 0;
    double worst = 0;
    for (long i = 0; i < 2L * frames; i++) {
        double d = fabs((double)out[i] - stereo[i]);
        differ += d > 1e-6;
        if (d > worst) worst = d;
    }
    CHECK(differ == 0, "float stereo pcm renders as written: %ld samples differ, worst by %g", differ, worst);
    printf("pcm float32 stereo 48 kHz: rendered as written (worst difference %g)\n", worst);
    free(out);

    const int rate16 = 22050, frames16 = rate16 / 2;
    int16_t *mono = malloc(sizeof(int16_t) * frames16);
    for (int i = 0; i < frames16; i++) mono[i] = (int16_t)lrint(16000 * sin(2 * PI * 1000 * i / rate16));
    int id16 = ss_load_pcm(engine, "int16", mono, SS_SAMPLE_INT16, frames16, 1, rate16);
    free(mono); /* copied */
    CHECK(id16 >= 0, "int16 pcm");
    out = play_and_render(engine, id16, RATE / 2);
    double f = hertz(out, RATE / 2 - 100, 0);
    CHECK(fabs(f - 1000) < 5, "int16 22050 Hz mono plays at its pitch: %.1f Hz", f);
    CHECK(rms(out, RATE) > 0.1, "int16 pcm is heard: rms %.4f", rms(out, RATE));
    printf("pcm int16 mono 22050 Hz: %.1f Hz, rms %.4f\n", f, rms(out, RATE));
    free(out);

    /* 5.1: only front left and centre sound; left hears both, right only the centre at -3 dB. */
    const int frames6 = 4800;
    float *six = calloc((size_t)frames6 * 6, sizeof *six);
    for (int i = 0; i < frames6; i++) {
        six[6 * i + 0] = 0.4f;
        six[6 * i + 2] = 0.2f;
    }
    int id6 = ss_load_pcm(engine, "six", six, SS_SAMPLE_FLOAT32, frames6, 6, RATE);
    free(six);
    CHECK(id6 >= 0, "six channels");
    out = play_and_render(engine, id6, frames6);
    CHECK(fabs(out[2000] - (0.4 + 0.2 * 0.70710678)) < 1e-3 && fabs(out[2001] - 0.2 * 0.70710678) < 1e-3,
          "5.1 downmix: left %.4f right %.4f", out[2000], out[2001]);
    free(out);
    free(stereo);
    ss_close(engine);
}

static void memory_errors(void) {
    ss_engine *engine = open_offline();
    const char junk[] = "this is not audio, only text long enough to be looked at as a file";
    CHECK(ss_load_memory(engine, "junk", junk, sizeof junk) == SS_ERR_DECODE, "junk is a decode error");
    CHECK(strstr(ss_last_error(), "junk") != NULL, "the message names the sound: %s", ss_last_error());
    CHECK(ss_load_memory(engine, "none", NULL, 10) == SS_ERR_INVALID_ARGUMENT, "NULL bytes");
    CHECK(ss_load_memory(engine, "empty", junk, 0) == SS_ERR_INVALID_ARGUMENT, "size 0");
    CHECK(strstr(ss_last_error(), "size 0") != NULL, "names the size: %s", ss_last_error());
    CHECK(ss_load_memory(engine, "", junk, sizeof junk) == SS_ERR_INVALID_ARGUMENT, "empty name");
    CHECK(ss_load_memory(NULL, "x", junk, sizeof junk) == SS_ERR_INVALID_ARGUMENT, "NULL engine");
    float one[2] = {0.1f, 0.2f};
    CHECK(ss_load_pcm(engine, "a", one, SS_SAMPLE_FLOAT32, 1, 2, RATE) >= 0, "one frame");
    CHECK(ss_load_pcm(engine, "a", one, SS_SAMPLE_FLOAT32, 1, 2, RATE) == SS_ERR_INVALID_ARGUMENT, "name in use");
    CHECK(strstr(ss_last_error(), "\"a\"") != NULL, "names the name: %s", ss_last_error());
    CHECK(ss_load_pcm(engine, "b", one, (ss_sample_format)7, 1, 2, RATE) == SS_ERR_INVALID_ARGUMENT, "format 7");
    CHECK(strstr(ss_last_error(), "format 7") != NULL, "names the format: %s", ss_last_error());
    CHECK(ss_load_pcm(engine, "b", one, SS_SAMPLE_FLOAT32, 0, 2, RATE) == SS_ERR_INVALID_ARGUMENT, "0 frames");
    CHECK(ss_load_pcm(engine, "b", one, SS_SAMPLE_FLOAT32, 1, 33, RATE) == SS_ERR_INVALID_ARGUMENT, "33 channels");
    CHECK(strstr(ss_last_error(), "channels 33") != NULL, "names the channels: %s", ss_last_error());
    CHECK(ss_load_pcm(engine, "b", one, SS_SAMPLE_FLOAT32, 1, 2, 999) == SS_ERR_INVALID_ARGUMENT, "rate 999");
    CHECK(ss_load_pcm(engine, "b", NULL, SS_SAMPLE_INT16, 1, 2, RATE) == SS_ERR_INVALID_ARGUMENT, "NULL samples");
    ss_close(engine);
    CHECK(ss_load_memory(engine, "late", junk, sizeof junk) == SS_ERR_CLOSED, "after close");
}

/* ---- Streams ---- */

static float signal_at(long i, int c) {
    return (float)(c == 0 ? 0.5 * sin(2 * PI * 440 * i / RATE) : 0.3 * sin(2 * PI * 550 * i / RATE + 1));
}

/* 2 s of a stereo signal written in 10 ms pieces, 30 ms ahead of 10 ms renders, renders exactly as
 * written from the first frame, with no underrun; after close the voice is silent. */
static void stream_renders_exactly(void) {
    ss_engine *engine = open_offline();
    ss_stream *stream = NULL;
    CHECK(ss_stream_open(engine, 2, RATE, NULL, &stream) == SS_OK && stream, "open");
    const long piece = RATE / 100, total = 2 * RATE;
    float buffer[2 * RATE / 100];
    float *out = calloc((size_t)total * 2, sizeof *out);
    long written = 0;
    for (long rendered = 0; rendered < total; rendered += piece) {
        while (written < rendered + 3 * piece && written < total) {
            for (long i = 0; i < piece; i++)
                for (int c = 0; c < 2; c++) buffer[2 * i + c] = signal_at(written + i, c);
            int taken = ss_stream_write(stream, buffer, (int)piece);
            CHECK(taken == piece, "write took %d of %ld", taken, piece);
            written += piece;
        }
        CHECK(ss_render(engine, out + 2 * rendered, (int)piece) == piece, "render");
    }
    long differ = 0;
    double worst = 0;
    for (long i = 0; i < total; i++)
        for (int c = 0; c < 2; c++) {
            double d = fabs((double)out[2 * i + c] - signal_at(i, c));
            differ += d > 1e-6;
            if (d > worst) worst = d;
        }
    CHECK(differ == 0, "the stream renders as written: %ld samples differ, worst by %g", differ, worst);
    CHECK(ss_stream_underruns(stream) == 0, "underruns %d", ss_stream_underruns(stream));
    CHECK(ss_stream_refused(stream) == 0, "refused %d", ss_stream_refused(stream));
    printf("stream stereo 48 kHz: 2 s in 10 ms pieces rendered sample-exact (worst %g), underruns %d\n", worst,
           ss_stream_underruns(stream));
    /* Starved: the rest plays out, then silence and one underrun; written again, it plays again. */
    float *tail = render(engine, RATE / 10);
    CHECK(rms(tail + 2 * (RATE / 20), RATE / 10) == 0, "silent once dry");
    free(tail);
    CHECK(ss_stream_underruns(stream) == 1, "one underrun after running dry: %d", ss_stream_underruns(stream));
    for (long i = 0; i < piece; i++)
        for (int c = 0; c < 2; c++) buffer[2 * i + c] = signal_at(i, c);
    CHECK(ss_stream_write(stream, buffer, (int)piece) == piece, "write again");
    tail = render(engine, piece);
    CHECK(rms(tail, 2 * piece) > 0.1, "heard again: rms %.3f", rms(tail, 2 * piece));
    free(tail);
    ss_stream_close(stream);
    CHECK(ss_stream_queued(NULL) == SS_ERR_INVALID_ARGUMENT, "queued(NULL)");
    tail = render(engine, RATE / 10);
    CHECK(rms(tail, RATE / 5) == 0, "closed is silent: rms %g", rms(tail, RATE / 5));
    free(tail);
    free(out);
    ss_close(engine);
}

/* A mono stream at 24 kHz on the 48 kHz engine: its tone keeps its pitch (resampled), panned. */
static void stream_resamples(void) {
    ss_engine *engine = open_offline();
    ss_stream_options options;
    CHECK(ss_stream_options_init(&options, sizeof options) == SS_OK, "init");
    CHECK(options.volume == 1 && options.pan == 0 && options.bus == SS_BUS_EFFECTS && options.queue_frames == 0,
          "defaults");
    options.pan = -1;
    ss_stream *stream = NULL;
    CHECK(ss_stream_open(engine, 1, 24000, &options, &stream) == SS_OK, "open at 24 kHz");
    static float tone[24000];
    for (int i = 0; i < 12000; i++) tone[i] = (float)(0.5 * sin(2 * PI * 1000 * i / 24000));
    CHECK(ss_stream_write(stream, tone, 12000) == 12000, "half a second");
    CHECK(ss_stream_queued(stream) == 12000, "queued %d", ss_stream_queued(stream));
    float *out = render(engine, RATE / 2);
    double f = hertz(out + 2 * 1000, RATE / 2 - 2000, 0);
    CHECK(fabs(f - 1000) < 3, "1 kHz at 24 kHz plays at 1 kHz: %.1f", f);
    double left = 0, right = 0;
    for (int i = 1000; i < RATE / 2 - 1000; i++) {
        left += fabs(out[2 * i]);
        right += fabs(out[2 * i + 1]);
    }
    CHECK(right < left * 0.01, "panned left: left %.1f right %.1f", left, right);
    CHECK(ss_stream_queued(stream) < 300, "all heard: queued %d", ss_stream_queued(stream));
    printf("stream mono 24 kHz on 48 kHz: %.1f Hz (resampled by OpenAL Soft)\n", f);
    free(out);
    ss_stream_close(stream);
    ss_close(engine);
}

/* A full queue takes what fits and refuses the rest, counted, without waiting. */
static void full_queue_refuses(void) {
    ss_engine *engine = open_offline();
    ss_stream_options options;
    ss_stream_options_init(&options, sizeof options);
    options.queue_frames = 1000;
    ss_stream *stream = NULL;
    CHECK(ss_stream_open(engine, 1, RATE, &options, &stream) == SS_OK, "open");
    static float ones[1500];
    for (int i = 0; i < 1500; i++) ones[i] = 0.25f;
    CHECK(ss_stream_write(stream, ones, 1500) == 1000, "takes 1000 of 1500");
    CHECK(ss_stream_refused(stream) == 500, "refused %d", ss_stream_refused(stream));
    CHECK(ss_stream_write(stream, ones, 10) == 0, "a full queue takes nothing");
    CHECK(ss_stream_refused(stream) == 510, "refused %d", ss_stream_refused(stream));
    CHECK(ss_stream_queued(stream) == 1000, "queued %d", ss_stream_queued(stream));
    float *out = render(engine, 2000);
    int heard = 0;
    for (int i = 0; i < 2000; i++) heard += out[2 * i] > 0.1f;
    CHECK(heard == 1000, "exactly the 1000 frames taken are heard: %d", heard);
    free(out);
    CHECK(ss_stream_write(stream, ones, 500) == 500, "room again after the render");
    printf("full queue: took 1000 of 1500, refused 510 in all, heard 1000 frames\n");
    ss_stream_close(stream);
    ss_close(engine);
}

static void stream_errors(void) {
    ss_engine *engine = open_offline();
    ss_stream *stream = (ss_stream *)1;
    CHECK(ss_stream_open(engine, 3, RATE, NULL, &stream) == SS_ERR_INVALID_ARGUMENT && stream == NULL, "3 channels");
    CHECK(strstr(ss_last_error(), "channels 3") != NULL, "names channels: %s", ss_last_error());
    CHECK(ss_stream_open(engine, 1, 100, NULL, &stream) == SS_ERR_INVALID_ARGUMENT, "rate 100");
    CHECK(strstr(ss_last_error(), "rate 100") != NULL, "names the rate: %s", ss_last_error());
    CHECK(ss_stream_open(engine, 1, RATE, NULL, NULL) == SS_ERR_INVALID_ARGUMENT, "NULL out");
    CHECK(ss_stream_open(NULL, 1, RATE, NULL, &stream) == SS_ERR_INVALID_ARGUMENT, "NULL engine");
    ss_stream_options options;
    memset(&options, 0, sizeof options);
    CHECK(ss_stream_open(engine, 1, RATE, &options, &stream) == SS_ERR_INVALID_ARGUMENT, "uninitialised options");
    CHECK(strstr(ss_last_error(), "ss_stream_options_init") != NULL, "says to init: %s", ss_last_error());
    ss_stream_options_init(&options, sizeof options);
    options.volume = NAN;
    CHECK(ss_stream_open(engine, 1, RATE, &options, &stream) == SS_ERR_INVALID_ARGUMENT, "NaN volume");
    ss_stream_options_init(&options, sizeof options);
    options.bus = 9;
    CHECK(ss_stream_open(engine, 1, RATE, &options, &stream) == SS_ERR_INVALID_ARGUMENT, "bus 9");
    ss_stream_options_init(&options, sizeof options);
    options.queue_frames = -5;
    CHECK(ss_stream_open(engine, 1, RATE, &options, &stream) == SS_ERR_INVALID_ARGUMENT, "queue -5");
    CHECK(ss_stream_options_init(NULL, sizeof options) == SS_ERR_INVALID_ARGUMENT, "init NULL");
    CHECK(ss_stream_options_init(&options, 2) == SS_ERR_INVALID_ARGUMENT, "init size 2");
    CHECK(ss_stream_open(engine, 1, RATE, NULL, &stream) == SS_OK, "open");
    float x = 0;
    CHECK(ss_stream_write(stream, NULL, 5) == SS_ERR_INVALID_ARGUMENT, "NULL samples");
    CHECK(ss_stream_write(stream, &x, -1) == SS_ERR_INVALID_ARGUMENT, "negative frames");
    CHECK(ss_stream_write(stream, NULL, 0) == 0, "nothing to write");
    CHECK(ss_stream_write(NULL, &x, 1) == SS_ERR_INVALID_ARGUMENT, "NULL stream");
    CHECK(ss_stream_voice(stream) != 0, "has a voice");
    ss_close(engine);
    CHECK(ss_stream_write(stream, &x, 1) == SS_ERR_CLOSED, "write after the engine closed");
    ss_stream_close(stream);
    ss_stream_close(NULL);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: feed_test DIR\n");
        return 2;
    }
    memory_matches_disk(argv[1]);
    pcm_renders();
    memory_errors();
    stream_renders_exactly();
    stream_resamples();
    full_queue_refuses();
    stream_errors();
    printf("%d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}
