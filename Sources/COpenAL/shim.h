#ifndef SOUNDSTATION_COPENAL_SHIM_H
#define SOUNDSTATION_COPENAL_SHIM_H

/* OpenAL Soft exports its extension entry points (loopback, thread-local
   contexts, device pause); asking for the prototypes lets Swift call them
   directly instead of through alcGetProcAddress. */
#define AL_ALEXT_PROTOTYPES 1
#include <AL/al.h>
#include <AL/alc.h>
#include <AL/alext.h>

#endif
