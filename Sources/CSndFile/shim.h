#ifndef SOUNDSTATION_CSNDFILE_SHIM_H
#define SOUNDSTATION_CSNDFILE_SHIM_H

#include <sndfile.h>

#endif
