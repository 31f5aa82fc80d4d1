/* Not installed: what the library's Swift half needs from its C half. */
#ifndef SOUNDSTATION_INTERNAL_H
#define SOUNDSTATION_INTERNAL_H

#include <stdint.h>

#include "soundstation.h"

/* The most C ids an engine gives (ss_preload, ss_load_file and ss_load_music_file together). */
#define SS_MAX_IDS (1024 * 1024)
/* An id-table entry for streamed music: ss_play and ss_play_voice say to use ss_music. */
#define SS_ID_MUSIC (-2)
/* Set in an id-table entry whose sound loops by default (its catalogue entry's "loop"). */
#define SS_ID_LOOPS (1 << 30)

/* Sets this thread's ss_last_error() message (copied, cut at 1023 bytes). Async-signal-safe. */
void ss_internal_set_error(const char *message);

/* The handle: made around the engine's trigger ring (ssrt_core *) and its output rate, then given
   its Swift engine object; after ss_close only a tombstone of a few dozen bytes and the output's
   name stay (never freed), so a closed handle stays safe to pass. NULL when memory is short. */
ss_engine *ss_internal_engine_create(void *core, double rate);
/* Gives the handle its Swift engine object (retained by the caller, never released). */
void ss_internal_engine_attach(ss_engine *engine, void *swift);
/* The Swift engine object of a handle. */
void *ss_internal_engine_swift(ss_engine *engine);
/* Marks the handle closed (ss_play returns SS_ERR_CLOSED from then on), waits for triggers in
   flight and frees the id table: the ring may be freed after it returns. */
void ss_internal_engine_close(ss_engine *engine);
/* Sets what ss_output returns (copied, cut at 255 bytes on a UTF-8 boundary). */
void ss_internal_engine_set_output(ss_engine *engine, const char *output);
/* How many times ss_cancel_preload was called on the handle. */
unsigned ss_internal_engine_cancels(ss_engine *engine);
/* Lets ss_play reach C id c_id as `entry`: the engine's sound id (with SS_ID_LOOPS when it loops by
   default), or SS_ID_MUSIC. Returns 0 when the id is past SS_MAX_IDS or memory is short. */
int ss_internal_engine_map(ss_engine *engine, int32_t c_id, int32_t entry);
/* Whether the engine gave the voice (a ticket from 1 up to the last given). */
int ss_internal_engine_gave(ss_engine *engine, uint64_t voice);
/* Reads a caller's open (music) options over the defaults, up to the size they state. NULL music
   options give the defaults. Returns SS_OK or SS_ERR_INVALID_ARGUMENT with the message set. */
int ss_internal_read_open_options(const ss_open_options *options, ss_open_options *out);
int ss_internal_read_music_options(const ss_music_options *options, ss_music_options *out);

#endif
