#ifndef SOUNDSTATION_CXMP_SHIM_H
#define SOUNDSTATION_CXMP_SHIM_H

#include <xmp.h>

#endif
