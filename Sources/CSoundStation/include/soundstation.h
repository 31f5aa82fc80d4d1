/*
 * soundstation.h: the C interface of SoundStation, a game sound engine for Linux (OpenAL Soft).
 * Every format the engine decodes loads: WAV (every variant), Ogg Vorbis, Opus, FLAC, AIFF, MP3,
 * tracker modules (MOD, XM, S3M, IT), chiptune rips (NSF, NSFe, SPC, GBS, VGM, VGZ, AY, HES, KSS,
 * SAP, GYM; the catalogue's "track" picks a rip's song) and MIDI files (through the catalogue's
 * "soundfont", else the system's General MIDI SoundFont: Debian's timgm6mb-soundfont).
 *
 *     #include <soundstation.h>
 *     cc game.c $(pkg-config --cflags --libs soundstation)
 *
 * One engine (ss_engine) mixes music and effects into a device, into nothing ("silent"), or into
 * buffers the caller pulls with ss_render ("offline", sample-exact, for tests). Sounds come from a
 * catalogue (assets_dir/catalogue.json, described in Docs/Catalogue.md) and from single files
 * (ss_load_file, ss_load_music_file). They are decoded before the game needs them (ss_preload) and
 * then played by a small integer id. Each play made with ss_play_voice gets an ss_voice handle that
 * stops, pauses or changes that one sound while it plays.
 *
 * Errors: every function that can fail returns a negative SS_ERR_* code (an ss_result) and leaves a
 * one-line message naming the bad value in ss_last_error(), on the calling thread. No function aborts
 * on bad input: NULL pointers, unknown names, NaN, out-of-range values and closed engines are errors.
 *
 * Threads: unless a function says otherwise, it may be called from any thread, and several threads
 * may call functions on the same engine at once. A signal handler runs on whichever thread the kernel
 * picks; only ss_play, ss_cancel_preload, ss_version and ss_last_error may be called there (each says
 * "async-signal-safe"). ss_last_error is per thread; an ss_play failing in a handler replaces the
 * interrupted thread's message. Every function returns at once except those that say they block
 * (ss_open, ss_open_with, ss_preload, ss_load_file, ss_load_music_file, ss_close, ss_render).
 *
 * Structs that cross this interface can grow in later 1.x versions without a new soname: the caller
 * always states how many bytes its struct has. Options structs (ss_open_options, ss_play_options,
 * ss_music_options) lead with a `size` field that their _init function sets; structs the library
 * fills (ss_event, ss_musical_position) are passed with a size argument. The library reads and writes
 * no byte past that size: fields a caller's (older) struct lacks take their defaults, and fields a
 * caller's (newer) struct has beyond what this library knows are left alone. Nothing here is a macro
 * or an inline function that correctness depends on: every binding (ctypes, Rust, cgo) can call it.
 *
 * The terminal: the library never writes to file descriptors 1 or 2, never aborts on any input and
 * reports anything it drops. What ALSA, OpenAL Soft, libmpg123 or the decoders would print arrives
 * as SS_EVENT_NOTICE events (see Docs/terminal-safety.md).
 *
 * Docs/C.md names the Swift call behind each function. MIT licence; see LICENSE.
 */
#ifndef SOUNDSTATION_H
#define SOUNDSTATION_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this header; ss_version() gives the library's. 1.x keeps the soname
 * libsoundstation.so.1: a 1.y library serves a program built against any 1.x header. */
#define SS_VERSION_MAJOR 1
#define SS_VERSION_MINOR 0
#define SS_VERSION_PATCH 0
/* One number for comparisons: major * 10000 + minor * 100 + patch. */
#define SS_API_VERSION (SS_VERSION_MAJOR * 10000 + SS_VERSION_MINOR * 100 + SS_VERSION_PATCH)

/* An open engine. Opaque: made by ss_open or ss_open_with, freed by ss_close. */
typedef struct ss_engine ss_engine;

/* One play of a sound, from ss_play_voice: 1, 2, 3... per engine, never reused; 0 is no voice.
 * A voice that has ended (finished, stopped, stolen, refused) stays a valid handle: the ss_voice_*
 * calls do nothing with it and return SS_OK, and ss_voice_is_playing answers 0. */
typedef uint64_t ss_voice;

/* Return codes. Functions return them as int; 0 (or a count or id, where a function says so) is
 * success. */
typedef enum ss_result {
    SS_OK = 0,
    /* ss_play / ss_play_at / ss_play_voice: the engine is thousands of triggers behind and dropped
       this one (not an error; an instance limit or a full voice pool refuses later, as
       SS_EVENT_REFUSED). */
    SS_REFUSED = 1,
    /* A NULL pointer, NaN, an out-of-range number, a malformed string or a struct size too small. */
    SS_ERR_INVALID_ARGUMENT = -1,
    /* No sound, bus, marker, preset or catalogue entry has that name or id. */
    SS_ERR_UNKNOWN_NAME = -2,
    /* The sound is known but was not loaded: call ss_preload first. */
    SS_ERR_NOT_LOADED = -3,
    /* The output device could not be opened, or OpenAL refused something. */
    SS_ERR_DEVICE = -4,
    /* catalogue.json is missing or wrong. */
    SS_ERR_CATALOGUE = -5,
    /* A sound file is missing or does not decode. */
    SS_ERR_DECODE = -6,
    /* The operation needs an offline engine ("offline:RATE" or SS_OUTPUT_OFFLINE). */
    SS_ERR_NOT_OFFLINE = -7,
    /* The engine was closed with ss_close. */
    SS_ERR_CLOSED = -8,
    /* ss_preload was stopped by ss_cancel_preload (what it had loaded is let go of). */
    SS_ERR_CANCELLED = -9
} ss_result;

