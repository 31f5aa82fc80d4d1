/* The handle behind ss_engine * and ss_play, the library's async-signal-safe entry: plain C over the
   engine's lock-free trigger ring (ssrt), with no lock, no allocation and no Swift on its path. */
#include "soundstation_internal.h"

#include <stdatomic.h>
#include <stdint.h>
#include <sched.h>
#include <stdlib.h>

#include "ssrt.h"

/* C ids (load order per engine) that can be played by ss_play. */
#define SS_MAX_IDS 16384
/* The engine id a C id of streamed music maps to: ss_play says to use ss_music. */
#define SS_ID_MUSIC (-2)

struct ss_engine {
    void *swift;           /* the Swift engine object, kept as the tombstone after ss_close */
    ssrt_core *core;       /* its trigger ring, alive until ss_close has waited out every ss_play */
    _Atomic int closed;
    _Atomic int inflight;  /* ss_play calls between their closed check and their return */
    _Atomic(_Atomic int32_t *) ids; /* C id -> the engine's sound id, or -1; freed by ss_close */
    _Atomic(char *) output; /* what ss_output returns; freed by ss_close */
    _Atomic unsigned cancels; /* ss_cancel_preload calls so far */
};

ss_engine *ss_internal_engine_create(void *core) {
    ss_engine *engine = malloc(sizeof *engine);
    _Atomic int32_t *ids = malloc(sizeof(_Atomic int32_t) * SS_MAX_IDS);
    if (engine == NULL || ids == NULL) {
        free(engine);
        free(ids);
        return NULL;
    }
    for (int i = 0; i < SS_MAX_IDS; i++) atomic_init(&ids[i], -1);
    engine->swift = NULL;
    engine->core = core;
    atomic_init(&engine->closed, 0);
    atomic_init(&engine->inflight, 0);
    atomic_init(&engine->ids, ids);
    atomic_init(&engine->output, NULL);
    atomic_init(&engine->cancels, 0);
    return engine;
}

void ss_internal_engine_attach(ss_engine *engine, void *swift) { engine->swift = swift; }

void *ss_internal_engine_swift(ss_engine *engine) { return engine->swift; }

void ss_internal_engine_set_output(ss_engine *engine, const char *output) {
    size_t n = 0;
    while (output[n] != '\0' && n < 255) n++;
    if (output[n] != '\0') {
        while (n > 0 && ((unsigned char)output[n] & 0xC0) == 0x80) n--;
    }
    char *copy = malloc(n + 1);
    if (copy == NULL) return;
    for (size_t i = 0; i < n; i++) copy[i] = output[i];
    copy[n] = '\0';
    free(atomic_exchange(&engine->output, copy));
}

const char *ss_output(ss_engine *engine) {
    if (engine == NULL || atomic_load(&engine->closed)) return "";
    char *output = atomic_load(&engine->output);
    return output == NULL ? "" : output;
}

/* Marks the handle closed, waits out every ss_play already past its check (they take nanoseconds),
   then frees the id table: after this no C code touches the ring, so the Swift side may free it. */
void ss_internal_engine_close(ss_engine *engine) {
    atomic_store(&engine->closed, 1);
    while (atomic_load(&engine->inflight) != 0) sched_yield();
    free(atomic_exchange(&engine->ids, NULL));
    free(atomic_exchange(&engine->output, NULL));
    engine->core = NULL;
}

unsigned ss_internal_engine_cancels(ss_engine *engine) { return atomic_load(&engine->cancels); }

int ss_cancel_preload(ss_engine *engine) {
    if (engine == NULL) {
        ss_internal_set_error("ss_cancel_preload: engine is NULL: open one with ss_open");
        return SS_ERR_INVALID_ARGUMENT;
    }
    if (atomic_load(&engine->closed)) {
        ss_internal_set_error("ss_cancel_preload: the engine is closed");
        return SS_ERR_CLOSED;
    }
    atomic_fetch_add(&engine->cancels, 1);
    return SS_OK;
}

void ss_internal_engine_map(ss_engine *engine, int32_t c_id, int32_t engine_id) {
    _Atomic int32_t *ids = atomic_load(&engine->ids);
    if (ids != NULL && c_id >= 0 && c_id < SS_MAX_IDS) atomic_store(&ids[c_id], engine_id);
}

/* A message built by hand: snprintf is not async-signal-safe. */
struct message {
    char text[256];
    size_t length;
};

static void append(struct message *m, const char *text) {
    for (; *text && m->length < sizeof m->text - 1; text++) m->text[m->length++] = *text;
    m->text[m->length] = '\0';
}

