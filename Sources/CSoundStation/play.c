/* The handle behind ss_engine *, ss_play and ss_play_voice (the library's trigger entries, plain C
   over the engine's lock-free trigger ring (ssrt), with no lock and no Swift on their path), and the
   options structs' _init functions. */
#include "soundstation_internal.h"

#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "ssrt.h"

/* C ids (load order per engine) live in a two-level table: chunks of SS_ID_CHUNK entries made as ids
   are given (never in ss_play), so ss_play reaches every id the engine gave up to SS_MAX_IDS. */
#define SS_ID_CHUNK 1024
#define SS_ID_CHUNKS 1024

struct ss_engine {
    void *swift;           /* the Swift engine object, kept as the tombstone after ss_close */
    ssrt_core *core;       /* its trigger ring, alive until ss_close has waited out every trigger */
    _Atomic int closed;
    _Atomic int inflight;  /* ss_play / ss_play_voice calls between their closed check and return */
    /* C id -> entry (the engine's sound id with SS_ID_LOOPS, SS_ID_MUSIC, or -1), by chunk;
       freed by ss_close */
    _Atomic(_Atomic(_Atomic int32_t *) *) ids;
    /* What ss_output returns: kept (never freed) with the handle, so it outlives ss_close. */
    _Atomic(char *) output;
    _Atomic unsigned cancels; /* ss_cancel_preload calls so far */
    double rate;              /* the output's rate, for start times */
};

ss_engine *ss_internal_engine_create(void *core, double rate) {
    ss_engine *engine = malloc(sizeof *engine);
    _Atomic(_Atomic int32_t *) *ids = malloc(sizeof(*ids) * SS_ID_CHUNKS);
    if (engine == NULL || ids == NULL) {
        free(engine);
        free(ids);
        return NULL;
    }
    for (int i = 0; i < SS_ID_CHUNKS; i++) atomic_init(&ids[i], NULL);
    engine->swift = NULL;
    engine->core = core;
    atomic_init(&engine->closed, 0);
    atomic_init(&engine->inflight, 0);
    atomic_init(&engine->ids, ids);
    atomic_init(&engine->output, NULL);
    atomic_init(&engine->cancels, 0);
    engine->rate = rate;
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
    if (engine == NULL) return "";
    char *output = atomic_load(&engine->output);
    return output == NULL ? "" : output;
}

static void free_ids(_Atomic(_Atomic int32_t *) *ids) {
    if (ids == NULL) return;
    for (int i = 0; i < SS_ID_CHUNKS; i++) free(atomic_load(&ids[i]));
    free(ids);
}

/* Marks the handle closed, waits out every trigger already past its check (they take nanoseconds),
   then frees the id table: after this no C code touches the ring, so the Swift side may free it. The
   output string stays, as ss_output promises. */