/* What an ss_event reports (ss_event.type). */
typedef enum ss_event_type {
    /* A voice began to play sound `name` (id `sound_id`; a stem of layered music carries its
       track's id and name). */
    SS_EVENT_STARTED = 1,
    /* A voice is done with `name`; `reason` says why (an ss_finish_reason). */
    SS_EVENT_FINISHED = 2,
    /* `name` could not get a voice: every voice was busy with sounds that matter more, or the
       sound's instance limit refused it. */
    SS_EVENT_REFUSED = 3,
    /* The output device went away; `name` and `text` hold the reason. The engine retries every
       second. `sound_id` is -1, `voice` 0. */
    SS_EVENT_DEVICE_LOST = 4,
    /* The device is back; `name` holds its name. `sound_id` is -1, `voice` 0. */
    SS_EVENT_DEVICE_RESTORED = 5,
    /* Something the game may want to show or log, that the library never writes on the terminal:
       why "auto" fell back to silence, a file that loads only in part (cut short, damaged frames),
       what ALSA or OpenAL Soft said while a device opened. `text` holds the line (`name` its first
       63 bytes); `sound_id` is -1, `voice` 0. */
    SS_EVENT_NOTICE = 6,
    /* Events were lost: a thread did not poll for a while on a device, and the queue (4096 events)
       filled. `reason` holds how many were dropped since the last such event. Offline engines never
       drop events (their queue grows until polled). `sound_id` is -1, `voice` 0. */
    SS_EVENT_OVERFLOW = 7,
    /* A trigger of `name` arrived within the sound's "coalesceMs" (5 ms by default) of another start
       of the same sound and was folded into that voice (which plays louder): no SS_EVENT_STARTED or
       SS_EVENT_FINISHED follows for it. `voice` is the trigger's own handle, which from then on
       addresses the voice it was folded into. Every accepted trigger thus comes back as exactly one
       of SS_EVENT_STARTED, SS_EVENT_REFUSED or SS_EVENT_COALESCED. */
    SS_EVENT_COALESCED = 8
} ss_event_type;

/* Why a voice finished (ss_event.reason for SS_EVENT_FINISHED; 0 otherwise). */
typedef enum ss_finish_reason {
    /* It played to its end (after its last loop). */
    SS_FINISH_ENDED = 1,
    /* ss_voice_stop, ss_stop_effects, ss_stop_music, a music switch or ss_close stopped it. */
    SS_FINISH_STOPPED = 2,
    /* A sound that matters more took its voice. */
    SS_FINISH_STOLEN = 3,
    /* The device went away while it played (a one-shot; loops and music come back with it). */
    SS_FINISH_DEVICE_LOST = 4
} ss_finish_reason;

/* The mixing buses: every sound plays on one, and a bus's volume, filter and reverb apply to all of
 * its sounds. SS_BUS_MASTER scales every bus. */
typedef enum ss_bus {
    /* In ss_play_options.bus: the sound's own bus (its catalogue entry's; effects for a file). */
    SS_BUS_DEFAULT = -1,
    SS_BUS_MASTER = 0,
    SS_BUS_MUSIC = 1,
    SS_BUS_EFFECTS = 2,
    SS_BUS_VOICE = 3
} ss_bus;

/* Loop counts (ss_play_options.loops, ss_music_options.loops): a count N, 0...1000, plays the sound
 * N + 1 times in all (N repeats after the first pass, as SDL_mixer and pygame count), each pass the
 * whole sound, back to back, at whatever pitch the voice has; or: */
typedef enum ss_loops {
    /* Loop until stopped. */
    SS_LOOPS_FOREVER = -1,
    /* As the catalogue entry's "loop" says (music loops by default, effects play once; a file from
       ss_load_file plays once, one from ss_load_music_file loops). */
    SS_LOOPS_DEFAULT = -2
} ss_loops;

/* Where an engine's sound goes (ss_open_options.output). */
typedef enum ss_output_kind {
    /* The default device, or silent output when there is none (an SS_EVENT_NOTICE says why), or the
       player's speakers in an SSH session of `soundstation ssh` (Docs/ssh.md). */
    SS_OUTPUT_AUTO = 0,
    /* A playback device: ss_open_options.device names one (as `soundstation devices` lists), or
       NULL for the default. */
    SS_OUTPUT_DEVICE = 1,
    /* Mixes in real time and discards the sound: voices start, end and report as on a device. */
    SS_OUTPUT_SILENT = 2,
    /* Stereo at ss_open_options.sample_rate; nothing plays until ss_render is called. */
    SS_OUTPUT_OFFLINE = 3
} ss_output_kind;

/* How short a device's mixing periods are (ss_open_options.latency; devices only). */
typedef enum ss_latency {
    /* 20 ms periods: the least CPU. */
    SS_LATENCY_NORMAL = 0,
    /* About 2.5 ms periods on PulseAudio (4 ms elsewhere): a hit is heard sooner; more wake-ups. */
    SS_LATENCY_LOW = 1
} ss_latency;

/* Where on the playing track's grid a music switch lands (ss_music_options.point), from the
 * catalogue's "bpm", "beatsPerBar", "downbeat" and "markers" of the track playing. */
typedef enum ss_music_point {
    /* At once. */
    SS_MUSIC_NOW = 0,
    /* The next beat. */
    SS_MUSIC_BEAT = 1,
    /* The next bar. */
    SS_MUSIC_BAR = 2,
    /* The next bar whose count is a multiple of ss_music_options.bars. */
    SS_MUSIC_BARS = 3,
    /* The track's next pass over the marker ss_music_options.marker. */
    SS_MUSIC_MARKER = 4
} ss_music_point;

/* The kinds of filter ss_set_filter sets: real cutoffs in hertz, 12 dB per octave, run by the
 * engine itself (any device; offline renders stay identical run to run). */
typedef enum ss_filter_type {
    SS_FILTER_OFF = 0,
    /* Keeps what lies below the cutoff. */
    SS_FILTER_LOWPASS = 1,
    /* Keeps what lies above the cutoff. */
    SS_FILTER_HIGHPASS = 2,
    /* Keeps what lies around the cutoff (its centre); narrower as q grows. */
    SS_FILTER_BANDPASS = 3
} ss_filter_type;

