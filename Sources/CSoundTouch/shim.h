#ifndef SOUNDSTATION_CSOUNDTOUCH_SHIM_H
#define SOUNDSTATION_CSOUNDTOUCH_SHIM_H

/* SoundTouch's C interface (libSoundTouchDll, Debian's libsoundtouch-dev): time-stretching and
   pitch-shifting of float samples, used for music speed without pitch and for pitch shift. */
#include <SoundTouchDLL.h>

#endif