void ss_internal_engine_close(ss_engine *engine) {
    atomic_store(&engine->closed, 1);
    while (atomic_load(&engine->inflight) != 0) sched_yield();
    free_ids(atomic_exchange(&engine->ids, NULL));
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

int ss_internal_engine_map(ss_engine *engine, int32_t c_id, int32_t entry) {
    _Atomic(_Atomic int32_t *) *ids = atomic_load(&engine->ids);
    if (ids == NULL || c_id < 0 || c_id >= SS_MAX_IDS) return 0;
    _Atomic(_Atomic int32_t *) *slot = &ids[c_id / SS_ID_CHUNK];
    _Atomic int32_t *chunk = atomic_load(slot);
    if (chunk == NULL) {
        _Atomic int32_t *made = malloc(sizeof(_Atomic int32_t) * SS_ID_CHUNK);
        if (made == NULL) return 0;
        for (int i = 0; i < SS_ID_CHUNK; i++) atomic_init(&made[i], -1);
        _Atomic int32_t *expected = NULL;
        if (atomic_compare_exchange_strong(slot, &expected, made)) {
            chunk = made;
        } else {
            free(made);
            chunk = expected;
        }
    }
    atomic_store(&chunk[c_id % SS_ID_CHUNK], entry);
    return 1;
}

/* The entry of a C id: the engine's sound id (with SS_ID_LOOPS), SS_ID_MUSIC, or -1. */
static int32_t lookup(ss_engine *engine, int sound_id) {
    _Atomic(_Atomic int32_t *) *ids = atomic_load(&engine->ids);
    if (ids == NULL || sound_id < 0 || sound_id >= SS_MAX_IDS) return -1;
    _Atomic int32_t *chunk = atomic_load(&ids[sound_id / SS_ID_CHUNK]);
    return chunk == NULL ? -1 : atomic_load(&chunk[sound_id % SS_ID_CHUNK]);
}

int ss_internal_engine_gave(ss_engine *engine, uint64_t voice) {
    /* Counted in flight like a trigger, so that ss_close never frees the ring under the read. */
    atomic_fetch_add(&engine->inflight, 1);
    int gave = !atomic_load(&engine->closed) && voice != 0 && voice <= ssrt_last_ticket(engine->core);
    atomic_fetch_sub(&engine->inflight, 1);
    return gave;
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

static int fail_number(const char *function, const char *what, double value, const char *range) {
    struct message m = {{0}, 0};
    append(&m, function);
    append(&m, ": ");
    append(&m, what);
    append(&m, " ");
    append_float(&m, (float)value);
    append(&m, " is not a number in ");
    append(&m, range);
    ss_internal_set_error(m.text);
    return SS_ERR_INVALID_ARGUMENT;
}

static int fail_int(const char *function, const char *what, long long value, const char *expected) {
    struct message m = {{0}, 0};
    append(&m, function);
    append(&m, ": ");
    append(&m, what);
    append(&m, " ");
    append_int(&m, value);
    append(&m, " is not ");
    append(&m, expected);
    ss_internal_set_error(m.text);
    return SS_ERR_INVALID_ARGUMENT;
}

static int fail_id(const char *function, int code, const char *before, int id, const char *after) {
    struct message m = {{0}, 0};
    append(&m, function);
    append(&m, ": ");
    append(&m, before);
    append_int(&m, id);
    append(&m, after);
    ss_internal_set_error(m.text);
    return code;
}

/* Checks the numbers every play takes against the ranges of ssrt.h; NaN fails each test. */
static int check_numbers(const char *function, float volume, float pitch, float pan) {
    if (!(volume >= 0.0f && volume <= SSRT_VOLUME_MAX)) return fail_number(function, "volume", volume, "0...16");
    if (!(pitch >= SSRT_PITCH_MIN && pitch <= SSRT_PITCH_MAX)) {
        return fail_number(function, "pitch", pitch, "0.0625...16");
    }
    if (!(pan >= -1.0f && pan <= 1.0f)) return fail_number(function, "pan", pan, "-1...1");
    return SS_OK;
}

/* The engine's sound id of a C id, or a negative code with the message set. */
static int32_t sound_of(const char *function, ss_engine *engine, int sound_id) {
    int32_t entry = lookup(engine, sound_id);
    if (entry == SS_ID_MUSIC) {
        return fail_id(function, SS_ERR_INVALID_ARGUMENT, "sound id ", sound_id,
                       " is streamed music: play it with ss_music");
    }
    if (entry < 0) {
        return fail_id(function, SS_ERR_UNKNOWN_NAME, "no sound has id ", sound_id,
                       ": use an id from ss_sound_id or ss_load_file");
    }
    int32_t sound = entry & ~SS_ID_LOOPS;
    /* Ids past the ring's ready flags are sounds from files, held until ss_close. */
    if (sound < SSRT_MAX_SOUNDS && !ssrt_is_ready(engine->core, sound)) {
        return fail_id(function, SS_ERR_NOT_LOADED, "sound id ", sound_id,
                       " is not loaded now: preload it with ss_preload");
    }
    return sound;
}

/* Writes a play command with a new ticket. Returns the ticket, or 0 when the ring is full. */
static uint64_t push(ss_engine *engine, ssrt_command *command) {
    command->ticket = ssrt_next_ticket(engine->core);
    command->op = SSRT_OP_PLAY;
    return ssrt_push(engine->core, command) == 0 ? command->ticket : 0;
}

static void plain_command(ssrt_command *command, int32_t sound, float volume, float pitch, float pan) {
    memset(command, 0, sizeof *command);
    command->frame = SSRT_NOW;
    command->sound = sound;
    command->volume = volume;
    command->pitch = pitch;
    command->pan = pan;
    command->reverb_send = 1.0f;
    command->flags = SSRT_FLAG_SOUND_DEFAULTS;
}

static int play(ss_engine *engine, int sound_id, float volume, float pitch, float pan) {
    int checked = check_numbers("ss_play", volume, pitch, pan);
    if (checked != SS_OK) return checked;
    int32_t sound = sound_of("ss_play", engine, sound_id);
    if (sound < 0) return sound;
    ssrt_command command;
    plain_command(&command, sound, volume, pitch, pan);
    if (push(engine, &command) == 0) {
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

/* ---- Options structs: filled up to the caller's size, read up to it ---- */

/* Copies the first `size` bytes of `defaults` (of `full` bytes) into `out`, zeroing any bytes a
   newer caller's struct has beyond ours, and sets the size field. */
static int init_struct(const char *function, void *out, size_t size, const void *defaults, size_t full) {
    if (out == NULL) {
        struct message m = {{0}, 0};
        append(&m, function);
        append(&m, ": options is NULL: pass the address of the options struct");
        ss_internal_set_error(m.text);
        return SS_ERR_INVALID_ARGUMENT;
    }
    if (size < sizeof(uint32_t) || size > UINT32_MAX) {
        return fail_int(function, "size", (long long)size, "a struct size: pass sizeof the options struct");
    }
    size_t known = size < full ? size : full;
    memcpy(out, defaults, known);
    if (size > full) memset((char *)out + full, 0, size - full);
    uint32_t stated = (uint32_t)size;
    memcpy(out, &stated, sizeof stated);
    return SS_OK;
}

/* Reads a caller's options into `out` (already holding the defaults): only the bytes its size
   states. Returns SS_OK, or an error naming an uninitialised struct. */
static int read_struct(const char *function, const char *init, void *out, const void *options, size_t full) {
    uint32_t size;
    memcpy(&size, options, sizeof size);
    if (size < sizeof(uint32_t)) {
        struct message m = {{0}, 0};
        append(&m, function);
        append(&m, ": options->size is ");
        append_unsigned(&m, size);
        append(&m, ": fill the options with ");
        append(&m, init);
        append(&m, " first");
        ss_internal_set_error(m.text);
        return SS_ERR_INVALID_ARGUMENT;
    }
    memcpy(out, options, size < full ? size : full);
    return SS_OK;
}

static void play_defaults(ss_play_options *o) {
    memset(o, 0, sizeof *o);
    o->size = sizeof *o;
    o->volume = 1.0f;
    o->pitch = 1.0f;
    o->pan = 0.0f;
    o->bus = SS_BUS_DEFAULT;
    o->loops = SS_LOOPS_DEFAULT;
    o->start_time = -1.0;
    o->fade_in_seconds = 0.0;
    o->priority = -1;
}

int ss_play_options_init(ss_play_options *options, size_t size) {
    ss_play_options defaults;
    play_defaults(&defaults);
    return init_struct("ss_play_options_init", options, size, &defaults, sizeof defaults);
}

int ss_open_options_init(ss_open_options *options, size_t size) {
    ss_open_options defaults;
    memset(&defaults, 0, sizeof defaults);
    defaults.output = SS_OUTPUT_AUTO;
    defaults.device = NULL;
    defaults.sample_rate = 48000;
    defaults.latency = SS_LATENCY_NORMAL;
    defaults.assets_dir = NULL;
    return init_struct("ss_open_options_init", options, size, &defaults, sizeof defaults);
}

int ss_internal_read_open_options(const ss_open_options *options, ss_open_options *out) {
    ss_open_options_init(out, sizeof *out);
    return read_struct("ss_open_with", "ss_open_options_init", out, options, sizeof *out);
}

int ss_music_options_init(ss_music_options *options, size_t size) {
    ss_music_options defaults;
    memset(&defaults, 0, sizeof defaults);
    defaults.point = SS_MUSIC_NOW;
    defaults.crossfade_seconds = 0.0;
    defaults.bars = 1;
    defaults.loops = SS_LOOPS_DEFAULT;
    defaults.marker = NULL;
    return init_struct("ss_music_options_init", options, size, &defaults, sizeof defaults);
}

int ss_internal_read_music_options(const ss_music_options *options, ss_music_options *out) {
    ss_music_options_init(out, sizeof *out);
    if (options == NULL) return SS_OK;
    return read_struct("ss_music_with", "ss_music_options_init", out, options, sizeof *out);
}

/* ---- ss_play_voice ---- */

static int play_voice(ss_engine *engine, int sound_id, const ss_play_options *options, ss_voice *voice) {
    static const char *const f = "ss_play_voice";
    ss_play_options o;
    play_defaults(&o);
    if (options != NULL) {
        int read = read_struct(f, "ss_play_options_init", &o, options, sizeof o);
        if (read != SS_OK) return read;
    }
    int checked = check_numbers(f, o.volume, o.pitch, o.pan);
    if (checked != SS_OK) return checked;
    if (o.bus < SS_BUS_DEFAULT || o.bus > SS_BUS_VOICE) {
        return fail_int(f, "bus", o.bus, "an ss_bus (SS_BUS_DEFAULT, SS_BUS_MASTER ... SS_BUS_VOICE)");
    }
    if (o.loops < SS_LOOPS_DEFAULT || o.loops > 1000) {
        return fail_int(f, "loops", o.loops, "0...1000, SS_LOOPS_FOREVER or SS_LOOPS_DEFAULT");
    }
    if (o.start_time != o.start_time || o.start_time > 1e9) {
        return fail_number(f, "start_time", o.start_time, "0...1e9 seconds (negative: now)");
    }
    if (!(o.fade_in_seconds >= 0.0 && o.fade_in_seconds <= 3600.0)) {
        return fail_number(f, "fade_in_seconds", o.fade_in_seconds, "0...3600");
    }
    if (o.priority < -1 || o.priority > 255) {
        return fail_int(f, "priority", o.priority, "0...255 or -1 (the sound's own)");
    }
    if (!(o.pitch_shift >= -24.0 && o.pitch_shift <= 24.0)) {
        return fail_number(f, "pitch_shift", o.pitch_shift, "-24...24 semitones, 0 for none");
    }
    int32_t sound = sound_of(f, engine, sound_id);
    if (sound < 0) return sound;
    ssrt_command command;
    plain_command(&command, sound, o.volume, o.pitch, o.pan);
    int loops_by_default = (lookup(engine, sound_id) & SS_ID_LOOPS) != 0;
    if (o.loops == SS_LOOPS_FOREVER || (o.loops == SS_LOOPS_DEFAULT && loops_by_default)) {
        command.flags |= SSRT_FLAG_LOOP;
    } else if (o.loops > 0) {
        command.repeats = o.loops;
    }
    if (o.bus != SS_BUS_DEFAULT) {
        command.flags |= SSRT_FLAG_OWN_BUS;
        command.bus = (uint8_t)o.bus;
    }
    if (o.priority >= 0) {
        command.flags |= SSRT_FLAG_OWN_PRIORITY;
        command.priority = (uint8_t)o.priority;
    }
    if (o.start_time >= 0.0) {
        double frame = round(o.start_time * engine->rate);
        command.frame = frame < 0 ? 0 : (int64_t)frame;
    }
    command.fade_in = (float)o.fade_in_seconds;
    command.pitch_shift = (float)o.pitch_shift;
    uint64_t ticket = push(engine, &command);
    if (ticket == 0) {
        ss_internal_set_error("ss_play_voice: the engine has fallen 4096 triggers behind; this one was dropped");
        return SS_REFUSED;
    }
    if (voice != NULL) *voice = ticket;
    return SS_OK;
}

int ss_play_voice(ss_engine *engine, int sound_id, const ss_play_options *options, ss_voice *voice) {
    if (voice != NULL) *voice = 0;
    if (engine == NULL) {
        ss_internal_set_error("ss_play_voice: engine is NULL: open one with ss_open");
        return SS_ERR_INVALID_ARGUMENT;
    }
    atomic_fetch_add(&engine->inflight, 1);
    int result;
    if (atomic_load(&engine->closed)) {
        ss_internal_set_error("ss_play_voice: the engine is closed: open another with ss_open");
        result = SS_ERR_CLOSED;
    } else {
        result = play_voice(engine, sound_id, options, voice);
    }
    atomic_fetch_sub(&engine->inflight, 1);
    return result;
}
