#include <math.h>
#include <stdio.h>

#include "raw.h"

static const char *al_error_name(ALenum code) {
    switch (code) {
    case AL_INVALID_NAME: return "AL_INVALID_NAME";
    case AL_INVALID_ENUM: return "AL_INVALID_ENUM";
    case AL_INVALID_VALUE: return "AL_INVALID_VALUE";
    case AL_INVALID_OPERATION: return "AL_INVALID_OPERATION";
    case AL_OUT_OF_MEMORY: return "AL_OUT_OF_MEMORY";
    default: return "unknown error";
    }
}

void raw_check_al(const char *call) {
    ALenum code = alGetError();
    if (code != AL_NO_ERROR)
        bench_die("OpenAL call %s failed with %s (0x%x)", call, al_error_name(code), code);
}

void raw_check_alc(ALCdevice *device, const char *call) {
    ALCenum code = alcGetError(device);
    if (code != ALC_NO_ERROR) bench_die("OpenAL call %s failed with ALC error 0x%x", call, code);
}

static void make_current(raw_output output, const char *what) {
    if (!output.context) {
        raw_check_alc(output.device, "alcCreateContext");
        bench_die("alcCreateContext on the %s returned no context", what);
    }
    if (!alcMakeContextCurrent(output.context)) {
        raw_check_alc(output.device, "alcMakeContextCurrent");
        bench_die("alcMakeContextCurrent on the %s failed", what);
    }
    alGetError();
}

raw_output raw_open_loopback(void) {
    if (!alcIsExtensionPresent(NULL, "ALC_SOFT_loopback"))
        bench_die("OpenAL Soft's ALC_SOFT_loopback extension is missing (install libopenal1)");
    raw_output output;
    output.device = alcLoopbackOpenDeviceSOFT(NULL);
    if (!output.device) bench_die("alcLoopbackOpenDeviceSOFT failed");
    if (!alcIsRenderFormatSupportedSOFT(output.device, RAW_RATE, ALC_STEREO_SOFT, ALC_FLOAT_SOFT))
        bench_die("the loopback device cannot render float stereo at %d Hz", RAW_RATE);
    const ALCint attributes[] = {
        ALC_FORMAT_CHANNELS_SOFT, ALC_STEREO_SOFT, ALC_FORMAT_TYPE_SOFT, ALC_FLOAT_SOFT,
        ALC_FREQUENCY, RAW_RATE, ALC_OUTPUT_LIMITER_SOFT, ALC_FALSE, ALC_HRTF_SOFT, ALC_FALSE, 0,
    };
    output.context = alcCreateContext(output.device, attributes);
    make_current(output, "loopback device");
    return output;
}

raw_output raw_open_device(void) {
    raw_output output;
    output.device = alcOpenDevice(NULL);
    if (!output.device) bench_die("alcOpenDevice(NULL) failed: is the PulseAudio server running?");
    const ALCint attributes[] = {ALC_OUTPUT_LIMITER_SOFT, ALC_TRUE, ALC_HRTF_SOFT, ALC_FALSE, 0};
    output.context = alcCreateContext(output.device, attributes);
    make_current(output, "default device");
    return output;
}

void raw_close(raw_output output) {
    if (!alcMakeContextCurrent(NULL)) bench_die("alcMakeContextCurrent(NULL) failed");
    alcDestroyContext(output.context);
    raw_check_alc(output.device, "alcDestroyContext");
    if (!alcCloseDevice(output.device)) bench_die("alcCloseDevice failed");
}

ALuint raw_make_source(void) {
    ALuint source;
    alGenSources(1, &source);
    raw_check_al("alGenSources");
    alSourcei(source, AL_SOURCE_RELATIVE, AL_TRUE);
    alSourcef(source, AL_ROLLOFF_FACTOR, 0);
    alSourcef(source, AL_MAX_GAIN, 16);
    raw_check_al("alSource(setup)");
    return source;
}

/* The engine's pan law (OpenALSource.applyPan): -1..1 to +-60 degrees, which OpenAL Soft's stereo
 * panner widens by 1.5 to its hard left and right. At +-90 degrees (as this was before issue 23's
 * third round) every voice panned past two thirds lands beyond hard left or right, where one output
 * channel's gain is zero and OpenAL skips mixing it: the peer then mixed fewer channels than the
 * engine for the same request (mix-64: 817 M instead of 855 M instructions in alcRenderSamplesSOFT). */
void raw_pan(ALuint source, float pan) {
    float angle = RAW_PI / 3 * pan;
    alSource3f(source, AL_POSITION, sinf(angle), 0, -cosf(angle));
}
