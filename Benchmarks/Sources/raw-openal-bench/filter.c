/* The floor for the engine's filter rows: mix-N's voices (cases.c) with the same colour, written
   directly on OpenAL Soft as a C programmer would.

   - filter-reverb-N: every source sends to one auxiliary effect slot holding OpenAL's standard
     reverb (AL_EFFECT_REVERB) with efx-presets.h's cave, as the engine's EFXSlots sets it (slot gain
     1, the dry path unfiltered, a send at full level);
   - filter-lowpass-N: every voice fed through 4 queued buffers of 1024 frames (as the engine's
     FilteredFeeder queues them), each block run through a 1 kHz RBJ low-pass (the engine's
     Colour/Biquad.swift coefficients, doubles, a plain scalar loop) before alBufferData, and the
     buffers OpenAL has finished refilled after every render.

   Each also renders 1 s after its runs and reports the render's RMS (`extra.rms`), which the
   engine's rows report too: the same voices through the same colour must come out at the same
   level, so a peer that skipped its work would show. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "raw.h"

/* After raw.h, which asks for the extension prototypes (AL_ALEXT_PROTOTYPES). */
#include <AL/efx-presets.h>
#include <AL/efx.h>

#define CHUNK 1024
#define BLOCK 1024
#define BLOCKS 4
/* 47 renders of 1024 frames: 1 s and a little, for the RMS check. */
#define CHECK_RENDERS 47

static const int voice_counts[] = {16, 64};

/* RMS of both channels over CHECK_RENDERS renders, calling `between` after each. */
static double render_rms(raw_output output, float *out, void (*between)(void *), void *context) {
    double sum = 0;
    for (int r = 0; r < CHECK_RENDERS; r++) {
        alcRenderSamplesSOFT(output.device, out, CHUNK);
        for (int i = 0; i < 2 * CHUNK; i++) sum += (double)out[i] * out[i];
        if (between) between(context);
    }
    raw_check_alc(output.device, "alcRenderSamplesSOFT");
    return sqrt(sum / (2.0 * CHUNK * CHECK_RENDERS));
}

/* A warm-up render (and `between`), a warm-up run and `runs` timed runs of 10 s into `samples`, the
 * RMS check, and the row `case_name`-`voices` emitted with `label`. */
static void timed_renders(const char *case_name, int voices, int runs, raw_output output, float *out,
                          double *samples, void (*between)(void *), void *context, const char *label) {
    alcRenderSamplesSOFT(output.device, out, CHUNK);
    if (between) between(context);
    for (int run = -1; run < runs; run++) {
        double ms = raw_render_ms(output, out, CHUNK, between, context);
        if (run >= 0) samples[run] = ms;
    }
    double rms = render_rms(output, out, between, context);
    char name[32];
    snprintf(name, sizeof name, "%s-%d", case_name, voices);
    bench_emit_extra(name, RAW_PEER, "ms", label, samples, (size_t)runs, NULL, "rms", rms);
}

/* ---- filter-reverb-N ---- */

