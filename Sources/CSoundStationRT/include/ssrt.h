/*
 * ssrt: SoundStation's real-time floor, in C so that what must be async-signal-safe is, by
 * construction (no Swift runtime, no locks, no allocation).
 *
 * One ssrt_core per engine holds:
 *   - a bounded multi-producer, single-consumer command ring (D. Vyukov's bounded queue with a
 *     sequence number per cell): any thread, or a signal handler, pushes; the engine's mixing side
 *     (its driver thread, or the thread rendering offline) drains;
 *   - one "ready" flag per sound id, set while the sound is loaded, so a trigger can refuse an
 *     unloaded sound without asking the engine;
 *   - the ticket counter that names voices (a ticket is never reused);
 *   - a semaphore that wakes the driver when a command arrives while it sleeps (sem_post is
 *     async-signal-safe); a driver that polls instead is posted nothing;
 *   - a count of the consumer's publications, on which a thread waiting for the consumer sleeps.
 *
 * Threads: ssrt_core_create and ssrt_core_destroy on one thread, with no other call in flight;
 * ssrt_push, ssrt_trigger, ssrt_next_ticket, ssrt_set_ready, ssrt_is_ready on any thread or in a
 * signal handler; ssrt_drain, ssrt_wait, ssrt_poll and ssrt_note_published on the single consumer
 * only.
 */
#ifndef SSRT_H
#define SSRT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The most sound ids an engine hands out. */
#define SSRT_MAX_SOUNDS 16384
/** Commands the ring holds before a trigger is refused as full (a power of two). */
#define SSRT_RING_CAPACITY 4096
/** A command's frame meaning "at the mixing side's next frame". */
#define SSRT_NOW (-1)

/* The one range of each number a play takes, whatever the entry: Swift's PlayOptions ranges are
   these, ss_play and ss_play_voice check against them, and the mixing side refuses a command outside
   them (only ssrt_trigger, which cannot report a range, writes one). Volume is 0...SSRT_VOLUME_MAX,
   pan -1...1. */
#define SSRT_VOLUME_MAX 16.0f
#define SSRT_PITCH_MIN 0.0625f
#define SSRT_PITCH_MAX 16.0f

/** What a command asks for. */
enum ssrt_op {
    /** Start a sound (see ssrt_command's fields). */
    SSRT_OP_PLAY = 1,
    /** Carry out any other command of the engine: `retained` holds it (the Swift engine boxes a
        MixerTask there: a command and what goes with it in the process); only the engine writes
        these, never ssrt_trigger. */
    SSRT_OP_TASK = 2
};

/** Flags of a play command. */
enum ssrt_flag {
    /** Loop the sound until stopped. */
    SSRT_FLAG_LOOP = 1,
    /** Take priority, bus and instance limit from the sound's own settings, and multiply volume by
        the sound's own volume (a catalogue entry's), rather than using the command's. */
    SSRT_FLAG_SOUND_DEFAULTS = 2,
    /** The command carries a position (x, y, z in the game's units): pan and distance come from it
        and the listener rather than from pan. */
    SSRT_FLAG_POSITIONED = 4,
    /** A stereo sound is downmixed and placed as a point (AL_SOFT_source_spatialize) instead of
        keeping its width. */
    SSRT_FLAG_SPATIALIZE = 8,
    /** With SSRT_FLAG_SOUND_DEFAULTS: keep the command's bus rather than the sound's. */
    SSRT_FLAG_OWN_BUS = 16,
    /** With SSRT_FLAG_SOUND_DEFAULTS: keep the command's priority rather than the sound's. */
    SSRT_FLAG_OWN_PRIORITY = 32
};

/** The kind of a play command's own filter (ssrt_command.filter). */
enum ssrt_filter {
    SSRT_FILTER_NONE = 0,
    SSRT_FILTER_LOWPASS = 1,
    SSRT_FILTER_HIGHPASS = 2,
    SSRT_FILTER_BANDPASS = 3,
    /* The engine's own filters with a cutoff (a bandpass's centre) in hertz and a Q. */
    SSRT_FILTER_LOWPASS_HZ = 4,
    SSRT_FILTER_HIGHPASS_HZ = 5,
    SSRT_FILTER_BANDPASS_HZ = 6
};

/** One fixed-size command. */
typedef struct ssrt_command {
    /* A reference the producer retained for the consumer to take over: for SSRT_OP_PLAY the Swift
       engine's buffer or stream feeder (so a buffer played and dropped at once still plays), for
       SSRT_OP_TASK its task box; NULL from ssrt_trigger and from C. */
    void *retained;
    uint64_t ticket;  /* names the voice it makes; from ssrt_next_ticket */
    int64_t frame;    /* render-clock frame to start at, or SSRT_NOW */
    int32_t sound;    /* the sound id */
    float volume;
    float pitch;
    float pan;
    uint8_t op;       /* an ssrt_op */
    uint8_t flags;    /* ssrt_flag bits */
    uint8_t priority; /* 0...255 */
    uint8_t bus;      /* the engine's bus index */
    /* Space and colour (all plain numbers, so a trigger still allocates nothing). */
    float x, y, z;       /* the position, with SSRT_FLAG_POSITIONED */
    float reverb_send;   /* 0...1: how much goes to the bus's reverb (1 with no reverb set) */
    uint8_t filter;      /* the voice's own filter: an ssrt_filter, whose numbers are in shelf or cutoff */
    union {
        /* SSRT_FILTER_LOWPASS, _HIGHPASS, _BANDPASS (EFX): gains at low and high frequencies. */
        struct { float gain_lf, gain_hf; } shelf;
        /* SSRT_FILTER_*_HZ (the engine's biquads): the cutoff or centre in hertz, and the Q. */
        struct { float hz, q; } cutoff;
    } filter_values;
    float duck_music_db; /* dB the music bus dips to while the voice plays (a stinger); 0 for none */
    float fade_in;       /* seconds the voice rises from silence over; 0 for none */
    int32_t repeats;     /* without SSRT_FLAG_LOOP: passes after the first (0 plays once) */
    float pitch_shift;   /* semitones the pitch moves without the speed (-24...24); 0 for none */
} ssrt_command;

