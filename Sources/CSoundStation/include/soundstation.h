/*
 * soundstation.h: the C interface of SoundStation, a game sound engine for Linux (OpenAL Soft).
 * Every format the engine decodes loads: WAV (every variant), Ogg Vorbis, Opus, FLAC, AIFF, MP3 and
 * tracker modules (MOD, XM, S3M, IT).
 *
 *     #include <soundstation.h>
 *     cc game.c $(pkg-config --cflags --libs soundstation)
 *
 * One engine (ss_engine) mixes music and effects into a device, into nothing ("silent"), or into
 * buffers the caller pulls with ss_render ("offline", sample-exact, for tests). Sounds come from a
 * catalogue (assets_dir/catalogue.json, see the README) and from single files (ss_load_file). They
 * are decoded before the game needs them (ss_preload) and then played by a small integer id.
 *
 * Errors: every function that can fail returns a negative SS_ERR_* code and leaves a one-line
 * message naming the bad value in ss_last_error(), on the calling thread. No function aborts on bad
 * input: NULL pointers, unknown names, NaN, out-of-range values and closed engines are errors.
 *
 * Threads: unless a function says otherwise, it may be called from any thread, and several threads
 * may call functions on the same engine at once. A signal handler runs on whichever thread the kernel
 * picks; only ss_play (and ss_version) may be called there. ss_last_error is per thread and safe to
 * read in a handler; an ss_play failing in a handler replaces the interrupted thread's message.
 *
 * The terminal: the library never writes to file descriptors 1 or 2, never aborts on any input and
 * reports anything it drops. What ALSA, OpenAL Soft, libmpg123 or the decoders would print arrives
 * as SS_EVENT_NOTICE events (see Docs/terminal-safety.md).
 *
 * MIT licence; see LICENSE.
 */
#ifndef SOUNDSTATION_H
#define SOUNDSTATION_H

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this header; ss_version() gives the library's. */
#define SS_VERSION_MAJOR 0
#define SS_VERSION_MINOR 1
#define SS_VERSION_PATCH 0
/* One number for comparisons: major * 10000 + minor * 100 + patch. */
#define SS_API_VERSION (SS_VERSION_MAJOR * 10000 + SS_VERSION_MINOR * 100 + SS_VERSION_PATCH)

/* An open engine. Opaque: made by ss_open, freed by ss_close. */
typedef struct ss_engine ss_engine;

/* Return codes. 0 (or a count or id, where a function says so) is success. */
enum {
    SS_OK = 0,
    /* ss_play / ss_play_at: the engine is thousands of triggers behind and dropped this one (not
       an error; an instance limit or a full voice pool refuses later, as SS_EVENT_REFUSED). */
    SS_REFUSED = 1,
    /* A NULL pointer, NaN, an out-of-range number or a malformed string. */
    SS_ERR_INVALID_ARGUMENT = -1,
    /* No sound, bus or catalogue entry has that name or id. */
    SS_ERR_UNKNOWN_NAME = -2,
    /* The sound is known but was not loaded: call ss_preload first. */
    SS_ERR_NOT_LOADED = -3,
    /* The output device could not be opened, or OpenAL refused something. */
    SS_ERR_DEVICE = -4,
    /* catalogue.json is missing or wrong. */
    SS_ERR_CATALOGUE = -5,
    /* A sound file is missing or does not decode. */
    SS_ERR_DECODE = -6,
    /* The operation needs an engine opened with "offline:RATE". */
    SS_ERR_NOT_OFFLINE = -7,
    /* The engine was closed with ss_close. */
    SS_ERR_CLOSED = -8,
    /* ss_preload was stopped by ss_cancel_preload (what it had loaded is let go of). */
    SS_ERR_CANCELLED = -9
};

