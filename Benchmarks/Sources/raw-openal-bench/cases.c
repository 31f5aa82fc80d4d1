#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "raw.h"

void raw_case_preload(const char *list, const char *case_name, int runs) {
    bench_sound *sounds;
    size_t count = bench_read_list(list, &sounds);
    raw_output output = raw_open_loopback();
    ALuint *buffers = calloc(count, sizeof *buffers);
    double *samples = calloc((size_t)runs, sizeof *samples);
    if (!buffers || !samples) bench_die("out of memory");
    for (int run = -1; run < runs; run++) {
        size_t loaded = 0;
        double start = bench_wall_seconds();
        for (size_t i = 0; i < count; i++) {
            if (sounds[i].decode) {
                buffers[loaded++] = raw_load_buffer(sounds[i].path);
            } else {
                raw_open_stream(sounds[i].path);
            }
        }
        double elapsed = bench_wall_seconds() - start;
        if (run >= 0) samples[run] = elapsed * 1e3;
        alDeleteBuffers((ALsizei)loaded, buffers);
        raw_check_al("alDeleteBuffers");
    }
    const char *label = strcmp(case_name, "preload") == 0
                            ? "ov_read + alBufferData, one thread"
                            : "ov_read + alBufferData for effects, ov_fopen + ov_pcm_total for music, one thread";
    bench_emit(case_name, RAW_PEER, "ms", label, samples, (size_t)runs, NULL);
    raw_close(output);
    free(samples);
    free(buffers);
    bench_free_list(sounds, count);
}

/* The voices a trigger may use before it recycles the oldest, as the engine's maxInstances. */
#define TRIGGER_VOICES 32
#define TRIGGERS 10000

void raw_case_trigger(const char *sound, int runs) {
    raw_output output = raw_open_device();
    ALuint buffer = raw_load_buffer(sound);
    ALuint sources[TRIGGER_VOICES];
    int free_list[TRIGGER_VOICES], busy[TRIGGER_VOICES];
    int free_count = TRIGGER_VOICES, busy_head = 0, busy_count = 0;
    for (int i = 0; i < TRIGGER_VOICES; i++) {
        sources[i] = raw_make_source();
        free_list[i] = TRIGGER_VOICES - 1 - i;
    }
    double *samples = calloc((size_t)runs, sizeof *samples);
    if (!samples) bench_die("out of memory");
    for (int run = -1; run < runs; run++) {
        double start = bench_wall_seconds();
        for (int i = 0; i < TRIGGERS; i++) {
            if (free_count == 0) {
                /* Every voice is busy: stop the oldest and reuse it. */
                int oldest = busy[busy_head];
                busy_head = (busy_head + 1) % TRIGGER_VOICES;
                busy_count--;
                alSourceStop(sources[oldest]);
                free_list[free_count++] = oldest;
            }
            int slot = free_list[--free_count];
            ALuint source = sources[slot];
            alSourcei(source, AL_BUFFER, (ALint)buffer);
            alSourcef(source, AL_GAIN, 0.8f);
            alSourcef(source, AL_PITCH, 0.9f + 0.02f * (float)(i % 11));
            raw_pan(source, (float)(i % 21) / 10.0f - 1.0f);
            alSourcePlay(source);
            raw_check_al("trigger (alSourcei/alSourcef/alSource3f/alSourcePlay)");
            busy[(busy_head + busy_count) % TRIGGER_VOICES] = slot;
            busy_count++;
        }
        double elapsed = bench_wall_seconds() - start;
        if (run >= 0) samples[run] = elapsed / TRIGGERS * 1e6;
    }
    bench_emit("trigger", RAW_PEER, "us",
               "free list + alSourcei/f/3f + alSourcePlay (default device)", samples,
               (size_t)runs, NULL);
    /* The engine's trigger-drained row does the same work (its triggers and their execution). */
    bench_emit("trigger-drained", RAW_PEER, "us",
               "free list + alSourcei/f/3f + alSourcePlay (default device), the same runs as trigger",
               samples, (size_t)runs, NULL);
    for (int i = 0; i < TRIGGER_VOICES; i++) alSourceStop(sources[i]);
    alDeleteSources(TRIGGER_VOICES, sources);
    alDeleteBuffers(1, &buffer);
    raw_check_al("alDeleteSources/alDeleteBuffers");
    raw_close(output);
    free(samples);
}

#define MIX_CHUNK 1024
#define MIX_QUANTUM 256

void raw_tone_samples(int k, float *samples) {
    double frequency = 220.0 * (k + 1);
    for (int i = 0; i < RAW_RATE; i++)
        samples[i] = (float)(0.5 * sin(2 * 3.14159265358979323846 * frequency * i / RAW_RATE));
}

