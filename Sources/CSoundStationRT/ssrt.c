/* The real-time floor: see include/ssrt.h for what each function promises. */
#define _GNU_SOURCE
#include "ssrt.h"

#include <errno.h>
#include <math.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define RING_MASK ((uint64_t)SSRT_RING_CAPACITY - 1)
/* Commands waiting that make a burst, which wakes a polling consumer (a power of two). */
#define BURST 64

/* wake_pending's states (see struct ssrt_core). */
#define WAKE_ASLEEP 0
#define WAKE_ASKED 1
#define WAKE_POLLING 2

/* A cell's sequence says whose turn it is: equal to the enqueue position when a producer may fill
   it, position + 1 once filled, position + capacity once the consumer has emptied it. */
struct cell {
    _Atomic uint64_t sequence;
    ssrt_command command;
};

struct ssrt_core {
    /* Producers and the consumer each get their own cache line. */
    _Alignas(64) _Atomic uint64_t enqueue_position;
    /* Atomic only so the driver may read the count unlocked; one consumer at a time writes it. */
    _Alignas(64) _Atomic uint64_t dequeue_position;
    _Alignas(64) _Atomic uint64_t tickets;
    /* WAKE_ASLEEP while the consumer sleeps in ssrt_wait (the next wake-up posts), WAKE_POLLING while
       it polls and nobody has asked for it, WAKE_ASKED once a producer asked (it posted only if the
       consumer was asleep). */
    _Atomic int wake_pending;
    /* Set by a kick until the consumer next sleeps: a kick posts at most once per sleep. */
    _Atomic int kick_pending;
    /* Every post of the semaphore (wake-ups and kicks), for tests and diagnostics. */
    _Atomic uint64_t posts;
    /* Whether the consumer's last sleep was a poll. Consumer only. */
    int polled;
    sem_t wake;
    /* sem_post, read from the global offset table when the core is made, which the dynamic loader
       filled when the program started: a producer's wake-up calls it through this pointer rather
       than through the program's PLT stub. Unless the program was linked with `-z now` (the C
       library and the CLIs are; a SwiftPM executable, which links this core in, is not), that stub
       binds sem_post on its first call, which would be a game's: the first command that finds the
       driver asleep would run the dynamic linker's symbol lookup over every loaded library (about
       1,400 instructions over cold symbol tables) on the game's thread, and a trigger from a signal
       handler would run the dynamic linker there. */
    int (*post)(sem_t *);
    /* Counts the consumer's publications; waiters sleep on it as a futex word. */
    _Alignas(64) _Atomic uint32_t published;
    _Atomic uint32_t published_waiters;
    _Atomic uint8_t ready[SSRT_MAX_SOUNDS];
    struct cell cells[SSRT_RING_CAPACITY];
};

ssrt_core *ssrt_core_create(void) {
    /* A mapping of its own, not the heap: the core is large (about 370 KB) and every engine makes
       one. From the heap, a game opening and closing engines leaves each freed core behind a few
       small blocks allocated after it, and the heap grows by a core a cycle (measured: 6 MB to 659 MB
       over 2,000 cycles). Unmapped, it goes back to the system whole. Page-aligned, so cache-line
       aligned. */
    void *mapped = mmap(NULL, sizeof(ssrt_core), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED) return NULL;
    ssrt_core *core = mapped;
    memset(core, 0, sizeof *core);
    for (uint64_t i = 0; i < SSRT_RING_CAPACITY; i++) atomic_init(&core->cells[i].sequence, i);
    atomic_init(&core->enqueue_position, 0);
    atomic_init(&core->dequeue_position, 0);
    atomic_init(&core->tickets, 0);
    atomic_init(&core->wake_pending, 0);
    if (sem_init(&core->wake, 0, 0) != 0) {
        munmap(core, sizeof(ssrt_core));
        return NULL;
    }
    core->post = sem_post;
    return core;
}

void ssrt_core_destroy(ssrt_core *core) {
    if (core == NULL) return;
    sem_destroy(&core->wake);
    munmap(core, sizeof(ssrt_core));
}

uint64_t ssrt_last_ticket(ssrt_core *core) {
    return atomic_load_explicit(&core->tickets, memory_order_relaxed);
}

uint64_t ssrt_next_ticket(ssrt_core *core) {
    return atomic_fetch_add_explicit(&core->tickets, 1, memory_order_relaxed) + 1;
}

void ssrt_set_ready(ssrt_core *core, int32_t sound, int ready) {
    if (sound < 0 || sound >= SSRT_MAX_SOUNDS) return;
    atomic_store_explicit(&core->ready[sound], ready ? 1 : 0, memory_order_release);
}