static void append_unsigned(struct message *m, unsigned long long value) {
    char digits[24];
    int count = 0;
    do {
        digits[count++] = (char)('0' + value % 10);
        value /= 10;
    } while (value > 0 && count < (int)sizeof digits);
    char text[25];
    int n = 0;
    while (count > 0) text[n++] = digits[--count];
    text[n] = '\0';
    append(m, text);
}

static void append_int(struct message *m, long long value) {
    if (value < 0) append(m, "-");
    append_unsigned(m, value < 0 ? 0ULL - (unsigned long long)value : (unsigned long long)value);
}

/* Up to four decimals, trailing zeros dropped: 2, 0.5, -0.0625, nan, inf. */
static void append_float(struct message *m, float value) {
    if (value != value) { append(m, "nan"); return; }
    if (value < 0) { append(m, "-"); value = -value; }
    if (value > 1e18f) { append(m, "inf"); return; }
    unsigned long long scaled = (unsigned long long)((double)value * 10000.0 + 0.5);
    append_unsigned(m, scaled / 10000);
    unsigned long long fraction = scaled % 10000;
    if (fraction == 0) return;
    char digits[6] = {'.', 0, 0, 0, 0, 0};
    for (int i = 4; i >= 1; i--) {
        digits[i] = (char)('0' + fraction % 10);
        fraction /= 10;
    }
    for (int i = 4; i >= 1 && digits[i] == '0'; i--) digits[i] = '\0';
    append(m, digits);
}

static int fail_number(const char *what, float value, const char *range) {
    struct message m = {{0}, 0};
    append(&m, "ss_play: ");
    append(&m, what);
    append(&m, " ");
    append_float(&m, value);
    append(&m, " is not a number in ");
    append(&m, range);
    ss_internal_set_error(m.text);
    return SS_ERR_INVALID_ARGUMENT;
}

static int fail_id(int code, const char *before, int id, const char *after) {
    struct message m = {{0}, 0};
    append(&m, "ss_play: ");
    append(&m, before);
    append_int(&m, id);
    append(&m, after);
    ss_internal_set_error(m.text);
    return code;
}

static int play(ss_engine *engine, int sound_id, float volume, float pitch, float pan) {
    /* Written so that NaN fails each test. */
    if (!(volume >= 0.0f && volume <= 16.0f)) return fail_number("volume", volume, "0...16");
    if (!(pitch >= 0.0625f && pitch <= 16.0f)) return fail_number("pitch", pitch, "0.0625...16");
    if (!(pan >= -1.0f && pan <= 1.0f)) return fail_number("pan", pan, "-1...1");
    _Atomic int32_t *ids = atomic_load(&engine->ids);
    int32_t sound = ids != NULL && sound_id >= 0 && sound_id < SS_MAX_IDS ? atomic_load(&ids[sound_id]) : -1;
    if (sound == SS_ID_MUSIC) {
        return fail_id(SS_ERR_INVALID_ARGUMENT, "sound id ", sound_id,
                       " is streamed music: play it with ss_music (ss_play plays preloaded effects)");
    }
    if (sound < 0) return fail_id(SS_ERR_UNKNOWN_NAME, "no sound has id ", sound_id, ": use ss_sound_id or ss_load_file");
    int64_t ticket = ssrt_trigger(engine->core, sound, volume, pitch, pan, SSRT_NOW);
    if (ticket == -2) return fail_id(SS_ERR_NOT_LOADED, "sound id ", sound_id, " is not loaded now: preload it with ss_preload");
    if (ticket < 0) {
        ss_internal_set_error("ss_play: the engine has fallen 4096 triggers behind; this one was dropped");
        return SS_REFUSED;
    }
    return SS_OK;
}

int ss_play(ss_engine *engine, int sound_id, float volume, float pitch, float pan) {
    if (engine == NULL) {
        ss_internal_set_error("ss_play: engine is NULL: open one with ss_open");
        return SS_ERR_INVALID_ARGUMENT;
    }
    /* Counted before the check, so that ss_close (which sets closed, then waits for the count to
       fall to 0) never frees the ring under a call. */
    atomic_fetch_add(&engine->inflight, 1);
    int result;
    if (atomic_load(&engine->closed)) {
        ss_internal_set_error("ss_play: the engine is closed: open another with ss_open");
        result = SS_ERR_CLOSED;
    } else {
        result = play(engine, sound_id, volume, pitch, pan);
    }
    atomic_fetch_sub(&engine->inflight, 1);
    return result;
}