void raw_make_tones(ALuint tones[RAW_TONES]) {
    float *samples = malloc(RAW_RATE * sizeof *samples);
    if (!samples) bench_die("out of memory");
    alGenBuffers(RAW_TONES, tones);
    raw_check_al("alGenBuffers");
    for (int k = 0; k < RAW_TONES; k++) {
        raw_tone_samples(k, samples);
        alBufferData(tones[k], AL_FORMAT_MONO_FLOAT32, samples, RAW_RATE * (ALsizei)sizeof *samples,
                     RAW_RATE);
        raw_check_al("alBufferData(tone)");
    }
    free(samples);
}

double raw_render_ms(raw_output output, float *out, int chunk, void (*between)(void *), void *context) {
    double start = bench_cpu_seconds();
    for (int done = 0; done < RAW_MIX_FRAMES; done += chunk) {
        int frames = RAW_MIX_FRAMES - done < chunk ? RAW_MIX_FRAMES - done : chunk;
        alcRenderSamplesSOFT(output.device, out, frames);
        if (between) between(context);
    }
    double elapsed = bench_cpu_seconds() - start;
    raw_check_alc(output.device, "alcRenderSamplesSOFT");
    return elapsed * 1e3;
}

void raw_start_mix_voice(ALuint source, int v, int voices) {
    alSourcef(source, AL_GAIN, 0.8f / (float)voices);
    raw_pan(source, voices == 1 ? 0.0f : -1.0f + 2.0f * (float)v / (float)(voices - 1));
}

ALuint *raw_make_mix_voices(const ALuint tones[RAW_TONES], int voices) {
    ALuint *sources = malloc((size_t)voices * sizeof *sources);
    if (!sources) bench_die("out of memory");
    for (int v = 0; v < voices; v++) {
        sources[v] = raw_make_source();
        alSourcei(sources[v], AL_BUFFER, (ALint)tones[v % RAW_TONES]);
        alSourcei(sources[v], AL_LOOPING, AL_TRUE);
        raw_start_mix_voice(sources[v], v, voices);
    }
    raw_check_al("alSource(mix voice)");
    return sources;
}

void raw_case_mix(int runs) {
    static const int counts[] = {1, 16, 64, 255};
    float *out = malloc(MIX_CHUNK * 2 * sizeof *out);
    double *samples = calloc((size_t)runs, sizeof *samples);
    double *quantum_samples = calloc((size_t)runs, sizeof *quantum_samples);
    if (!out || !samples || !quantum_samples) bench_die("out of memory");
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        int voices = counts[c];
        raw_output output = raw_open_loopback();
        ALuint tones[RAW_TONES];
        raw_make_tones(tones);
        ALuint *sources = raw_make_mix_voices(tones, voices);
        alSourcePlayv(voices, sources);
        raw_check_al("alSourcePlayv(mix voices)");
        alcRenderSamplesSOFT(output.device, out, MIX_CHUNK);
        /* The same renders, and the engine's call pattern: 256-frame calls (its housekeeping quantum). */
        for (int run = -1; run < runs; run++) {
            double whole = raw_render_ms(output, out, MIX_CHUNK, NULL, NULL);
            double quantum = raw_render_ms(output, out, MIX_QUANTUM, NULL, NULL);
            if (run >= 0) {
                samples[run] = whole;
                quantum_samples[run] = quantum;
            }
        }
        char name[32];
        snprintf(name, sizeof name, "mix-%d", voices);
        bench_emit(name, RAW_PEER, "ms",
                   "alcRenderSamplesSOFT, 1024-frame calls (CPU time for 10 s)", samples,
                   (size_t)runs, NULL);
        bench_emit(name, RAW_PEER "-256", "ms", "alcRenderSamplesSOFT, 256-frame calls (CPU time for 10 s)",
                   quantum_samples, (size_t)runs, NULL);
        for (int v = 0; v < voices; v++) alSourceStop(sources[v]);
        alDeleteSources(voices, sources);
        alDeleteBuffers(RAW_TONES, tones);
        raw_check_al("alDeleteSources/alDeleteBuffers");
        free(sources);
        raw_close(output);
    }
    free(quantum_samples);
    free(samples);
    free(out);
}

/* Frames from a play call to the first non-zero output frame, on the loopback device. */
static double loopback_latency(raw_output output, ALuint source, int lead) {
    float *out = malloc((size_t)(lead > MIX_CHUNK ? lead : MIX_CHUNK) * 2 * sizeof *out);
    if (!out) bench_die("out of memory");
    alcRenderSamplesSOFT(output.device, out, lead);
    alSourcePlay(source);
    raw_check_al("alSourcePlay");
    alcRenderSamplesSOFT(output.device, out, MIX_CHUNK);
    raw_check_alc(output.device, "alcRenderSamplesSOFT");
    int first = -1;
    for (int i = 0; i < MIX_CHUNK && first < 0; i++) {
        if (out[2 * i] != 0.0f || out[2 * i + 1] != 0.0f) first = i;
    }
    alSourceStop(source);
    alcRenderSamplesSOFT(output.device, out, 256);
    free(out);
    if (first < 0) bench_die("no sound within %d frames of alSourcePlay on the loopback device", MIX_CHUNK);
    return first;
}