/* What an ss_event reports. */
enum {
    /* A voice began to play sound `name` (id `sound_id`). */
    SS_EVENT_STARTED = 1,
    /* A voice is done with `name`; `reason` says why (SS_FINISH_*). */
    SS_EVENT_FINISHED = 2,
    /* `name` could not get a voice: every voice was busy with sounds that matter more. */
    SS_EVENT_REFUSED = 3,
    /* The output device went away; `name` holds the reason. The engine retries every second. */
    SS_EVENT_DEVICE_LOST = 4,
    /* The device is back; `name` holds its name. */
    SS_EVENT_DEVICE_RESTORED = 5,
    /* Something the game may want to show or log, that the library never writes on the terminal:
       why "auto" fell back to silence, a file that loads only in part (cut short, damaged frames),
       what ALSA or OpenAL Soft said while a device opened. `text` holds the line (`name` its first
       63 bytes); `sound_id` is -1. */
    SS_EVENT_NOTICE = 6,
    /* Events were lost: a thread did not poll for a while on a device, and the queue (4096 events)
       filled. `reason` holds how many were dropped since the last such event. Offline engines never
       drop events (their queue grows until polled). */
    SS_EVENT_OVERFLOW = 7,
    /* A trigger of `name` arrived within the sound's "coalesceMs" (5 ms by default) of another start
       of the same sound and was folded into that voice (which plays louder): no SS_EVENT_STARTED or
       SS_EVENT_FINISHED follows for it. Every accepted trigger thus comes back as exactly one of
       SS_EVENT_STARTED, SS_EVENT_REFUSED or SS_EVENT_COALESCED. */
    SS_EVENT_COALESCED = 8
};

/* Why a voice finished (ss_event.reason for SS_EVENT_FINISHED; 0 otherwise). */
enum {
    SS_FINISH_ENDED = 1,
    SS_FINISH_STOPPED = 2,
    SS_FINISH_STOLEN = 3,
    SS_FINISH_DEVICE_LOST = 4
};

/* Something that happened to a sound, filled in by ss_poll_event. */
typedef struct ss_event {
    int type;      /* SS_EVENT_* */
    int sound_id;  /* the sound's id, or -1 when it has none (device events) */
    int reason;    /* SS_FINISH_* for SS_EVENT_FINISHED, the count for SS_EVENT_OVERFLOW, else 0 */
    double time;   /* seconds on the engine clock (frames rendered / rate when offline) */
    char name[64]; /* the sound's name (or the device or reason), NUL-terminated, cut at 63 bytes */
    char text[256]; /* SS_EVENT_NOTICE and SS_EVENT_DEVICE_LOST: the whole line, cut at 255 bytes;
                       otherwise the same as name */
} ss_event;

/* Called by ss_preload after each sound with the fraction done (0 < fraction <= 1) and `user`. */
typedef void (*ss_progress_fn)(double fraction, void *user);

/* The library's version as SS_API_VERSION computes it (compare with the header's).
 * Returns: major * 10000 + minor * 100 + patch. Threads: any; async-signal-safe. */
int ss_version(void);

/* The message of the last failed call on this thread: what failed, naming the value, and what to
 * do. Returns: a NUL-terminated string owned by the library, valid until the next failing call on
 * this thread; "" when nothing has failed. Threads: any; each thread has its own message. */
const char *ss_last_error(void);

/* A short constant name for a return code ("SS_ERR_UNKNOWN_NAME"), for logs.
 * Returns: a static string; "SS_UNKNOWN_CODE" for a code not listed above. Threads: any. */
const char *ss_result_name(int code);

/* Opens an engine and reads its catalogue.
 * out: receives the engine (set to NULL on failure).
 * output: "device" (the default playback device), "device:NAME" (one of the names the `soundstation
 *   devices` command lists), "auto" (the default device, or silent output when there is none, or the
 *   player's speakers in an SSH session of `soundstation ssh`: Docs/ssh.md),
 *   "silent" (mixes in real time and discards the sound) or "offline:RATE" (stereo at RATE Hz,
 *   8000...192000; nothing plays until ss_render is called; "offline" alone is 48000 Hz).
 * assets_dir: the folder holding catalogue.json, or NULL for an engine without a catalogue (sounds
 *   then come from ss_load_file).
 * Returns: SS_OK, or SS_ERR_INVALID_ARGUMENT (bad output string, NULL out), SS_ERR_DEVICE,
 *   SS_ERR_CATALOGUE. Threads: any. */