/* Something that happened to a sound, filled in by ss_poll_event. 1.0's fields; later versions only
 * append fields. */
typedef struct ss_event {
    int32_t type;      /* an ss_event_type */
    int32_t sound_id;  /* the sound's id, or -1 when it has none (device events, notices) */
    int32_t reason;    /* an ss_finish_reason for SS_EVENT_FINISHED, the count for
                          SS_EVENT_OVERFLOW, else 0 */
    int32_t reserved;  /* 0 */
    double time;       /* seconds on the engine clock (frames rendered / rate when offline) */
    ss_voice voice;    /* the voice it concerns (as ss_play_voice returned it; ss_play and the other
                          plays make voices too), 0 for none (device events, notices, overflow) */
    char name[64];     /* the sound's name (or the device or reason), NUL-terminated, cut at 63 bytes
                          on a UTF-8 boundary */
    char text[256];    /* SS_EVENT_NOTICE and SS_EVENT_DEVICE_LOST: the whole line, cut at 255 bytes;
                          otherwise the same as name */
} ss_event;

/* Where the playing music is in its bars, as ss_music_position fills it. */
typedef struct ss_musical_position {
    int32_t bar;     /* from 1 at the track's first downbeat, counting on through loops */
    int32_t beat;    /* the beat in the bar, from 1 */
    double fraction; /* how far into the beat, 0 ... <1 */
} ss_musical_position;

/* How to open an engine (ss_open_with); ss_open_options_init fills the defaults. */
typedef struct ss_open_options {
    uint32_t size;          /* the struct's size in bytes: set by ss_open_options_init */
    int32_t output;         /* an ss_output_kind; SS_OUTPUT_AUTO */
    const char *device;     /* SS_OUTPUT_DEVICE: a device name, or NULL (default) for the default
                               device; ignored otherwise */
    int32_t sample_rate;    /* SS_OUTPUT_OFFLINE: Hz, 8000...192000; 48000 */
    int32_t latency;        /* an ss_latency for a device (AUTO or DEVICE); SS_LATENCY_NORMAL */
    const char *assets_dir; /* the folder holding catalogue.json, or NULL (default) for an engine
                               without a catalogue */
} ss_open_options;

/* How ss_play_voice plays a sound; ss_play_options_init fills the defaults. */
typedef struct ss_play_options {
    uint32_t size;          /* the struct's size in bytes: set by ss_play_options_init */
    float volume;           /* multiplies the catalogue's volume, 0...16; 1 */
    float pitch;            /* speed, 0.0625...16, 1 as recorded; 1 */
    float pan;              /* -1 left ... 1 right; 0 */
    int32_t bus;            /* an ss_bus; SS_BUS_DEFAULT (the sound's own bus) */
    int32_t loops;          /* N >= 0 (plays N + 1 times), SS_LOOPS_FOREVER or SS_LOOPS_DEFAULT
                               (default) */
    double start_time;      /* seconds on the engine clock (ss_time) to start at, up to 1e9, or a
                               negative number (default -1) for now; offline a time starts at frame
                               round(start_time * rate) exactly, and a past time starts at once */
    double fade_in_seconds; /* 0...3600: rises from silence over this long; 0 */
    int32_t priority;       /* 0...255 (a sound may take the voice of a lower one when every voice
                               is busy), or -1 (default) for the sound's own (its catalogue entry's;
                               128 for a file) */
    double pitch_shift;     /* -24...24 semitones the pitch moves without the speed changing (through
                               the time-stretcher); 0 */
} ss_play_options;

/* How ss_music_with switches the music; ss_music_options_init fills the defaults. */
typedef struct ss_music_options {
    uint32_t size;            /* the struct's size in bytes: set by ss_music_options_init */
    int32_t point;            /* an ss_music_point; SS_MUSIC_NOW */
    double crossfade_seconds; /* 0...3600: 0 (default) cuts; more crossfades from the point */
    int32_t bars;             /* SS_MUSIC_BARS: N >= 1; 1 */
    int32_t loops;            /* N >= 0 (the track plays N + 1 times, then the music stops),
                                 SS_LOOPS_FOREVER or SS_LOOPS_DEFAULT (the catalogue's "loop");
                                 SS_LOOPS_DEFAULT */
    const char *marker;       /* SS_MUSIC_MARKER: the marker's name; NULL */
} ss_music_options;

/* Called by ss_preload after each sound with the fraction done (0 < fraction <= 1) and `user`. */
typedef void (*ss_progress_fn)(double fraction, void *user);

/* ---- The library ---- */

/* The library's version as SS_API_VERSION computes it (compare with the header's: a library whose
 * major differs, or whose minor is lower than the header's, lacks something the header declares).
 * Returns: major * 10000 + minor * 100 + patch. Threads: any; async-signal-safe. */
int ss_version(void);

/* The message of the last failed call on this thread: what failed, naming the value, and what to
 * do. Returns: a NUL-terminated string owned by the library, valid until the next failing call on
 * this thread; "" when nothing has failed. Threads: any; each thread has its own message;
 * async-signal-safe. */
const char *ss_last_error(void);

/* A short constant name for a return code ("SS_ERR_UNKNOWN_NAME"), for logs.
 * Returns: a static string; "SS_UNKNOWN_CODE" for a code not listed in ss_result. Threads: any. */
const char *ss_result_name(int code);

/* ---- Opening and closing ---- */

/* Fills `options` with the defaults shown in ss_open_options and sets options->size to `size`.
 * size: sizeof(ss_open_options) as the caller compiled it; bytes past it are never written.
 * Returns: SS_OK, or SS_ERR_INVALID_ARGUMENT (NULL, or a size too small to hold `size` itself).
 * Threads: any. */
int ss_open_options_init(ss_open_options *options, size_t size);

