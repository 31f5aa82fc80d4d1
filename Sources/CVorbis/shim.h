#ifndef SOUNDSTATION_CVORBIS_SHIM_H
#define SOUNDSTATION_CVORBIS_SHIM_H

#include <ogg/ogg.h>
#include <vorbis/codec.h>
#include <vorbis/vorbisenc.h>
#include <vorbis/vorbisfile.h>

#endif
