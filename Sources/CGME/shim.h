#ifndef SOUNDSTATION_CGME_SHIM_H
#define SOUNDSTATION_CGME_SHIM_H

#include <gme/gme.h>

#endif
