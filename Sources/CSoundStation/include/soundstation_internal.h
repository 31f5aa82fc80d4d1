/* Not installed: what the library's Swift half needs from its C half. */
#ifndef SOUNDSTATION_INTERNAL_H
#define SOUNDSTATION_INTERNAL_H

#include "soundstation.h"

/* Sets this thread's ss_last_error() message (copied, cut at 1023 bytes). Async-signal-safe. */
void ss_internal_set_error(const char *message);

#endif
