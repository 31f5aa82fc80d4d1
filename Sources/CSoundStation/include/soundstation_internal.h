/* Not installed: what the library's Swift half needs from its C half. */
#ifndef SOUNDSTATION_INTERNAL_H
#define SOUNDSTATION_INTERNAL_H

#include <stdint.h>

#include "soundstation.h"

/* Sets this thread's ss_last_error() message (copied, cut at 1023 bytes). Async-signal-safe. */
void ss_internal_set_error(const char *message);

/* The handle: made around the engine's trigger ring (ssrt_core *), then given its Swift engine
   object; after ss_close only a tombstone of a few dozen bytes stays (never freed), so a closed
   handle stays safe to pass. NULL when memory is short. */
ss_engine *ss_internal_engine_create(void *core);
/* Gives the handle its Swift engine object (retained by the caller, never released). */
void ss_internal_engine_attach(ss_engine *engine, void *swift);
/* The Swift engine object of a handle. */
void *ss_internal_engine_swift(ss_engine *engine);
/* Marks the handle closed (ss_play returns SS_ERR_CLOSED from then on), waits for ss_play calls in
   flight and frees the id table: the ring may be freed after it returns. */
void ss_internal_engine_close(ss_engine *engine);
/* Sets what ss_output returns (copied, cut at 255 bytes on a UTF-8 boundary). */
void ss_internal_engine_set_output(ss_engine *engine, const char *output);
/* How many times ss_cancel_preload was called on the handle. */
unsigned ss_internal_engine_cancels(ss_engine *engine);
/* Lets ss_play reach C id c_id as the engine's sound id engine_id (-2: streamed music, which
   ss_play refuses, naming ss_music). */
void ss_internal_engine_map(ss_engine *engine, int32_t c_id, int32_t engine_id);

#endif