int ss_open(ss_engine **out, const char *output, const char *assets_dir);

/* Stops every sound, frees the engine's sounds and closes its output. Later calls with this handle
 * return SS_ERR_CLOSED (the handle itself, a few bytes, stays valid for that); ss_close(NULL) and a
 * second ss_close do nothing. It waits for ss_play calls already running on other threads (they take
 * nanoseconds), so it is not async-signal-safe. Threads: any, but not in a signal handler and not
 * while another thread is inside ss_preload or ss_render on the same engine. */
void ss_close(ss_engine *engine);

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
 * SS_ERR_CLOSED. Threads: any; async-signal-safe (one atomic increment), so a SIGINT handler may
 * call it. */
int ss_cancel_preload(ss_engine *engine);

/* Decodes one file (any format the engine reads) and makes it a sound called `name`, played on the effects bus
 * (no catalogue needed). Returns: the new sound's id (>= 0), or SS_ERR_INVALID_ARGUMENT (NULL or
 * empty name, a name already in use), SS_ERR_DECODE (missing or bad file), SS_ERR_DEVICE.
 * Blocks while decoding. Threads: any. */
int ss_load_file(ss_engine *engine, const char *name, const char *path);

/* The id of a loaded sound. Ids are small integers, 0, 1, 2... in the order sounds were loaded in
 * this engine. Returns: the id (>= 0), SS_ERR_NOT_LOADED (in the catalogue, not preloaded),
 * SS_ERR_UNKNOWN_NAME. Threads: any. Look ids up once, before the game loop. */
int ss_sound_id(ss_engine *engine, const char *name);

/* Plays a loaded sound now, once: volume multiplies the catalogue's (0...16), pitch is the speed
 * (0.0625...16, 1 as recorded), pan -1 left ... 1 right. The catalogue's instance limit, priority and
 * stealing apply. Never waits: it writes one command into the engine's lock-free ring and returns;
 * the mixer starts the sound within its next round (offline: at the next rendered frame). Returns:
 * SS_OK (handed to the mixer; if the instance limit or the voice pool refuses it, an
 * SS_EVENT_REFUSED event says so), SS_REFUSED (the mixer is 4096 triggers behind; dropped), or
 * SS_ERR_INVALID_ARGUMENT / SS_ERR_UNKNOWN_NAME (bad id) / SS_ERR_NOT_LOADED / SS_ERR_CLOSED.
 * Threads: any. Async-signal-safe: callable from a signal handler (no lock, no allocation, no
 * call into the Swift runtime; written in C), also while another thread is inside any ss_ call. */
int ss_play(ss_engine *engine, int sound_id, float volume, float pitch, float pan);
/* (ss_play on the id of streamed music returns SS_ERR_INVALID_ARGUMENT: play it with ss_music.)
 * A trigger folded into another by the sound's "coalesceMs" comes back as SS_EVENT_COALESCED. */

/* Plays a loaded sound at `seconds` on the engine clock (see ss_time); offline it starts at frame
 * round(seconds * rate) exactly, and a past time starts at once. Otherwise as ss_play, at pitch 1.
 * Returns: as ss_play. Threads: any. */
int ss_play_at(ss_engine *engine, int sound_id, double seconds, float volume, float pan);

/* Switches the music to the preloaded catalogue track `name`, from its start, looping as the
 * catalogue says; the playing track stops, or crossfades over `crossfade_seconds` (0 cuts).
 * Returns: SS_OK, SS_ERR_INVALID_ARGUMENT, SS_ERR_UNKNOWN_NAME, SS_ERR_NOT_LOADED, SS_ERR_CLOSED.
 * Threads: any. */
