/* Keeps ALSA, OpenAL Soft and libmpg123 off the terminal: see include/ssquiet.h. */
#define _GNU_SOURCE
#include "ssquiet.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

static _Atomic(ssq_sink) current_sink = NULL;
static pthread_once_t installed = PTHREAD_ONCE_INIT;

static void say(int source, const char *line) {
    ssq_sink sink = atomic_load(&current_sink);
    if (sink != NULL && line != NULL && line[0] != '\0') sink(source, line);
}

/* ALSA's handler is variadic: void (const char *file, int line, const char *function, int err,
   const char *fmt, ...). Formatted as ALSA's default does, without the "ALSA lib " prefix. */
static void alsa_error(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    char text[512];
    int used = snprintf(text, sizeof text, "ALSA %s:%d (%s) ", file ? file : "?", line, function ? function : "?");
    if (used < 0 || (size_t)used >= sizeof text) used = 0;
    va_list args;
    va_start(args, fmt);
    if (fmt != NULL) vsnprintf(text + used, sizeof text - (size_t)used, fmt, args);
    va_end(args);
    if (err != 0) {
        size_t length = strlen(text);
        snprintf(text + length, sizeof text - length, ": %s", strerror(err < 0 ? -err : err));
    }
    say(SSQ_ALSA, text);
}

/* OpenAL Soft 1.24 and later: void (void *user, char level, const char *message, int length). */
static void openal_log(void *user, char level, const char *message, int length) {
    (void)user;
    (void)level;
    char text[512];
    size_t count = length < 0 ? 0 : (size_t)length;
    if (count >= sizeof text) count = sizeof text - 1;
    memcpy(text, message, count);
    while (count > 0 && (text[count - 1] == '\n' || text[count - 1] == '\r')) count--;
    text[count] = '\0';
    say(SSQ_OPENAL, text);
}

typedef void (*alsa_handler_fn)(const char *, int, const char *, int, const char *, ...);

static void install_hooks(void) {
    /* OpenAL Soft reads ALSOFT_LOGLEVEL once, at its first ALC call. The user's setting wins. */
    if (getenv("ALSOFT_LOGLEVEL") == NULL) setenv("ALSOFT_LOGLEVEL", "0", 0);
    /* Kept open for the process's life, so OpenAL's own dlopen finds this copy with the handler. */
    void *alsa = dlopen("libasound.so.2", RTLD_NOW | RTLD_GLOBAL);
    if (alsa != NULL) {
        int (*set_handler)(alsa_handler_fn) = (int (*)(alsa_handler_fn))dlsym(alsa, "snd_lib_error_set_handler");
        if (set_handler != NULL) set_handler(alsa_error);
    }
    void (*set_log)(void (*)(void *, char, const char *, int), void *) =
        (void (*)(void (*)(void *, char, const char *, int), void *))dlsym(RTLD_DEFAULT, "alsoft_set_log_callback");
    if (set_log != NULL) set_log(openal_log, NULL);
}

void ssq_install(ssq_sink sink) {
    atomic_store(&current_sink, sink);
    pthread_once(&installed, install_hooks);
}

/* ---- MPEG audio through libmpg123, with MPG123_QUIET ---- */

/* The few libmpg123 names used, declared here so that no header is needed (values from mpg123.h,
   stable since 1.x). */
enum {
    MP_OK = 0, MP_ERR = -1, MP_DONE = -12, MP_NEW_FORMAT = -11, MP_NEED_MORE = -10,
    MP_VERBOSE = 0, MP_ADD_FLAGS = 2, MP_REMOVE_FLAGS = 13,
    MP_QUIET = 0x20, MP_GAPLESS = 0x40, MP_FORCE_FLOAT = 0x400, MP_AUTO_RESAMPLE = 0x8000,
    MP_ENC_FLOAT_32 = 0x200, MP_NO_FRANKENSTEIN = 0x1000000
};
typedef struct mpg123_handle_struct mpg123_handle;

static struct {
    int (*init)(void);
    mpg123_handle *(*create)(const char *, int *);
    int (*param)(mpg123_handle *, int, long, double);
    int (*format_none)(mpg123_handle *);
    int (*format)(mpg123_handle *, long, int, int);
    int (*replace_reader_handle)(mpg123_handle *, ssize_t (*)(void *, void *, size_t), off_t (*)(void *, off_t, int),
                                 void (*)(void *));
    int (*open_handle)(mpg123_handle *, void *);
    int (*getformat)(mpg123_handle *, long *, int *, int *);
    off_t (*length)(mpg123_handle *);
    int (*read)(mpg123_handle *, void *, size_t, size_t *);
    off_t (*seek)(mpg123_handle *, off_t, int);
    const char *(*strerror)(mpg123_handle *);
    int (*close)(mpg123_handle *);
    void (*destroy)(mpg123_handle *);
    int loaded;
} mp;

static pthread_once_t mp_once = PTHREAD_ONCE_INIT;

static void load_mpg123(void) {
    void *lib = dlopen("libmpg123.so.0", RTLD_NOW);
    if (lib == NULL) return;
#define FIND(field, name)                                       \
    do {                                                        \
        *(void **)&mp.field = dlsym(lib, name);                 \
        if (mp.field == NULL) return;                           \
    } while (0)
    FIND(init, "mpg123_init");
    FIND(create, "mpg123_new");
    FIND(param, "mpg123_param");
    FIND(format_none, "mpg123_format_none");
    FIND(format, "mpg123_format");
    FIND(replace_reader_handle, "mpg123_replace_reader_handle");
    FIND(open_handle, "mpg123_open_handle");
    FIND(getformat, "mpg123_getformat");
    FIND(length, "mpg123_length");
    FIND(read, "mpg123_read");
    FIND(seek, "mpg123_seek");
    FIND(strerror, "mpg123_strerror");
    FIND(close, "mpg123_close");
    FIND(destroy, "mpg123_delete");
#undef FIND
    mp.init();
    mp.loaded = 1;
}