static void reverb_case(int voices, int runs, float *out, double *samples) {
    raw_output output = raw_open_loopback();
    if (!alcIsExtensionPresent(output.device, "ALC_EXT_EFX"))
        bench_die("the loopback device has no ALC_EXT_EFX");
    ALuint tones[RAW_TONES];
    raw_make_tones(tones);
    ALuint slot, effect;
    alGenAuxiliaryEffectSlots(1, &slot);
    alGenEffects(1, &effect);
    raw_check_al("alGenAuxiliaryEffectSlots/alGenEffects");
    EFXEAXREVERBPROPERTIES cave = EFX_REVERB_PRESET_CAVE;
    alEffecti(effect, AL_EFFECT_TYPE, AL_EFFECT_REVERB);
    alEffectf(effect, AL_REVERB_DENSITY, cave.flDensity);
    alEffectf(effect, AL_REVERB_DIFFUSION, cave.flDiffusion);
    alEffectf(effect, AL_REVERB_GAIN, cave.flGain);
    alEffectf(effect, AL_REVERB_GAINHF, cave.flGainHF);
    alEffectf(effect, AL_REVERB_DECAY_TIME, cave.flDecayTime);
    alEffectf(effect, AL_REVERB_DECAY_HFRATIO, cave.flDecayHFRatio);
    alEffectf(effect, AL_REVERB_REFLECTIONS_GAIN, cave.flReflectionsGain);
    alEffectf(effect, AL_REVERB_REFLECTIONS_DELAY, cave.flReflectionsDelay);
    alEffectf(effect, AL_REVERB_LATE_REVERB_GAIN, cave.flLateReverbGain);
    alEffectf(effect, AL_REVERB_LATE_REVERB_DELAY, cave.flLateReverbDelay);
    alEffectf(effect, AL_REVERB_AIR_ABSORPTION_GAINHF, cave.flAirAbsorptionGainHF);
    alEffectf(effect, AL_REVERB_ROOM_ROLLOFF_FACTOR, cave.flRoomRolloffFactor);
    alEffecti(effect, AL_REVERB_DECAY_HFLIMIT, cave.iDecayHFLimit ? AL_TRUE : AL_FALSE);
    raw_check_al("alEffect(AL_REVERB_*)");
    alAuxiliaryEffectSloti(slot, AL_EFFECTSLOT_EFFECT, (ALint)effect);
    alAuxiliaryEffectSlotf(slot, AL_EFFECTSLOT_GAIN, 1.0f);
    raw_check_al("alAuxiliaryEffectSlot");
    ALuint *sources = raw_make_mix_voices(tones, voices);
    for (int v = 0; v < voices; v++) {
        /* The engine's send filter is a low-pass at gain 1, gain HF 1 (its reverbSend 1): no filter. */
        alSource3i(sources[v], AL_AUXILIARY_SEND_FILTER, (ALint)slot, 0, AL_FILTER_NULL);
    }
    alSourcePlayv(voices, sources);
    raw_check_al("alSource(reverb voices)");
    timed_renders("filter-reverb", voices, runs, output, out, samples, NULL, NULL,
                  "alcRenderSamplesSOFT, 1024-frame calls (CPU time for 10 s), every source sending to one "
                  "slot with AL_EFFECT_REVERB (cave)");
    for (int v = 0; v < voices; v++) alSourceStop(sources[v]);
    alDeleteSources(voices, sources);
    alAuxiliaryEffectSloti(slot, AL_EFFECTSLOT_EFFECT, AL_EFFECT_NULL);
    alDeleteAuxiliaryEffectSlots(1, &slot);
    alDeleteEffects(1, &effect);
    alDeleteBuffers(RAW_TONES, tones);
    raw_check_al("alDeleteSources/alDeleteAuxiliaryEffectSlots/alDeleteEffects/alDeleteBuffers");
    free(sources);
    raw_close(output);
}

/* ---- filter-lowpass-N ---- */

/* One voice: its source, its queue's buffers, where it is in its tone, and its biquad's memory. */
typedef struct {
    ALuint source;
    ALuint buffers[BLOCKS];
    const float *tone;
    int position;
    double x1, x2, y1, y2;
} lowpass_voice;

typedef struct {
    lowpass_voice *voices;
    int count;
    double b0, b1, b2, a1, a2;
    float block[BLOCK];
} lowpass_mix;

/* The engine's design (BiquadCoefficients, RBJ cookbook, a0 normalised to 1) of a low-pass with the
   engine's default Q (Butterworth, a Float). */
static void design_lowpass(lowpass_mix *mix, double cutoff, double rate) {
    const double q = (double)0.70710677f;
    double w0 = 2 * 3.14159265358979323846 * cutoff / rate;
    double cosine = cos(w0), sine = sin(w0);
    double alpha = sine / (2 * q);
    double a0 = 1 + alpha;
    mix->b0 = (1 - cosine) / 2 / a0;
    mix->b1 = (1 - cosine) / a0;
    mix->b2 = mix->b0;
    mix->a1 = -2 * cosine / a0;
    mix->a2 = (1 - alpha) / a0;
}

/* The voice's next BLOCK frames of its looping tone, low-passed, into `buffer`. */
static void fill_block(lowpass_mix *mix, lowpass_voice *voice, ALuint buffer) {
    float *block = mix->block;
    for (int i = 0; i < BLOCK;) {
        int run = RAW_RATE - voice->position < BLOCK - i ? RAW_RATE - voice->position : BLOCK - i;
        memcpy(block + i, voice->tone + voice->position, (size_t)run * sizeof *block);
        voice->position = (voice->position + run) % RAW_RATE;
        i += run;
    }
    const double b0 = mix->b0, b1 = mix->b1, b2 = mix->b2, a1 = mix->a1, a2 = mix->a2;
    double x1 = voice->x1, x2 = voice->x2, y1 = voice->y1, y2 = voice->y2;
    for (int i = 0; i < BLOCK; i++) {
        double x = block[i];
        double y = b0 * x + b1 * x1 + b2 * x2 - a2 * y2 - a1 * y1;
        x2 = x1;
        x1 = x;
        y2 = y1;
        y1 = y;
        block[i] = (float)y;
    }
    voice->x1 = x1, voice->x2 = x2, voice->y1 = y1, voice->y2 = y2;
    alBufferData(buffer, AL_FORMAT_MONO_FLOAT32, block, BLOCK * (ALsizei)sizeof *block, RAW_RATE);
}