/* Opens an engine and reads its catalogue, as `options` say (see ss_open_options).
 * out: receives the engine (set to NULL on failure).
 * Returns: SS_OK, or SS_ERR_INVALID_ARGUMENT (NULL, an options->size of 0 because the options were
 *   not initialised, an unknown output kind or latency, a rate out of range), SS_ERR_DEVICE,
 *   SS_ERR_CATALOGUE. Blocks while the device opens and the catalogue is read. Threads: any. */
int ss_open_with(ss_engine **out, const ss_open_options *options);

/* Opens an engine and reads its catalogue: ss_open_with with the output spelled as a string.
 * out: receives the engine (set to NULL on failure).
 * output: "device" (the default playback device), "device:NAME" (one of the names the `soundstation
 *   devices` command lists), "auto" (SS_OUTPUT_AUTO), "silent" (SS_OUTPUT_SILENT) or "offline:RATE"
 *   (stereo at RATE Hz, 8000...192000; "offline" alone is 48000 Hz).
 * assets_dir: the folder holding catalogue.json, or NULL for an engine without a catalogue.
 * Returns: SS_OK, or SS_ERR_INVALID_ARGUMENT (bad output string, NULL out), SS_ERR_DEVICE,
 *   SS_ERR_CATALOGUE. Blocks while the device opens. Threads: any. */
int ss_open(ss_engine **out, const char *output, const char *assets_dir);

/* Stops every sound, frees the engine's sounds, threads and buffers and closes its output. Later
 * calls with this handle return SS_ERR_CLOSED (the handle itself, a few bytes, stays valid for that);
 * ss_close(NULL) and a second ss_close do nothing. It waits for ss_play calls already running on
 * other threads (they take nanoseconds), so it is not async-signal-safe. Threads: any, but not in a
 * signal handler and not while another thread is inside ss_preload or ss_render on the same engine. */
void ss_close(ss_engine *engine);

/* ---- Loading ---- */

/* Decodes sounds of the catalogue and uploads them, in parallel on all cores, so that playing them
 * never decodes. Loaded sounds get ids (see ss_sound_id), in the order of `names`.
 * names: `count` catalogue names, or NULL for the whole catalogue (count is then ignored).
 * progress: NULL, or called on the calling thread after each sound, with `user`.
 * Returns: SS_OK when every sound loaded; SS_ERR_UNKNOWN_NAME (nothing loaded) for a name the
 *   catalogue lacks; SS_ERR_DECODE when some files did not decode (the others are loaded and
 *   playable; the message names each file); SS_ERR_CANCELLED (ss_cancel_preload). Blocks until
 *   done or cancelled. Threads: any. */
int ss_preload(ss_engine *engine, const char *const *names, int count, ss_progress_fn progress,
               void *user);

/* Stops every ss_preload running on this engine: each returns SS_ERR_CANCELLED within about 20 ms
 * and lets go of what it had loaded (a sound being decoded finishes in the background first). For a
 * game's Ctrl-C during a loading screen. Returns: SS_OK, SS_ERR_INVALID_ARGUMENT (NULL),
 * SS_ERR_CLOSED. Threads: any; async-signal-safe (one atomic increment, written in C), so a SIGINT
 * handler may call it. */
int ss_cancel_preload(ss_engine *engine);

/* Decodes one file (any format the engine reads) and makes it an effect called `name`, played on
 * the effects bus (no catalogue needed). Returns: the new sound's id (>= 0), or
 * SS_ERR_INVALID_ARGUMENT (NULL or empty name, a name already in use), SS_ERR_DECODE (missing or bad
 * file), SS_ERR_DEVICE. Blocks while decoding. Threads: any. */
int ss_load_file(ss_engine *engine, const char *name, const char *path);

/* Makes a file (any format the engine reads) a music track called `name`, streamed from the file
 * while it plays (nothing is decoded ahead), with no catalogue entry: ss_music and ss_music_with then
 * play it by that name. It loops unless the call that plays it asks otherwise, and has no tempo (so
 * no beat or bar switches on it). Returns: the new sound's id (>= 0; events of the track carry it),
 * or SS_ERR_INVALID_ARGUMENT (NULL or empty name, a name already in use), SS_ERR_DECODE (missing
 * file, or one that does not open as audio). Blocks while it reads the file's header. Threads: any. */
int ss_load_music_file(ss_engine *engine, const char *name, const char *path);

/* The id of a loaded sound. Ids are small integers, 0, 1, 2... in the order sounds were loaded in
 * this engine, one id space for ss_preload, ss_load_file and ss_load_music_file: every function that
 * takes an id accepts every id the engine gave. Returns: the id (>= 0), SS_ERR_NOT_LOADED (in the
 * catalogue, not preloaded), SS_ERR_UNKNOWN_NAME. Threads: any. Look ids up once, before the game
 * loop. */
int ss_sound_id(ss_engine *engine, const char *name);

/* ---- Effects ---- */

/* Plays a loaded sound now, once: volume multiplies the catalogue's (0...16), pitch is the speed
 * (0.0625...16, 1 as recorded), pan -1 left ... 1 right. The catalogue's instance limit, priority and
 * stealing apply. Never waits: it writes one command into the engine's lock-free ring and returns;
 * the mixer starts the sound within its next round (offline: at the next rendered frame). Returns:
 * SS_OK (handed to the mixer; if the instance limit or the voice pool refuses it, an
 * SS_EVENT_REFUSED event says so), SS_REFUSED (the mixer is 4096 triggers behind; dropped), or
 * SS_ERR_INVALID_ARGUMENT (a bad number, or the id of streamed music: play that with ss_music) /
 * SS_ERR_UNKNOWN_NAME (bad id) / SS_ERR_NOT_LOADED / SS_ERR_CLOSED. A trigger folded into another by
 * the sound's "coalesceMs" comes back as SS_EVENT_COALESCED. Threads: any. Async-signal-safe:
 * callable from a signal handler (no lock, no allocation, no call into the Swift runtime; written in
 * C), also while another thread is inside any ss_ call. */
