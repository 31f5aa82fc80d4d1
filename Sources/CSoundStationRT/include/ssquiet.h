/*
 * ssquiet: keeps the C libraries under SoundStation off the game's terminal.
 *
 * A terminal game owns file descriptors 1 and 2. ALSA (loaded by OpenAL Soft when it falls back from
 * PulseAudio), OpenAL Soft's own log and libmpg123 would each write there by default. Each has a
 * hook, and this file uses it instead of touching the descriptors (redirecting fd 2 around a call
 * would swallow the game's own messages from its other threads):
 *   - ALSA: snd_lib_error_set_handler, reached with dlopen/dlsym so the library gains no link
 *     dependency on libasound; OpenAL Soft's later dlopen of libasound.so.2 finds the same copy;
 *   - OpenAL Soft: ALSOFT_LOGLEVEL=0 set before its first call when the user has not set it (1.19 has
 *     no log callback), and alsoft_set_log_callback where a newer OpenAL Soft has it;
 *   - libmpg123: MPEG audio is decoded here through libmpg123 itself with MPG123_QUIET (libsndfile
 *     1.2 does not set it); see ssq_mp3_*.
 * What they say goes to the sink given to ssq_install, one line at a time.
 */
#ifndef SSQUIET_H
#define SSQUIET_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Which library a line came from. */
enum ssq_source { SSQ_ALSA = 1, SSQ_OPENAL = 2, SSQ_MPG123 = 3 };

/** Receives one line (no newline), on the thread where the library spoke. */
typedef void (*ssq_sink)(int source, const char *line);

/** Installs the hooks, once per process (later calls only replace the sink). Call before OpenAL's
    first call. Safe from any thread. */
void ssq_install(ssq_sink sink);

/** An MPEG audio (MP3, MP2, MP1) decoder over libmpg123, quiet. */
typedef struct ssq_mp3 ssq_mp3;

/** Reads up to `count` bytes into `buffer`; returns the count read, 0 at the end, -1 on error. */
typedef long (*ssq_read_fn)(void *user, void *buffer, size_t count);
/** Moves to `offset` from `whence` (SEEK_SET, SEEK_CUR, SEEK_END); returns the new position or -1. */
typedef int64_t (*ssq_seek_fn)(void *user, int64_t offset, int whence);

/** Whether libmpg123 could be loaded (it comes with libsndfile). */
int ssq_mp3_available(void);

/** Opens a stream read through `read`/`seek` with `user`. On success fills the rate, channels (1 or 2)
    and the frames (-1 when unknown) and returns the decoder; on failure returns NULL and writes why
    into `error` (`size` bytes). Output is 32-bit float, gapless. */
ssq_mp3 *ssq_mp3_open(void *user, ssq_read_fn read, ssq_seek_fn seek, long *rate, int *channels,
                      int64_t *frames, char *error, size_t size);

/** Decodes up to `frames` frames into `out` (interleaved). Returns the frames written (0 at the end),
    or -1 with the reason in `error`. */
long ssq_mp3_read(ssq_mp3 *decoder, float *out, long frames, char *error, size_t size);

/** Moves so that the next read starts at `frame`. Returns 0, or -1 with the reason in `error`. */
int ssq_mp3_seek(ssq_mp3 *decoder, int64_t frame, char *error, size_t size);

/** Closes and frees the decoder. */
void ssq_mp3_close(ssq_mp3 *decoder);

#ifdef __cplusplus
}
#endif

#endif