int ss_music(ss_engine *engine, const char *name, double crossfade_seconds);

/* Switches the music like ss_music, on the playing track's grid: `at` is "now", "beat", "bar",
 * "bars=N" (the next bar whose count is a multiple of N) or "marker=NAME", from the catalogue's
 * "bpm", "beatsPerBar", "downbeat" and "markers" of the track playing. The switch (or the start of
 * its crossfade) lands on that frame (offline exactly; on a device within a mixing period), and the
 * new track starts from its first downbeat. With no music playing it switches at once.
 * Returns: SS_OK, SS_ERR_INVALID_ARGUMENT (a bad point, or a beat or bar asked of a track without a
 * tempo: ss_last_error names it), SS_ERR_UNKNOWN_NAME, SS_ERR_NOT_LOADED, SS_ERR_CLOSED.
 * Threads: any. */
int ss_music_at(ss_engine *engine, const char *name, double crossfade_seconds, const char *at);

/* Where the playing music is in its bars, as ss_music_position fills it (an ss_musical_position). */
typedef struct ss_musical_position {
    int bar;         /* from 1 at the track's first downbeat, counting on through loops */
    int beat;        /* the beat in the bar, from 1 */
    double fraction; /* how far into the beat, 0 ... <1 */
} ss_musical_position;

/* Fills `out` with where the playing music is now on the engine clock (offline: at the frame
 * rendered up to). Poll it once per game frame and flash when the beat changes.
 * Returns: 1 when filled, 0 when no music with a tempo plays, SS_ERR_INVALID_ARGUMENT (NULL out),
 * SS_ERR_CLOSED. Threads: any. */
int ss_music_position(ss_engine *engine, ss_musical_position *out);

/* Sets the intensity (0...1) of layered music (a catalogue entry with "stems"), at once (0) or
 * gliding over `seconds`: each stem is heard from its "from" and full from its "full".
 * Returns: SS_OK, SS_ERR_INVALID_ARGUMENT (NaN or out of range), SS_ERR_CLOSED. Threads: any. */
int ss_music_intensity(ss_engine *engine, double intensity, double seconds);

/* Stops the music, at once (0) or fading out over `fade_seconds`.
 * Returns: SS_OK, SS_ERR_INVALID_ARGUMENT (NaN or negative fade), SS_ERR_CLOSED. Threads: any. */
int ss_stop_music(ss_engine *engine, double fade_seconds);

/* Stops every effect (music goes on), at once or fading out over `fade_seconds`.
 * Returns: as ss_stop_music. Threads: any. */
int ss_stop_effects(ss_engine *engine, double fade_seconds);

/* Sets a bus's volume (linear gain 0...16), gliding there over 20 ms. bus: "master" (scales all),
 * "music", "effects" or "voice". Returns: SS_OK, SS_ERR_INVALID_ARGUMENT (NaN, negative, too
 * large, NULL), SS_ERR_UNKNOWN_NAME (another bus), SS_ERR_CLOSED. Threads: any. */
int ss_set_volume(ss_engine *engine, const char *bus, float gain);

/* Pauses every sound (a game's pause screen). Returns: SS_OK or SS_ERR_CLOSED. Threads: any. */
int ss_pause_all(ss_engine *engine);

/* Resumes what ss_pause_all paused. Returns: SS_OK or SS_ERR_CLOSED. Threads: any. */
int ss_resume_all(ss_engine *engine);

/* ---- Space and colour: positions, the listener, filters and reverb ---- */

/* The kinds of filter ss_set_filter sets: real cutoffs in hertz, 12 dB per octave, run by the
 * engine itself (any device; offline renders stay identical run to run). */
enum {
    SS_FILTER_OFF = 0,
    /* Keeps what lies below the cutoff. */
    SS_FILTER_LOWPASS = 1,
    /* Keeps what lies above the cutoff. */
    SS_FILTER_HIGHPASS = 2,
    /* Keeps what lies around the cutoff (its centre); narrower as q grows. */
    SS_FILTER_BANDPASS = 3
};

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