int ssq_mp3_available(void) {
    pthread_once(&mp_once, load_mpg123);
    return mp.loaded;
}

struct ssq_mp3 {
    mpg123_handle *handle;
    void *user;
    ssq_read_fn read;
    ssq_seek_fn seek;
    int channels;
};

static ssize_t reader(void *self, void *buffer, size_t count) {
    struct ssq_mp3 *d = self;
    return (ssize_t)d->read(d->user, buffer, count);
}

static off_t seeker(void *self, off_t offset, int whence) {
    struct ssq_mp3 *d = self;
    return (off_t)d->seek(d->user, (int64_t)offset, whence);
}

static void set_error(char *error, size_t size, const char *what, const char *detail) {
    if (error == NULL || size == 0) return;
    snprintf(error, size, "%s%s%s", what, detail ? ": " : "", detail ? detail : "");
}

ssq_mp3 *ssq_mp3_open(void *user, ssq_read_fn read, ssq_seek_fn seek, long *rate, int *channels,
                      int64_t *frames, char *error, size_t size) {
    if (!ssq_mp3_available()) {
        set_error(error, size, "libmpg123.so.0 cannot be loaded (install libmpg123-0)", NULL);
        return NULL;
    }
    struct ssq_mp3 *d = calloc(1, sizeof *d);
    if (d == NULL) {
        set_error(error, size, "out of memory for an MPEG decoder", NULL);
        return NULL;
    }
    d->user = user;
    d->read = read;
    d->seek = seek;
    int code = 0;
    d->handle = mp.create(NULL, &code);
    if (d->handle == NULL) {
        set_error(error, size, "libmpg123 cannot make a decoder", NULL);
        free(d);
        return NULL;
    }
    mp.param(d->handle, MP_VERBOSE, 0, 0);
    mp.param(d->handle, MP_ADD_FLAGS, MP_QUIET | MP_GAPLESS | MP_FORCE_FLOAT | MP_NO_FRANKENSTEIN, 0);
    /* MPG123_NO_FRANKENSTEIN: a damaged MP3 ends at the first frame whose header changes the layer,
       rate or version. Garbage read as a layer II header would otherwise reach libmpg123's layer II
       decoder, which prints "Truncating stereo boundary to sideband limit." with no check of
       MPG123_QUIET and no hook. What was decoded plays, and the shortfall against the length the
       stream declares is reported as a file cut short. MPG123_AUTO_RESAMPLE stays on (libsndfile
       turns it off) so that no rate mismatch reaches the format message that 1.31 also prints
       unconditionally. */
    long r = 0;
    int c = 0, encoding = 0;
    if (mp.replace_reader_handle(d->handle, reader, seeker, NULL) != MP_OK ||
        mp.open_handle(d->handle, d) != MP_OK || mp.getformat(d->handle, &r, &c, &encoding) != MP_OK ||
        c < 1 || c > 2 || r <= 0) {
        set_error(error, size, "not MPEG audio libmpg123 can read", mp.strerror(d->handle));
        mp.close(d->handle);
        mp.destroy(d->handle);
        free(d);
        return NULL;
    }
    mp.format_none(d->handle);
    mp.format(d->handle, r, c, MP_ENC_FLOAT_32);
    /* The length the stream declares (its Xing/LAME header, else an estimate), not a scan: a file cut
       short then decodes fewer frames than declared, which the decoder reports. */
    off_t length = mp.length(d->handle);
    d->channels = c;
    *rate = r;
    *channels = c;
    *frames = length >= 0 ? (int64_t)length : -1;
    return d;
}

long ssq_mp3_read(ssq_mp3 *d, float *out, long frames, char *error, size_t size) {
    size_t wanted = (size_t)frames * (size_t)d->channels * sizeof(float);
    size_t filled = 0;
    int idle = 0;
    while (filled < wanted && idle < 8) {
        size_t done = 0;
        int code = mp.read(d->handle, (unsigned char *)out + filled, wanted - filled, &done);
        filled += done;
        if (code == MP_DONE) break;
        if (code == MP_NEW_FORMAT || code == MP_NEED_MORE) {
            idle += done == 0;
            continue;
        }
        if (code != MP_OK) {
            if (filled > 0) break; /* hand over what there is; the error comes back next call */
            set_error(error, size, "libmpg123", mp.strerror(d->handle));
            return -1;
        }
        if (done == 0) break;
    }
    return (long)(filled / ((size_t)d->channels * sizeof(float)));
}

int ssq_mp3_seek(ssq_mp3 *d, int64_t frame, char *error, size_t size) {
    if (mp.seek(d->handle, (off_t)frame, SEEK_SET) < 0) {
        set_error(error, size, "libmpg123 cannot seek", mp.strerror(d->handle));
        return -1;
    }
    return 0;
}

void ssq_mp3_close(ssq_mp3 *d) {
    if (d == NULL) return;
    mp.close(d->handle);
    mp.destroy(d->handle);
    free(d);
}
