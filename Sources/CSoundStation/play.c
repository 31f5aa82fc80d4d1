/* The handle behind ss_engine * and ss_play, the library's async-signal-safe entry: plain C over the
   engine's lock-free trigger ring (ssrt), with no lock, no allocation and no Swift on its path. */
#include "soundstation_internal.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "ssrt.h"

/* C ids (load order per engine) that can be played by ss_play. */
#define SS_MAX_IDS 16384

struct ss_engine {
    void *swift;           /* the Swift engine object, never freed (see CEngine) */
    ssrt_core *core;       /* its trigger ring, kept alive by the Swift object for the handle's life */
    _Atomic int closed;
    _Atomic int32_t ids[SS_MAX_IDS]; /* C id -> the engine's sound id, or -1 */
};

ss_engine *ss_internal_engine_create(void *core) {
    ss_engine *engine = malloc(sizeof *engine);
    if (engine == NULL) return NULL;
    engine->swift = NULL;
    engine->core = core;
    atomic_init(&engine->closed, 0);
    for (int i = 0; i < SS_MAX_IDS; i++) atomic_init(&engine->ids[i], -1);
    return engine;
}

void ss_internal_engine_attach(ss_engine *engine, void *swift) { engine->swift = swift; }

void *ss_internal_engine_swift(ss_engine *engine) { return engine->swift; }

void ss_internal_engine_close(ss_engine *engine) { atomic_store(&engine->closed, 1); }

void ss_internal_engine_map(ss_engine *engine, int32_t c_id, int32_t engine_id) {
    if (c_id >= 0 && c_id < SS_MAX_IDS) atomic_store(&engine->ids[c_id], engine_id);
}

/* Builds "ss_play: <what> <value><rest>" by hand: snprintf is not async-signal-safe. */
static void set_error_with_int(const char *what, long long value, const char *rest) {
    char message[256];
    size_t n = 0;
    for (const char *p = "ss_play: "; *p && n < sizeof message - 1; p++) message[n++] = *p;
    for (const char *p = what; *p && n < sizeof message - 1; p++) message[n++] = *p;
    char digits[24];
    int count = 0;
    unsigned long long magnitude = value < 0 ? 0ULL - (unsigned long long)value : (unsigned long long)value;
    do {
        digits[count++] = (char)('0' + magnitude % 10);
        magnitude /= 10;
    } while (magnitude > 0 && count < (int)sizeof digits);
    if (value < 0 && n < sizeof message - 1) message[n++] = '-';
    while (count > 0 && n < sizeof message - 1) message[n++] = digits[--count];
    for (const char *p = rest; *p && n < sizeof message - 1; p++) message[n++] = *p;
    message[n] = '\0';
    ss_internal_set_error(message);
}

int ss_play(ss_engine *engine, int sound_id, float volume, float pitch, float pan) {
    if (engine == NULL) {
        ss_internal_set_error("ss_play: engine is NULL: open one with ss_open");
        return SS_ERR_INVALID_ARGUMENT;
    }
    if (atomic_load(&engine->closed)) {
        ss_internal_set_error("ss_play: the engine is closed: open another with ss_open");
        return SS_ERR_CLOSED;
    }
    /* Written so that NaN fails each test. */
    if (!(volume >= 0.0f && volume <= 16.0f)) {
        ss_internal_set_error("ss_play: volume must be a number in 0...16");
        return SS_ERR_INVALID_ARGUMENT;
    }
    if (!(pitch >= 0.0625f && pitch <= 16.0f)) {
        ss_internal_set_error("ss_play: pitch must be a number in 0.0625...16");
        return SS_ERR_INVALID_ARGUMENT;
    }
    if (!(pan >= -1.0f && pan <= 1.0f)) {
        ss_internal_set_error("ss_play: pan must be a number in -1...1");
        return SS_ERR_INVALID_ARGUMENT;
    }
    int32_t sound = sound_id >= 0 && sound_id < SS_MAX_IDS ? atomic_load(&engine->ids[sound_id]) : -1;
    if (sound < 0) {
        set_error_with_int("no sound has id ", sound_id, ": use ss_sound_id or ss_load_file");
        return SS_ERR_UNKNOWN_NAME;
    }
    int64_t ticket = ssrt_trigger(engine->core, sound, volume, pitch, pan, SSRT_NOW);
    if (ticket == -2) {
        set_error_with_int("sound id ", sound_id, " is not loaded now: preload it with ss_preload");
        return SS_ERR_NOT_LOADED;
    }
    if (ticket < 0) {
        ss_internal_set_error("ss_play: the engine has fallen 4096 triggers behind; this one was dropped");
        return SS_REFUSED;
    }
    return SS_OK;
}