/* Filters every sound on a bus ("master", "music", "effects" or "voice") with a real cutoff:
 * `type` SS_FILTER_LOWPASS / HIGHPASS / BANDPASS at `hertz` (above 0, at most half the sample
 * rate) with resonance `q` (above 0 and at most 100; 0.7071 is flat), or SS_FILTER_OFF (hertz and q
 * are then ignored). The cutoff glides there over `glide_seconds` (0 switches at once, through a
 * 10 ms crossfade so it never clicks). A filtered sound is fed to the output through a short queue,
 * so a change is heard about 85 ms later on a device (4 x 1024 frames). Returns: SS_OK,
 * SS_ERR_INVALID_ARGUMENT (an unknown type, a cutoff or q out of range or NaN, a negative glide; the
 * message names the value), SS_ERR_UNKNOWN_NAME (another bus), SS_ERR_CLOSED. Threads: any. */
int ss_set_filter(ss_engine *engine, const char *bus, int type, float hertz, float q, double glide_seconds);

/* Gives a bus a reverb from the EFX preset list, which every sound on it sends to: "cave", "hall",
 * "room", "underwater", "arena", "bathroom", ... (the README lists all 26; case, dashes and
 * underscores do not matter), or "off" (or NULL) for none. Without EFX on the device it is accepted
 * and does nothing. While nothing on the bus sends to it for longer than its tail it rests and costs
 * nothing; the next sound wakes it. Returns: SS_OK, SS_ERR_UNKNOWN_NAME (another bus or preset; the message names
 * it), SS_ERR_DEVICE (OpenAL refused it), SS_ERR_CLOSED. Threads: any. */
int ss_set_reverb(ss_engine *engine, const char *bus, const char *preset);

/* Mixes the next `frames` frames of an "offline:RATE" engine into `interleaved_stereo` (2 * frames
 * floats, left then right, within -1...1) and advances its clock by frames / RATE seconds. Renders
 * in pieces straight into the buffer: it allocates nothing in proportion to `frames`.
 * Returns: the number of frames written (`frames`), or SS_ERR_NOT_OFFLINE, SS_ERR_INVALID_ARGUMENT
 * (NULL buffer, negative frames), SS_ERR_CLOSED. Threads: any, one render at a time per engine. */
int ss_render(ss_engine *engine, float *interleaved_stereo, int frames);

/* Takes the oldest event not yet taken. Offline, every event is kept until taken; on a device the
 * newest 4096 are, and when older ones were dropped the next call returns SS_EVENT_OVERFLOW with
 * the count in `reason`.
 * Returns: 1 and fills `out` when there was one, 0 when there is none, or SS_ERR_INVALID_ARGUMENT
 * (NULL out), SS_ERR_CLOSED. Threads: any. */
int ss_poll_event(ss_engine *engine, ss_event *out);

/* Seconds on the engine clock: frames rendered / rate when offline, time since opening otherwise.
 * Returns: the time (>= 0), or a negative SS_ERR_* code. Threads: any. */
double ss_time(ss_engine *engine);

/* The engine's output rate in Hz. Returns: the rate, or a negative SS_ERR_* code. Threads: any. */
int ss_sample_rate(ss_engine *engine);

/* Where the engine's sound goes, as opened: "device:NAME" (NAME as `soundstation devices` lists
 * it), "silent" (also when "auto" found no device: an SS_EVENT_NOTICE says why), "remote" ("auto"
 * in an SSH session of the player's `soundstation ssh`: the player's machine plays it; Docs/ssh.md),
 * or "offline:RATE".
 * Returns: a string owned by the handle, valid as long as the handle (also after ss_close), or ""
 * for NULL. Threads: any. */
const char *ss_output(ss_engine *engine);

#ifdef __cplusplus
}
#endif

#endif /* SOUNDSTATION_H */