int ss_play(ss_engine *engine, int sound_id, float volume, float pitch, float pan);

/* Plays a loaded sound at `seconds` on the engine clock (see ss_time); offline it starts at frame
 * round(seconds * rate) exactly, and a past time starts at once. Otherwise as ss_play, at pitch 1
 * (ss_play_voice takes a start time with any pitch). Returns: as ss_play. Threads: any; not
 * async-signal-safe. */
int ss_play_at(ss_engine *engine, int sound_id, double seconds, float volume, float pan);

/* Fills `options` with the defaults shown in ss_play_options and sets options->size to `size`.
 * size: sizeof(ss_play_options) as the caller compiled it; bytes past it are never written.
 * Returns: SS_OK, or SS_ERR_INVALID_ARGUMENT (NULL, or a size too small to hold `size` itself).
 * Threads: any. */
int ss_play_options_init(ss_play_options *options, size_t size);

/* Plays a loaded effect (an id from ss_sound_id or ss_load_file) as `options` say, or with the
 * defaults when options is NULL, and gives the play a handle. The catalogue's instance limit and
 * stealing apply as for ss_play. Never waits (as ss_play).
 * voice: NULL, or receives the play's handle (0 when the call fails or returns SS_REFUSED). The
 *   handle exists before the sound does: the start is refused later (SS_EVENT_REFUSED naming the
 *   voice) when the limit or the pool says no, and ss_voice_is_playing then answers 0.
 * Returns: SS_OK, SS_REFUSED (as ss_play), SS_ERR_INVALID_ARGUMENT (an options field out of range,
 *   named; an options->size of 0 because the options were not initialised; the id of streamed
 *   music), SS_ERR_UNKNOWN_NAME, SS_ERR_NOT_LOADED, SS_ERR_CLOSED. Threads: any; not
 *   async-signal-safe. */
int ss_play_voice(ss_engine *engine, int sound_id, const ss_play_options *options, ss_voice *voice);

/* Stops one voice, at once (0) or fading out over `fade_seconds` (0...3600); a voice that has ended
 * is left alone. Returns: SS_OK (also for an ended voice), SS_ERR_INVALID_ARGUMENT (voice 0, a NaN
 * or negative fade, a voice this engine never gave), SS_ERR_CLOSED. Threads: any. */
int ss_voice_stop(ss_engine *engine, ss_voice voice, double fade_seconds);

/* Sets one voice's volume (0...16, before the bus's), at once (0) or gliding over `tween_seconds`.
 * Returns: SS_OK (also for an ended voice), SS_ERR_INVALID_ARGUMENT (voice 0, a value out of range or
 * NaN, a negative tween, a voice this engine never gave), SS_ERR_CLOSED. Threads: any. */
int ss_voice_set_volume(ss_engine *engine, ss_voice voice, float volume, double tween_seconds);

/* Sets one voice's pitch (0.0625...16, 1 as recorded), at once (0) or gliding over
 * `tween_seconds`. Returns: as ss_voice_set_volume. Threads: any. */
int ss_voice_set_pitch(ss_engine *engine, ss_voice voice, float pitch, double tween_seconds);

/* Sets one voice's pan (-1 left ... 1 right), at once (0) or gliding over `tween_seconds`.
 * Returns: as ss_voice_set_volume. Threads: any. */
int ss_voice_set_pan(ss_engine *engine, ss_voice voice, float pan, double tween_seconds);

/* Pauses one voice where it is (its place is kept); a voice played for a later time and not begun
 * yet begins paused. Returns: SS_OK (also for an ended voice), SS_ERR_INVALID_ARGUMENT (voice 0, a
 * voice this engine never gave), SS_ERR_CLOSED. Threads: any. */
int ss_voice_pause(ss_engine *engine, ss_voice voice);

/* Resumes a voice paused by ss_voice_pause (it stays silent while ss_pause_all holds).
 * Returns: as ss_voice_pause. Threads: any. */
int ss_voice_resume(ss_engine *engine, ss_voice voice);

/* Whether a voice still holds its sound: playing, paused, or waiting to start (a start time ahead,
 * or a trigger the mixer has not taken yet). Returns: 1, or 0 once it finished, was stopped, stolen
 * or refused, or SS_ERR_INVALID_ARGUMENT (voice 0, a voice this engine never gave), SS_ERR_CLOSED.
 * Threads: any. */
int ss_voice_is_playing(ss_engine *engine, ss_voice voice);

/* Stops every effect (music goes on), at once or fading out over `fade_seconds`.
 * Returns: SS_OK, SS_ERR_INVALID_ARGUMENT (NaN or negative fade), SS_ERR_CLOSED. Threads: any. */
int ss_stop_effects(ss_engine *engine, double fade_seconds);

/* ---- Music ---- */

/* Switches the music to the preloaded catalogue track (or ss_load_music_file track) `name`, from its
 * start, looping as the catalogue says; the playing track stops, or crossfades over
 * `crossfade_seconds` (0 cuts). (ss_music_with takes a grid point and a loop count, and starts the
 * track at its first downbeat.) Returns: SS_OK, SS_ERR_INVALID_ARGUMENT, SS_ERR_UNKNOWN_NAME,
 * SS_ERR_NOT_LOADED, SS_ERR_CLOSED. Threads: any. */
int ss_music(ss_engine *engine, const char *name, double crossfade_seconds);

/* Fills `options` with the defaults shown in ss_music_options and sets options->size to `size`.
 * size: sizeof(ss_music_options) as the caller compiled it; bytes past it are never written.
 * Returns: SS_OK, or SS_ERR_INVALID_ARGUMENT (NULL, or a size too small to hold `size` itself).
 * Threads: any. */
int ss_music_options_init(ss_music_options *options, size_t size);