int ssrt_is_ready(const ssrt_core *core, int32_t sound) {
    if (sound < 0 || sound >= SSRT_MAX_SOUNDS) return 0;
    /* The cast drops const only for C11's atomic_load signature on older compilers. */
    return atomic_load_explicit((_Atomic uint8_t *)&core->ready[sound], memory_order_acquire) != 0;
}

/* Posts the semaphore, counting the post. */
static void post(ssrt_core *core) {
    atomic_fetch_add_explicit(&core->posts, 1, memory_order_relaxed);
    core->post(&core->wake);
}

void ssrt_wake(ssrt_core *core) {
    /* Post at most once per sleep, and never to a polling consumer, which finds WAKE_ASKED at its
       next look: the semaphore's count stays small however many triggers come. */
    if (atomic_exchange_explicit(&core->wake_pending, WAKE_ASKED, memory_order_acq_rel) == WAKE_ASLEEP)
        post(core);
}

int ssrt_push(ssrt_core *core, const ssrt_command *command) {
    uint64_t position = atomic_load_explicit(&core->enqueue_position, memory_order_relaxed);
    struct cell *cell;
    for (;;) {
        cell = &core->cells[position & RING_MASK];
        uint64_t sequence = atomic_load_explicit(&cell->sequence, memory_order_acquire);
        int64_t difference = (int64_t)(sequence - position);
        if (difference == 0) {
            if (atomic_compare_exchange_weak_explicit(&core->enqueue_position, &position, position + 1,
                                                      memory_order_relaxed, memory_order_relaxed))
                break;
        } else if (difference < 0) {
            return -1; /* full: the consumer has not emptied this cell yet */
        } else {
            position = atomic_load_explicit(&core->enqueue_position, memory_order_relaxed);
        }
    }
    cell->command = *command;
    atomic_store_explicit(&cell->sequence, position + 1, memory_order_release);
    /* A burst: every BURST-th cell, when a burst's worth waits, the consumer is woken even from its
       poll, so a burst starts at once and is carried out while the rest of it is written. Once per
       BURST cells, so a trigger seldom reads the consumer's cache line. */
    if (((position + 1) & (BURST - 1)) == 0 &&
        position + 1 - atomic_load_explicit(&core->dequeue_position, memory_order_relaxed) >= BURST)
        ssrt_kick(core);
    ssrt_wake(core);
    return 0;
}

int64_t ssrt_trigger(ssrt_core *core, int32_t sound, float volume, float pitch, float pan, int64_t frame) {
    if (!ssrt_is_ready(core, sound)) return -2;
    if (!isfinite(volume) || !isfinite(pitch) || !isfinite(pan)) return -3;
    ssrt_command command;
    memset(&command, 0, sizeof command);
    command.ticket = ssrt_next_ticket(core);
    command.frame = frame;
    command.sound = sound;
    command.volume = volume;
    command.pitch = pitch;
    command.pan = pan;
    command.reverb_send = 1.0f;
    command.op = SSRT_OP_PLAY;
    command.flags = SSRT_FLAG_SOUND_DEFAULTS;
    if (ssrt_push(core, &command) != 0) return -1;
    return (int64_t)command.ticket;
}

int ssrt_drain(ssrt_core *core, ssrt_command *out, int max) {
    int taken = 0;
    while (taken < max) {
        uint64_t position = atomic_load_explicit(&core->dequeue_position, memory_order_relaxed);
        struct cell *cell = &core->cells[position & RING_MASK];
        uint64_t sequence = atomic_load_explicit(&cell->sequence, memory_order_acquire);
        /* Not yet published (empty, or a producer between claiming and filling it): stop here, so
           commands are taken in the order their cells were claimed. */
        if (sequence != position + 1) break;
        out[taken++] = cell->command;
        atomic_store_explicit(&cell->sequence, position + SSRT_RING_CAPACITY, memory_order_release);
        atomic_store_explicit(&core->dequeue_position, position + 1, memory_order_relaxed);
    }
    return taken;
}

/* Sleeps on the semaphore until `timeout_ns` pass or it is posted; 1 when posted. */
static int sleep_on_semaphore(ssrt_core *core, int64_t timeout_ns) {
    struct timespec deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    deadline.tv_sec += (time_t)(timeout_ns / 1000000000);
    deadline.tv_nsec += (long)(timeout_ns % 1000000000);
    if (deadline.tv_nsec >= 1000000000) {
        deadline.tv_sec += 1;
        deadline.tv_nsec -= 1000000000;
    }
    /* Interrupted by a signal: wait again; timed out (or anything else): report no wake-up. */
    while (sem_clockwait(&core->wake, CLOCK_MONOTONIC, &deadline) != 0)
        if (errno != EINTR) return 0;
    return 1;
}

/* The monotonic clock in nanoseconds. */
static int64_t now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