/** An engine's real-time state; opaque. */
typedef struct ssrt_core ssrt_core;

/** Allocates a core, or returns NULL when memory is short. */
ssrt_core *ssrt_core_create(void);

/** Frees a core made by ssrt_core_create. */
void ssrt_core_destroy(ssrt_core *core);

/** A new ticket: 1, 2, 3... never reused. Async-signal-safe. */
uint64_t ssrt_next_ticket(ssrt_core *core);

/** The last ticket given (0 before the first). Async-signal-safe. */
uint64_t ssrt_last_ticket(ssrt_core *core);

/** Marks a sound id as playable (ready != 0) or not. Any thread. */
void ssrt_set_ready(ssrt_core *core, int32_t sound, int ready);

/** Whether a sound id is marked playable. Async-signal-safe. */
int ssrt_is_ready(const ssrt_core *core, int32_t sound);

/**
 * Appends a command and wakes the consumer (ssrt_wake). Async-signal-safe: no lock, no allocation.
 * Returns 0, or -1 when the ring is full (the consumer has fallen SSRT_RING_CAPACITY behind).
 */
int ssrt_push(ssrt_core *core, const ssrt_command *command);

/**
 * Triggers a ready sound with its own defaults: fills a play command with a new ticket and
 * pushes it. Async-signal-safe.
 * Returns the ticket (> 0), -1 when the ring is full, -2 for an id that is out of range or not
 * ready, -3 for a volume, pitch or pan that is not a finite number. A finite number out of its range
 * (SSRT_VOLUME_MAX, SSRT_PITCH_MIN...SSRT_PITCH_MAX, -1...1) is pushed: the mixing side refuses the
 * start and sends a "refused" event for its ticket.
 */
int64_t ssrt_trigger(ssrt_core *core, int32_t sound, float volume, float pitch, float pan, int64_t frame);

/** Takes up to max commands, oldest first, into out. Consumer only. Returns how many. */
int ssrt_drain(ssrt_core *core, ssrt_command *out, int max);

/** Whether a command is waiting. Consumer only. */
int ssrt_pending(ssrt_core *core);

/**
 * Sleeps until a command arrives or timeout_ns pass (0 returns at once). Consumer only.
 * Returns 1 when woken by a command (or a ssrt_wake), 0 on timeout.
 */
int ssrt_wait(ssrt_core *core, int64_t timeout_ns);

/**
 * Sleeps up to timeout_ns without asking producers to post: a command pushed, or a ssrt_wake, while
 * the consumer polls only marks the wake-up asked for, and the consumer looks for that mark every
 * interval_ns (0: only at the end), returning at the first look that finds it. A kick ends the sleep
 * at once, as does a burst (every 64th waiting command kicks). A wake-up asked for while the consumer
 * worked after its last poll is answered at once by the next. Consumer only.
 * Returns 1 when asked for, kicked or a command waits; 0 when timeout_ns passed.
 * A consumer that polls spares every producer the sem_post and the switch to the woken thread that
 * often follows on a busy machine; a command then waits up to interval_ns. ssrt_wait goes back to
 * sleeping until a producer posts.
 */
int ssrt_poll(ssrt_core *core, int64_t timeout_ns, int64_t interval_ns);

/** How many commands the consumer has taken so far. Consumer only. */
uint64_t ssrt_drained(const ssrt_core *core);

/**
 * Wakes the consumer without a command (e.g. a stream's chunk is ready): posts when it sleeps in
 * ssrt_wait, and only marks the wake-up asked for while it polls. Async-signal-safe.
 */
void ssrt_wake(ssrt_core *core);

/**
 * Wakes the consumer now, from ssrt_wait or ssrt_poll: for a caller that is about to wait for the
 * consumer (to stop it, or until it has carried out what was written), which would otherwise wait
 * out the consumer's poll. Posts at most once per sleep. Any thread; async-signal-safe.
 */
void ssrt_kick(ssrt_core *core);

/** How many times producers and kicks have posted the consumer's semaphore so far. Any thread. */
uint64_t ssrt_posts(const ssrt_core *core);

/** How many times the consumer has published its state (ssrt_note_published). Any thread. */
uint32_t ssrt_publications(ssrt_core *core);

/** Counts a publication of the consumer's state and wakes every ssrt_wait_published. Consumer only. */
void ssrt_note_published(ssrt_core *core);

/**
 * Sleeps until a publication after the count `seen` (read with ssrt_publications before checking
 * the published state), or timeout_ns pass. Returns 1 when the count moved on. Any thread but the
 * consumer. A futex wait: no polling, woken within the publication.
 */
int ssrt_wait_published(ssrt_core *core, uint32_t seen, int64_t timeout_ns);

#ifdef __cplusplus
}
#endif

#endif