/* Between renders: every buffer OpenAL has finished, refilled and queued again. */
static void refill(void *context) {
    lowpass_mix *mix = context;
    for (int v = 0; v < mix->count; v++) {
        lowpass_voice *voice = &mix->voices[v];
        ALint processed = 0;
        alGetSourcei(voice->source, AL_BUFFERS_PROCESSED, &processed);
        while (processed-- > 0) {
            ALuint buffer;
            alSourceUnqueueBuffers(voice->source, 1, &buffer);
            fill_block(mix, voice, buffer);
            alSourceQueueBuffers(voice->source, 1, &buffer);
        }
        ALint state;
        alGetSourcei(voice->source, AL_SOURCE_STATE, &state);
        if (state != AL_PLAYING) alSourcePlay(voice->source); /* an underrun: play on */
    }
    raw_check_al("refill (alGetSourcei/alSourceUnqueueBuffers/alBufferData/alSourceQueueBuffers)");
}

static void lowpass_case(int voices, int runs, float *out, double *samples, float *tones[RAW_TONES]) {
    raw_output output = raw_open_loopback();
    lowpass_mix *mix = calloc(1, sizeof *mix);
    lowpass_voice *list = calloc((size_t)voices, sizeof *list);
    if (!mix || !list) bench_die("out of memory");
    mix->voices = list;
    mix->count = voices;
    design_lowpass(mix, 1000.0, RAW_RATE);
    for (int v = 0; v < voices; v++) {
        lowpass_voice *voice = &list[v];
        voice->source = raw_make_source();
        voice->tone = tones[v % RAW_TONES];
        raw_start_mix_voice(voice->source, v, voices);
        alGenBuffers(BLOCKS, voice->buffers);
        raw_check_al("alGenBuffers");
        for (int b = 0; b < BLOCKS; b++) fill_block(mix, voice, voice->buffers[b]);
        alSourceQueueBuffers(voice->source, BLOCKS, voice->buffers);
        alSourcePlay(voice->source);
        raw_check_al("alBufferData/alSourceQueueBuffers/alSourcePlay(lowpass voice)");
    }
    timed_renders("filter-lowpass", voices, runs, output, out, samples, refill, mix,
                  "alcRenderSamplesSOFT, 1024-frame calls (CPU time for 10 s), each voice 4 queued 1024-frame "
                  "buffers low-passed at 1 kHz (scalar biquad in doubles), refilled after each render");
    for (int v = 0; v < voices; v++) {
        alSourceStop(list[v].source);
        alSourcei(list[v].source, AL_BUFFER, 0);
        alDeleteSources(1, &list[v].source);
        alDeleteBuffers(BLOCKS, list[v].buffers);
    }
    raw_check_al("alDeleteSources/alDeleteBuffers");
    free(list);
    free(mix);
    raw_close(output);
}

void raw_case_filter(const char *only, int runs) {
    float *out = malloc(CHUNK * 2 * sizeof *out);
    double *samples = calloc((size_t)runs, sizeof *samples);
    float *tones[RAW_TONES];
    for (int k = 0; k < RAW_TONES; k++) {
        tones[k] = malloc(RAW_RATE * sizeof *tones[k]);
        if (!tones[k]) bench_die("out of memory");
        raw_tone_samples(k, tones[k]);
    }
    if (!out || !samples) bench_die("out of memory");
    for (size_t c = 0; c < sizeof voice_counts / sizeof voice_counts[0]; c++) {
        int voices = voice_counts[c];
        char name[32];
        snprintf(name, sizeof name, "filter-lowpass-%d", voices);
        if (bench_wants(only, name)) lowpass_case(voices, runs, out, samples, tones);
        snprintf(name, sizeof name, "filter-reverb-%d", voices);
        if (bench_wants(only, name)) reverb_case(voices, runs, out, samples);
    }
    for (int k = 0; k < RAW_TONES; k++) free(tones[k]);
    free(samples);
    free(out);
}