int ssrt_poll(ssrt_core *core, int64_t timeout_ns, int64_t interval_ns) {
    atomic_store_explicit(&core->kick_pending, 0, memory_order_release);
    /* An exchange, a full barrier, so the state is visible before the ring is read below: a producer
       whose command that read misses finds WAKE_POLLING and marks it asked. WAKE_ASKED here means a
       producer asked while the round since the last poll ran (each poll leaves WAKE_POLLING behind
       it), after that round had looked: answered at once. */
    int woken = atomic_exchange_explicit(&core->wake_pending, WAKE_POLLING, memory_order_seq_cst) == WAKE_ASKED &&
                core->polled;
    core->polled = 1;
    if (interval_ns <= 0) interval_ns = timeout_ns;
    int64_t deadline = now_ns() + (timeout_ns > 0 ? timeout_ns : 0);
    while (!woken && !ssrt_pending(core)) {
        int64_t left = deadline - now_ns();
        if (left <= 0) return 0;
        /* Only a kick posts to a polling consumer. */
        if (sleep_on_semaphore(core, left < interval_ns ? left : interval_ns)) break;
        woken = atomic_load_explicit(&core->wake_pending, memory_order_acquire) == WAKE_ASKED;
    }
    /* Back to WAKE_POLLING before the round (an exchange, so before the round reads anything): the
       round sees whatever was asked for until now, and a producer asking during it posts nothing and
       is answered by the next poll. */
    atomic_exchange_explicit(&core->wake_pending, WAKE_POLLING, memory_order_seq_cst);
    return 1;
}

uint64_t ssrt_drained(const ssrt_core *core) {
    return atomic_load_explicit((_Atomic uint64_t *)&core->dequeue_position, memory_order_relaxed);
}

int ssrt_pending(ssrt_core *core) {
    uint64_t position = atomic_load_explicit(&core->dequeue_position, memory_order_relaxed);
    struct cell *cell = &core->cells[position & RING_MASK];
    return atomic_load_explicit(&cell->sequence, memory_order_acquire) == position + 1;
}

int ssrt_wait(ssrt_core *core, int64_t timeout_ns) {
    atomic_store_explicit(&core->kick_pending, 0, memory_order_release);
    /* An exchange, a full barrier: a plain store could pass the read of the ring below, and a command
       written in between would find the wake-up still marked pending, post nothing, and wait out the
       whole sleep. After a poll, WAKE_ASKED is a wake-up asked for during the round, which posted
       nothing: answered at once. (After a wait it is the post that ended it, already taken.) */
    int asked = atomic_exchange_explicit(&core->wake_pending, WAKE_ASLEEP, memory_order_seq_cst) == WAKE_ASKED;
    if (asked && core->polled) {
        core->polled = 0;
        return 1;
    }
    core->polled = 0;
    if (ssrt_pending(core)) return 1;
    if (timeout_ns <= 0) return 0;
    return sleep_on_semaphore(core, timeout_ns);
}

void ssrt_kick(ssrt_core *core) {
    if (!atomic_exchange_explicit(&core->kick_pending, 1, memory_order_acq_rel)) post(core);
}

uint64_t ssrt_posts(const ssrt_core *core) {
    return atomic_load_explicit((_Atomic uint64_t *)&core->posts, memory_order_relaxed);
}

uint32_t ssrt_publications(ssrt_core *core) {
    return atomic_load_explicit(&core->published, memory_order_seq_cst);
}

void ssrt_note_published(ssrt_core *core) {
    /* Sequentially consistent on both sides: either a waiter counted here sees the new count in
       the futex's compare, or this load sees the waiter and wakes it. */
    atomic_fetch_add_explicit(&core->published, 1, memory_order_seq_cst);
    if (atomic_load_explicit(&core->published_waiters, memory_order_seq_cst) != 0)
        syscall(SYS_futex, &core->published, FUTEX_WAKE_PRIVATE, INT32_MAX, NULL, NULL, 0);
}

int ssrt_wait_published(ssrt_core *core, uint32_t seen, int64_t timeout_ns) {
    if (timeout_ns <= 0) return ssrt_publications(core) != seen;
    struct timespec relative = {(time_t)(timeout_ns / 1000000000), (long)(timeout_ns % 1000000000)};
    atomic_fetch_add_explicit(&core->published_waiters, 1, memory_order_seq_cst);
    /* Returns at once when the count already moved on (EAGAIN); a signal or a timeout returns too. */
    syscall(SYS_futex, &core->published, FUTEX_WAIT_PRIVATE, seen, &relative, NULL, 0);
    atomic_fetch_sub_explicit(&core->published_waiters, 1, memory_order_seq_cst);
    return ssrt_publications(core) != seen;
}
