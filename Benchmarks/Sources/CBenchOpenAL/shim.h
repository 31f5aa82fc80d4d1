#ifndef SOUNDSTATION_BENCH_OPENAL_SHIM_H
#define SOUNDSTATION_BENCH_OPENAL_SHIM_H

/* OpenAL Soft with its extension prototypes (loopback rendering, thread-local contexts). */
#define AL_ALEXT_PROTOTYPES 1
#include <AL/al.h>
#include <AL/alc.h>
#include <AL/alext.h>

#endif