/* Switches the music to `name` as `options` say (NULL: the defaults): on the playing track's grid
 * (options->point; with no music playing it switches at once), the switch (or the start of its
 * crossfade) landing on that frame (offline exactly; on a device within a mixing period), the new
 * track starting from its first downbeat, and playing options->loops + 1 times (then the music
 * stops, SS_FINISH_ENDED), forever, or as its catalogue entry says.
 * Returns: SS_OK, SS_ERR_INVALID_ARGUMENT (a bad point, bars below 1, a beat or bar asked of a track
 *   without a tempo, an options->size of 0: ss_last_error names it), SS_ERR_UNKNOWN_NAME (the track,
 *   or the marker), SS_ERR_NOT_LOADED, SS_ERR_CLOSED. Threads: any. */
int ss_music_with(ss_engine *engine, const char *name, const ss_music_options *options);

/* Fills `out` with where the playing music is now on the engine clock (offline: at the frame
 * rendered up to). Poll it once per game frame and flash when the beat changes.
 * size: sizeof(ss_musical_position) as the caller compiled it; bytes past it are never written.
 * Returns: 1 when filled, 0 when no music with a tempo plays, SS_ERR_INVALID_ARGUMENT (NULL out, a
 * size of 0), SS_ERR_CLOSED. Threads: any. */
int ss_music_position(ss_engine *engine, ss_musical_position *out, size_t size);

/* Sets the intensity (0...1) of layered music (a catalogue entry with "stems"), at once (0) or
 * gliding over `seconds`: each stem is heard from its "from" and full from its "full".
 * Returns: SS_OK, SS_ERR_INVALID_ARGUMENT (NaN or out of range), SS_ERR_CLOSED. Threads: any. */
int ss_music_intensity(ss_engine *engine, double intensity, double seconds);

/* Pauses the music alone where it is (effects play on; the track's grid holds still). Returns:
 * SS_OK or SS_ERR_CLOSED (and SS_ERR_INVALID_ARGUMENT for NULL). Threads: any. */
int ss_pause_music(ss_engine *engine);

/* Resumes music paused by ss_pause_music from the same place. Returns: as ss_pause_music.
 * Threads: any. */
int ss_resume_music(ss_engine *engine);

/* Stops the music, at once (0) or fading out over `fade_seconds`.
 * Returns: SS_OK, SS_ERR_INVALID_ARGUMENT (NaN or negative fade), SS_ERR_CLOSED. Threads: any. */
int ss_stop_music(ss_engine *engine, double fade_seconds);

/* ---- The mix ---- */

/* Sets a bus's volume (linear gain 0...16), gliding there over 20 ms. Returns: SS_OK,
 * SS_ERR_INVALID_ARGUMENT (NaN, negative, too large; SS_BUS_DEFAULT or a number outside ss_bus),
 * SS_ERR_CLOSED. Threads: any. */
int ss_set_volume(ss_engine *engine, ss_bus bus, float gain);

/* Pauses every sound (a game's pause screen). Returns: SS_OK or SS_ERR_CLOSED. Threads: any. */
int ss_pause_all(ss_engine *engine);

/* Resumes what ss_pause_all paused. Returns: SS_OK or SS_ERR_CLOSED. Threads: any. */
int ss_resume_all(ss_engine *engine);

/* ---- Space and colour: positions, the listener, filters and reverb ---- */

/* Plays a loaded sound now at a position in the game's units (columns and rows of a terminal, or
 * any 2D units): its pan and loudness come from where it is against the listener (ss_set_listener)
 * by the engine's layout (ss_set_grid). volume and pitch as ss_play. Returns: as ss_play, and
 * SS_ERR_INVALID_ARGUMENT naming a coordinate that is NaN or infinite. Threads: any; not
 * async-signal-safe (use ss_play with a pan in a signal handler). */
int ss_play_position(ss_engine *engine, int sound_id, float x, float y, float volume, float pitch);

/* Moves the listener, gliding there over `glide_seconds` (0 jumps; positioned sounds follow without
 * clicks). The listener starts at (0, 0). Returns: SS_OK, SS_ERR_INVALID_ARGUMENT (a NaN or infinite
 * coordinate, a negative or NaN glide), SS_ERR_CLOSED. Threads: any. */
int ss_set_listener(ss_engine *engine, float x, float y, double glide_seconds);

/* Lays positions out for a grid of `columns` x `rows` cells: a sound `columns / 2` cells left of the
 * listener is hard left, as far right hard right, and a sound fades linearly from full within 2
 * cells to -12 dB at the grid's far corner. Without it the stereo field is 80 units wide and loudness
 * falls as 10 / distance beyond 10 units. Returns: SS_OK, SS_ERR_INVALID_ARGUMENT (columns or rows
 * below 1), SS_ERR_CLOSED. Threads: any. */
int ss_set_grid(ss_engine *engine, int columns, int rows);

/* Filters every sound on a bus with a real cutoff: `type` SS_FILTER_LOWPASS / HIGHPASS / BANDPASS
 * at `hertz` (above 0, at most half the sample rate) with resonance `q` (above 0 and at most 100;
 * 0.7071 is flat), or SS_FILTER_OFF (hertz and q are then ignored). The cutoff glides there over
 * `glide_seconds` (0 switches at once, through a 10 ms crossfade so it never clicks). A filtered
 * sound is fed to the output through a short queue, so a change is heard about 85 ms later on a
 * device (4 x 1024 frames). Returns: SS_OK, SS_ERR_INVALID_ARGUMENT (SS_BUS_DEFAULT, a bus or type
 * not in its enum, a cutoff or q out of range or NaN, a negative glide; the message names the
 * value), SS_ERR_CLOSED. Threads: any. */
int ss_set_filter(ss_engine *engine, ss_bus bus, ss_filter_type type, float hertz, float q,
                  double glide_seconds);