void raw_case_latency(int runs) {
    double *samples = calloc((size_t)runs, sizeof *samples);
    if (!samples) bench_die("out of memory");
    raw_output loopback = raw_open_loopback();
    float level[4800];
    for (int i = 0; i < 4800; i++) level[i] = 0.5f;
    ALuint buffer;
    alGenBuffers(1, &buffer);
    alBufferData(buffer, AL_FORMAT_MONO_FLOAT32, level, (ALsizei)sizeof level, RAW_RATE);
    raw_check_al("alBufferData(latency)");
    ALuint source = raw_make_source();
    alSourcei(source, AL_BUFFER, (ALint)buffer);
    raw_check_al("alSourcei(AL_BUFFER)");
    for (int run = -1; run < runs; run++) {
        double frames = loopback_latency(loopback, source, 1000 + 37 * (run + 1));
        if (run >= 0) samples[run] = frames;
    }
    bench_emit("latency-loopback", RAW_PEER, "frames",
               "alSourcePlay between two alcRenderSamplesSOFT calls", samples,
               (size_t)runs, NULL);
    alDeleteSources(1, &source);
    alDeleteBuffers(1, &buffer);
    raw_check_al("alDeleteSources/alDeleteBuffers");
    raw_close(loopback);

    /* The real device path: OpenAL Soft mixes one period (update) at a time. */
    for (int run = -1; run < runs; run++) {
        raw_output device = raw_open_device();
        ALCint refresh = 0, frequency = 0;
        alcGetIntegerv(device.device, ALC_REFRESH, 1, &refresh);
        alcGetIntegerv(device.device, ALC_FREQUENCY, 1, &frequency);
        raw_check_alc(device.device, "alcGetIntegerv(ALC_REFRESH/ALC_FREQUENCY)");
        if (refresh <= 0 || frequency <= 0)
            bench_die("the default device reports refresh %d Hz, rate %d Hz", refresh, frequency);
        if (run >= 0) samples[run] = 1000.0 / refresh;
        raw_close(device);
    }
    bench_emit("latency-device", RAW_PEER, "ms",
               "OpenAL period on the default device: 1000 / ALC_REFRESH", samples,
               (size_t)runs, NULL);
    free(samples);
}

static void put_le(unsigned char *at, unsigned int value, int bytes) {
    for (int b = 0; b < bytes; b++) at[b] = (unsigned char)(value >> (8 * b));
}

/* A stereo 32-bit float WAV, as `soundstation render --out` writes. */
static void write_float_wav(const char *path, const float *samples, unsigned int frames) {
    unsigned int data = frames * 2 * (unsigned int)sizeof(float);
    unsigned char header[44];
    memcpy(header, "RIFF", 4);
    put_le(header + 4, 36 + data, 4);
    memcpy(header + 8, "WAVEfmt ", 8);
    put_le(header + 16, 16, 4);
    put_le(header + 20, 3, 2); /* IEEE float */
    put_le(header + 22, 2, 2);
    put_le(header + 24, RAW_RATE, 4);
    put_le(header + 28, RAW_RATE * 8, 4);
    put_le(header + 32, 8, 2);
    put_le(header + 34, 32, 2);
    memcpy(header + 36, "data", 4);
    put_le(header + 40, data, 4);
    FILE *file = fopen(path, "wb");
    if (!file) bench_die("cannot create %s", path);
    if (fwrite(header, 1, sizeof header, file) != sizeof header ||
        fwrite(samples, sizeof(float) * 2, frames, file) != frames || fclose(file) != 0)
        bench_die("cannot write %s", path);
}

void raw_startup(const char *list, const char *out_path) {
    bench_sound *sounds;
    size_t count = bench_read_list(list, &sounds);
    raw_output output = raw_open_loopback();
    ALuint *buffers = calloc(count, sizeof *buffers);
    if (!buffers) bench_die("out of memory");
    size_t loaded = 0;
    for (size_t i = 0; i < count; i++) {
        if (sounds[i].decode) {
            buffers[loaded++] = raw_load_buffer(sounds[i].path);
        } else {
            raw_open_stream(sounds[i].path);
        }
    }
    enum { FRAMES = 480 };
    float mix[FRAMES * 2];
    alcRenderSamplesSOFT(output.device, mix, FRAMES);
    raw_check_alc(output.device, "alcRenderSamplesSOFT");
    write_float_wav(out_path, mix, FRAMES);
    alDeleteBuffers((ALsizei)loaded, buffers);
    raw_check_al("alDeleteBuffers");
    raw_close(output);
    free(buffers);
    bench_free_list(sounds, count);
}
