#ifndef SOUNDSTATION_CFLUIDSYNTH_SHIM_H
#define SOUNDSTATION_CFLUIDSYNTH_SHIM_H

#include <fluidsynth.h>

#endif