/* Gives a bus a reverb from OpenAL's EFX preset list, which every sound on it sends to, or "off"
 * (or NULL) for none. The 26 presets: generic, paddedCell, room, bathroom, livingRoom, stoneRoom,
 * auditorium, concertHall, cave, arena, hangar, carpetedHallway, hallway, stoneCorridor, alley,
 * forest, city, mountains, quarry, plain, parkingLot, sewerPipe, underwater, drugged, dizzy,
 * psychotic (case, dashes and underscores do not matter: "concert-hall", "CAVE"). Without EFX on the
 * device it is accepted and does nothing. While nothing on the bus sends to it for longer than its
 * tail it rests and costs nothing; the next sound wakes it. Returns: SS_OK, SS_ERR_INVALID_ARGUMENT
 * (a bus not in ss_bus), SS_ERR_UNKNOWN_NAME (another preset; the message names it), SS_ERR_DEVICE
 * (OpenAL refused it), SS_ERR_CLOSED. Threads: any. */
int ss_set_reverb(ss_engine *engine, ss_bus bus, const char *preset);

/* ---- Offline rendering, events and the clock ---- */

/* Mixes the next `frames` frames of an offline engine into `interleaved_stereo` (2 * frames floats,
 * left then right, within -1...1) and advances its clock by frames / rate seconds. Renders in pieces
 * straight into the buffer: it allocates nothing in proportion to `frames`.
 * Returns: the number of frames written (`frames`), or SS_ERR_NOT_OFFLINE, SS_ERR_INVALID_ARGUMENT
 * (NULL buffer, negative frames), SS_ERR_CLOSED. Blocks while it mixes. Threads: any, one render at a
 * time per engine. */
int ss_render(ss_engine *engine, float *interleaved_stereo, int frames);

/* Takes the oldest event not yet taken into `out`. Offline, every event is kept until taken; on a
 * device the newest 4096 are, and when older ones were dropped the next call returns
 * SS_EVENT_OVERFLOW with the count in `reason`.
 * size: sizeof(ss_event) as the caller compiled it; the library writes min(size, its own
 *   sizeof(ss_event)) bytes and never a byte past `size` (a struct cut inside `name` or `text` gets
 *   those bytes cut too, possibly without their NUL).
 * Returns: 1 and fills `out` when there was one, 0 when there is none, or SS_ERR_INVALID_ARGUMENT
 * (NULL out, a size of 0), SS_ERR_CLOSED. Threads: any. */
int ss_poll_event(ss_engine *engine, ss_event *out, size_t size);

/* Seconds on the engine clock: frames rendered / rate when offline, time since opening otherwise.
 * Returns: the time (>= 0), or a negative SS_ERR_* code. Threads: any. */
double ss_time(ss_engine *engine);

/* The engine's output rate in Hz. Returns: the rate, or a negative SS_ERR_* code. Threads: any. */
int ss_sample_rate(ss_engine *engine);

/* Where the engine's sound goes, as opened: "device:NAME" (NAME as `soundstation devices` lists
 * it), "silent" (also when "auto" found no device: an SS_EVENT_NOTICE says why), "remote" ("auto"
 * in an SSH session of the player's `soundstation ssh`: the player's machine plays it; Docs/ssh.md),
 * or "offline:RATE".
 * Returns: a string owned by the handle, valid as long as the handle, which is never freed: also after
 * ss_close (then it still says what was open); "" for NULL. Threads: any. */
const char *ss_output(ss_engine *engine);

/* ---- Synthesised effects ---- */

/* Renders an sfxr sound effect and makes it an effect called `name`, played on the effects bus like a
 * file from ss_load_file: no file and no catalogue entry needed. `params` is either the catalogue's
 * JSON form (Docs/Catalogue.md, "Synthesised sounds"), e.g. {"preset": "coin", "seed": 7} or
 * {"preset": "laser", "seed": 3, "variation": 1}, or an sfxr parameter string as jsfxr and sfxr copy
 * it (jsfxr's base58 share string, with or without its "#", or sfxr's comma-separated settings). The
 * same parameters render the same samples in every language and on a remote player, to which only the
 * parameters travel. With "variation", each ss_play of the id strays in pitch by up to that many
 * semitones, from a sequence seeded by the sound (the same in every offline render).
 * Returns: the new sound's id (>= 0), or SS_ERR_INVALID_ARGUMENT (NULL or empty name, a name already
 * in use, params that do not read: the message names the value), SS_ERR_CLOSED. Blocks while it
 * renders (about a millisecond per 10 ms of sound; an sfxr effect lasts at most about 6.8 s).
 * Threads: any. */
int ss_synth(ss_engine *engine, const char *name, const char *params);

/* ---- Sounds from memory ---- */

/* The sample formats ss_load_pcm reads. */
typedef enum ss_sample_format {
    /* 32-bit float samples, -1...1 (values beyond are clipped when played). */
    SS_SAMPLE_FLOAT32 = 0,
    /* Signed 16-bit samples, -32768...32767. */
    SS_SAMPLE_INT16 = 1
} ss_sample_format;

/* Decodes a whole encoded file held in memory (any format ss_load_file reads from disk: WAV, AIFF,
 * FLAC, Ogg Vorbis, Opus, MP3, MOD/XM/S3M/IT; the format comes from the bytes) into an effect called
 * `name` on the effects bus, as ss_load_file does with a file: for a game that carries its sounds in
 * its program (an `xxd -i` array, Go's embed, Rust's include_bytes!). The library copies what it
 * needs: the caller may free `bytes` as soon as the call returns.
 * Returns: the new sound's id (>= 0), or SS_ERR_INVALID_ARGUMENT (NULL bytes, a size of 0, NULL or
 * empty name, a name already in use), SS_ERR_DECODE (bytes that are no audio, or a damaged file: the
 * message names the sound), SS_ERR_DEVICE, SS_ERR_CLOSED. Blocks while decoding. Threads: any. */
int ss_load_memory(ss_engine *engine, const char *name, const void *bytes, size_t size);

