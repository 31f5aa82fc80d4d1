#ifndef SOUNDSTATION_RAW_OPENAL_BENCH_H
#define SOUNDSTATION_RAW_OPENAL_BENCH_H

/* The floor: what a C programmer writes directly on OpenAL Soft and libvorbis, for each case the
   engine is measured on. Every OpenAL call is checked; a failure ends the program with its name. */

#define AL_ALEXT_PROTOTYPES 1
#include <AL/al.h>
#include <AL/alc.h>
#include <AL/alext.h>
#include <stddef.h>

#include "bench_support.h"

#define RAW_PEER "raw-openal"
#define RAW_RATE 48000
#define RAW_PI 3.14159265358979323846f

/* An open device and its context, made current for the process. */
typedef struct {
    ALCdevice *device;
    ALCcontext *context;
} raw_output;

/* OpenAL Soft's loopback device rendering float stereo at RAW_RATE, limiter and HRTF off (the
   engine's offline settings). */
raw_output raw_open_loopback(void);
/* The default playback device with the engine's device settings (limiter on, HRTF off). */
raw_output raw_open_device(void);
void raw_close(raw_output output);

/* Ends the program when OpenAL has an error pending, naming `call`. */
void raw_check_al(const char *call);
void raw_check_alc(ALCdevice *device, const char *call);

/* A source set up as the engine sets up its voices: relative, no distance roll-off. */
ALuint raw_make_source(void);
/* Positions a mono source as the engine pans: -1 left, 0 centre, 1 right. */
void raw_pan(ALuint source, float pan);

/* Decodes a WAV (8/16/24/32-bit integer or 32-bit float) or Ogg Vorbis file into a new buffer. */
ALuint raw_load_buffer(const char *path);
/* Opens an Ogg Vorbis file and reads its length, as a game does before streaming it. */
void raw_open_stream(const char *path);

/* Decoded WAV audio as float samples. */
typedef struct {
    int rate;
    int channels;
    size_t frames;
    float *samples;
} raw_pcm;

/* Reads a WAV file into floats (for the encoder case). */
raw_pcm raw_read_wav_float(const char *path);

/* The mix cases' material (cases.c): four one-second sine tones at half scale, 220, 440, 660 and
   880 Hz, as the engine side makes them, and 10 s renders on a loopback device. */
#define RAW_TONES 4
#define RAW_MIX_FRAMES (RAW_RATE * 10)
/* One second of tone `k` (0..3) into `samples` (RAW_RATE floats). */
void raw_tone_samples(int k, float *samples);
/* The four tones, each in a new mono float buffer. */
void raw_make_tones(ALuint tones[RAW_TONES]);
/* Voice `v` of `voices` as the mix cases play it: gain 0.8 / voices, spread left to right. */
void raw_start_mix_voice(ALuint source, int v, int voices);
/* mix-N's `voices` looping sources over `tones`, set up and not yet playing (malloc'd; the caller
 * frees it). */
ALuint *raw_make_mix_voices(const ALuint tones[RAW_TONES], int voices);
/* Renders 10 s in `chunk`-frame calls, calling `between(context)` (when not NULL) after each, and
   returns the CPU time in ms. */
double raw_render_ms(raw_output output, float *out, int chunk, void (*between)(void *), void *context);

/* The cases; each prints its JSON lines. */
void raw_case_preload(const char *list, const char *case_name, int runs);
void raw_case_trigger(const char *sound, int runs);
void raw_case_mix(int runs);
void raw_case_encode(const char *speech, const char *out, int runs);
void raw_case_latency(int runs);
/* filter-lowpass-N and filter-reverb-N (filter.c): `only` as bench_wants takes it. */
void raw_case_filter(const char *only, int runs);
/* The device cases that run for seconds (load.c); `work` is the workspace folder. */
void raw_case_trigger_under_load(const char *work, int runs, int seconds);
void raw_case_idle_music(const char *work, int runs, int seconds);
/* idle-device (active 0) and idle-device-active (active 1): CPU per second of a device open with
   nothing playing, with an alListener3f every 0.5 s when active. */
void raw_case_idle_device(const char *name, int active, int runs, int seconds);
void raw_startup(const char *list, const char *out);

#endif