/* Makes `frames` frames of raw interleaved PCM an effect called `name` on the effects bus: `format`
 * says what each sample is, `channels` how many samples a frame has (1 to 32; above 2 they are mixed
 * to stereo as files are: front left and right at 0 dB, centre and surrounds at -3 dB, LFE dropped),
 * `rate` the frames per second (1000 to 384000; the engine resamples to its own). The library copies
 * the samples: the caller may free them as soon as the call returns.
 * Returns: the new sound's id (>= 0), or SS_ERR_INVALID_ARGUMENT (NULL samples, a format not in
 * ss_sample_format, frames below 1, channels or rate out of range, NULL or empty name, a name already
 * in use; the message names the value), SS_ERR_DEVICE, SS_ERR_CLOSED. Blocks while it converts and
 * uploads. Threads: any. */
int ss_load_pcm(ss_engine *engine, const char *name, const void *samples, ss_sample_format format,
                int frames, int channels, int rate);

/* ---- Streams a game feeds ---- */

/* A stream of PCM the game writes as it makes it (an emulator, a tracker, a synth, voice chat),
 * heard through one voice (opaque; from ss_stream_open, freed by ss_stream_close). */
typedef struct ss_stream ss_stream;

/* How ss_stream_open plays a stream; ss_stream_options_init fills the defaults. */
typedef struct ss_stream_options {
    uint32_t size;        /* the struct's size in bytes: set by ss_stream_options_init */
    int32_t bus;          /* an ss_bus; SS_BUS_EFFECTS (SS_BUS_DEFAULT is SS_BUS_EFFECTS too) */
    float volume;         /* 0...16; 1 */
    float pan;            /* -1 left ... 1 right; 0 */
    int32_t queue_frames; /* the most frames the queue holds, 1...480000; 0 (default): half a
                             second at the stream's rate */
} ss_stream_options;

/* Fills `options` with the defaults shown in ss_stream_options and sets options->size to `size`.
 * size: sizeof(ss_stream_options) as the caller compiled it; bytes past it are never written.
 * Returns: SS_OK, or SS_ERR_INVALID_ARGUMENT (NULL, or a size too small to hold `size` itself).
 * Threads: any. */
int ss_stream_options_init(ss_stream_options *options, size_t size);

/* Opens a stream of `channels` (1 or 2) interleaved float channels at `rate` Hz (8000...192000;
 * another rate than the engine's is resampled by OpenAL Soft, as every sound's is) and plays it
 * as a voice as `options` say (NULL: the defaults). The voice begins with the first frames written
 * (offline: at the first ss_render after them, sample-exact) and plays until ss_stream_close;
 * whenever the queue runs dry it plays silence and counts an underrun. On a device the engine takes
 * frames as soon as they come, in blocks of at most 256 frames (8 of them at most: 43 ms at 48 kHz),
 * so frames written just ahead are heard within the device's latency (measured on PulseAudio at
 * SS_LATENCY_LOW: 8 to 16 ms from the write to the sink's monitor).
 * Returns: SS_OK and the stream in *stream, or SS_ERR_INVALID_ARGUMENT (NULL stream, channels,
 * rate or an option out of range, an options->size of 0: the message names the value),
 * SS_ERR_CLOSED. Threads: any. */
int ss_stream_open(ss_engine *engine, int channels, int rate, const ss_stream_options *options,
                   ss_stream **stream);

/* Copies `frames` interleaved frames (channels * frames floats, -1...1; beyond is clipped, NaN is
 * 0) into the stream's queue and returns at once: it never waits. What does not fit is refused and
 * counted (ss_stream_refused); so is a write while another thread writes to the same stream.
 * Returns: the frames taken (0...frames), or SS_ERR_INVALID_ARGUMENT (NULL stream or samples with
 * frames above 0, negative frames), SS_ERR_CLOSED (after ss_stream_close's stop, or the engine's
 * ss_close). Threads: any; lock-free (it may call sem_post to wake the engine's driver). */
int ss_stream_write(ss_stream *stream, const float *interleaved, int frames);

/* Frames written and not yet heard: in the queue, and taken by the voice but not played yet (as of
 * the engine's last round, a block or sooner). Returns: the count, or SS_ERR_INVALID_ARGUMENT (NULL).
 * Threads: any. */
int ss_stream_queued(ss_stream *stream);

/* Times the voice ran out of frames after it had begun (each a gap the game was late for).
 * Returns: the count, or SS_ERR_INVALID_ARGUMENT (NULL). Threads: any. */
int ss_stream_underruns(ss_stream *stream);

/* Frames ss_stream_write refused (the queue was full, or another thread was writing), up to
 * INT_MAX. Returns: the count, or SS_ERR_INVALID_ARGUMENT (NULL). Threads: any. */
int ss_stream_refused(ss_stream *stream);

/* The voice the stream plays through, for ss_voice_set_volume, ss_voice_set_pan, ss_voice_pause and
 * the others (0 when the engine had fallen too far behind to start it). Threads: any. */
ss_voice ss_stream_voice(ss_stream *stream);

/* Stops the stream's voice at once and frees the stream: `stream` must not be used again. NULL is
 * ignored. Works after the engine's ss_close too. Threads: any, not while another thread uses the
 * same stream. */
void ss_stream_close(ss_stream *stream);

/* ---- Music speed ---- */

/* Plays the music faster or slower without changing its pitch (time-stretched through SoundTouch),
 * at once (tween_seconds 0) or gliding linearly over tween_seconds; tracks played later keep the
 * speed. A layered track's stems stay aligned to the sample, and the grid follows: beats, bars,
 * ss_musical_position and switches on the next bar reckon with the speed and its glide. A pitch
 * shift without speed is ss_play_options.pitch_shift.
 * speed: 0.5...2, 1 as recorded. tween_seconds: 0...3600.
 * Returns: SS_OK, or SS_ERR_INVALID_ARGUMENT naming a speed or glide out of range, SS_ERR_CLOSED.
 * Threads: any; returns at once (the change is carried out on the mixing side). */
int ss_set_music_speed(ss_engine *engine, double speed, double tween_seconds);

#ifdef __cplusplus
}
#endif

#endif /* SOUNDSTATION_H */
