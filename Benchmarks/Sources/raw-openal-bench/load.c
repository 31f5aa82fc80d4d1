/* The raw C peers of the device cases that run for seconds:
   - trigger-under-load: the main thread triggers (free list, buffer, gain, pitch, position, play,
     stealing the oldest, as raw_case_trigger) every 200 us, while a streaming thread plays one of two
     long Ogg tracks (vorbisfile, 16-bit, 4 x 8192-frame buffers queued and refilled as OpenAL
     processes them), restarting on the other track every 0.5 s, and a scene thread decodes the
     demo's effects into new buffers and deletes them, in a loop. Reports p50, p99, p99.9 and the
     maximum of the trigger's time per run.
   - idle-music: one track streamed and looped the same way, the thread sleeping until the buffer
     playing now is processed; CPU time (getrusage) per run.
   - idle-device, idle-device-active: a device opened and nothing played, for as long as the engine's
     rows, with a listener move every 0.5 s when active; CPU time per second. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <vorbis/vorbisfile.h>

#include "raw.h"

#define STREAM_BUFFERS 4
#define STREAM_FRAMES 8192
#define LOAD_VOICES 32
#define LOAD_PERIOD 200e-6
#define LOAD_SWITCH 0.5

/* ---- Streaming ---- */

typedef struct {
    ALuint source;
    ALuint buffers[STREAM_BUFFERS];
    OggVorbis_File file;
    int open;
    int channels;
    long rate;
    char pcm[STREAM_FRAMES * 2 * 2];
    long underruns;
} raw_stream;

static void stream_init(raw_stream *stream) {
    memset(stream, 0, sizeof *stream);
    stream->source = raw_make_source();
    alGenBuffers(STREAM_BUFFERS, stream->buffers);
    raw_check_al("alGenBuffers(stream)");
}

/* Decodes the next STREAM_FRAMES frames (looping at the end) into `buffer`. */
static void stream_fill(raw_stream *stream, ALuint buffer) {
    size_t wanted = (size_t)STREAM_FRAMES * (size_t)stream->channels * 2, done = 0;
    int section = 0, rewound = 0;
    while (done < wanted) {
        long got = ov_read(&stream->file, stream->pcm + done, (int)(wanted - done), 0, 2, 1, &section);
        if (got == OV_HOLE) continue;
        if (got < 0) bench_die("ov_read failed with %ld while streaming", got);
        if (got == 0) {
            if (rewound++) bench_die("a streamed track decodes to nothing");
            if (ov_pcm_seek(&stream->file, 0) != 0) bench_die("ov_pcm_seek(0) failed while looping");
            continue;
        }
        done += (size_t)got;
    }
    alBufferData(buffer, stream->channels == 1 ? AL_FORMAT_MONO16 : AL_FORMAT_STEREO16, stream->pcm,
                 (ALsizei)done, (ALsizei)stream->rate);
    raw_check_al("alBufferData(stream)");
}

/* Opens `path`, queues its first buffers and plays. */
static void stream_start(raw_stream *stream, const char *path) {
    int opened = ov_fopen(path, &stream->file);
    if (opened != 0) bench_die("ov_fopen(%s) failed with %d", path, opened);
    stream->open = 1;
    vorbis_info *info = ov_info(&stream->file, -1);
    if (!info || info->channels < 1 || info->channels > 2) bench_die("%s: not mono or stereo Vorbis", path);
    stream->channels = info->channels;
    stream->rate = info->rate;
    for (int i = 0; i < STREAM_BUFFERS; i++) stream_fill(stream, stream->buffers[i]);
    alSourceQueueBuffers(stream->source, STREAM_BUFFERS, stream->buffers);
    alSourcePlay(stream->source);
    raw_check_al("alSourceQueueBuffers/alSourcePlay(stream)");
}

/* Stops the source, takes its buffers back and closes the file. */
static void stream_stop(raw_stream *stream) {
    alSourceStop(stream->source);
    alSourcei(stream->source, AL_BUFFER, 0);
    raw_check_al("alSourceStop/alSourcei(AL_BUFFER, 0)(stream)");
    if (stream->open) ov_clear(&stream->file);
    stream->open = 0;
}

/* Refills and requeues the processed buffers; returns the seconds until the buffer playing now is
   processed (when the next refill is due). */
static double stream_service(raw_stream *stream) {
    ALint processed = 0, state = 0, offset = 0;
    alGetSourcei(stream->source, AL_BUFFERS_PROCESSED, &processed);
    for (ALint i = 0; i < processed; i++) {
        ALuint buffer;
        alSourceUnqueueBuffers(stream->source, 1, &buffer);
        stream_fill(stream, buffer);
        alSourceQueueBuffers(stream->source, 1, &buffer);
    }
    alGetSourcei(stream->source, AL_SOURCE_STATE, &state);
    if (state != AL_PLAYING) {
        stream->underruns++;
        alSourcePlay(stream->source);
    }
    alGetSourcei(stream->source, AL_SAMPLE_OFFSET, &offset);
    raw_check_al("stream refill");
    double left = (double)(STREAM_FRAMES - offset % STREAM_FRAMES) / (double)stream->rate;
    return left < 0.001 ? 0.001 : left;
}

static void stream_free(raw_stream *stream) {
    stream_stop(stream);
    alDeleteSources(1, &stream->source);
    alDeleteBuffers(STREAM_BUFFERS, stream->buffers);
    raw_check_al("alDeleteSources/alDeleteBuffers(stream)");
}

static void sleep_seconds(double seconds) {
    if (seconds <= 0) return;
    struct timespec span = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
    while (nanosleep(&span, &span) == -1 && errno == EINTR) {}
}

/* Sleeps until `deadline` (bench_wall_seconds); returns 1 when it had already passed. */
static int sleep_until(double deadline) {
    if (bench_wall_seconds() >= deadline) return 1;
    struct timespec target = {(time_t)deadline, (long)((deadline - (double)(time_t)deadline) * 1e9)};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, NULL) == EINTR) {}
    return 0;
}

static double rusage_seconds(void) {
    struct rusage usage;
    if (getrusage(RUSAGE_SELF, &usage) != 0) bench_die("getrusage failed: %s", strerror(errno));
    return (double)usage.ru_utime.tv_sec + (double)usage.ru_utime.tv_usec * 1e-6 +
           (double)usage.ru_stime.tv_sec + (double)usage.ru_stime.tv_usec * 1e-6;
}

/* ---- trigger-under-load ---- */

typedef struct {
    atomic_int stop;
    atomic_long switches;
    atomic_long cycles;
    long underruns;
    const char *tracks[2];
    bench_sound *scene;
    size_t scene_count;
} load_shared;

static void *music_thread(void *argument) {
    load_shared *shared = argument;
    raw_stream *stream = malloc(sizeof *stream);
    if (!stream) bench_die("out of memory");
    stream_init(stream);
    int which = 0;
    stream_start(stream, shared->tracks[which]);
    double next_switch = bench_wall_seconds() + LOAD_SWITCH;
    while (!atomic_load_explicit(&shared->stop, memory_order_relaxed)) {
        if (bench_wall_seconds() >= next_switch) {
            stream_stop(stream);
            which ^= 1;
            stream_start(stream, shared->tracks[which]);
            next_switch += LOAD_SWITCH;
            atomic_fetch_add_explicit(&shared->switches, 1, memory_order_relaxed);
        }
        double due = stream_service(stream);
        double until_switch = next_switch - bench_wall_seconds();
        sleep_seconds(due < until_switch ? due : until_switch);
    }
    shared->underruns = stream->underruns;
    stream_free(stream);
    free(stream);
    return NULL;
}

static void *scene_thread(void *argument) {
    load_shared *shared = argument;
    ALuint *buffers = calloc(shared->scene_count, sizeof *buffers);
    if (!buffers) bench_die("out of memory");
    while (!atomic_load_explicit(&shared->stop, memory_order_relaxed)) {
        for (size_t i = 0; i < shared->scene_count; i++) buffers[i] = raw_load_buffer(shared->scene[i].path);
        alDeleteBuffers((ALsizei)shared->scene_count, buffers);
        raw_check_al("alDeleteBuffers(scene)");
        atomic_fetch_add_explicit(&shared->cycles, 1, memory_order_relaxed);
    }
    free(buffers);
    return NULL;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void raw_case_trigger_under_load(const char *work, int runs, int seconds) {
    raw_output output = raw_open_device();
    char *sound_path = bench_path(work, "load/Effects/coin.wav");
    char *scene_list = bench_path(work, "scene.list");
    char *track_a = bench_path(work, "load/Music/track60.ogg");
    char *track_b = bench_path(work, "load/Music/track600.ogg");
    ALuint sound = raw_load_buffer(sound_path);
    ALuint sources[LOAD_VOICES];
    int free_list[LOAD_VOICES], busy[LOAD_VOICES];
    int free_count = LOAD_VOICES, busy_head = 0, busy_count = 0;
    for (int i = 0; i < LOAD_VOICES; i++) {
        sources[i] = raw_make_source();
        free_list[i] = LOAD_VOICES - 1 - i;
    }

    load_shared shared;
    memset(&shared, 0, sizeof shared);
    shared.tracks[0] = track_a;
    shared.tracks[1] = track_b;
    shared.scene_count = bench_read_list(scene_list, &shared.scene);
    pthread_t music, scene;
    if (pthread_create(&music, NULL, music_thread, &shared) != 0 ||
        pthread_create(&scene, NULL, scene_thread, &shared) != 0)
        bench_die("pthread_create failed");

    enum { STATS = 4 };
    static const char *suffix[STATS] = {"p50", "p99", "p999", "max"};
    static const double quantile[STATS] = {0.5, 0.99, 0.999, 1.0};
    size_t per_run = (size_t)(seconds / LOAD_PERIOD + 0.5);
    double *times = malloc(per_run * sizeof *times);
    double *stats[STATS];
    for (int k = 0; k < STATS; k++) stats[k] = calloc((size_t)runs, sizeof **stats);
    if (!times || !stats[0] || !stats[1] || !stats[2] || !stats[3]) bench_die("out of memory");
    double *running = calloc((size_t)runs, sizeof *running), *blocked = calloc((size_t)runs, sizeof *blocked);
    if (!running || !blocked) bench_die("out of memory");
    long late = 0, trigger_index = 0, preempted = 0;
    long switches_before = 0;
    for (int run = -1; run < runs; run++) {
        if (run == 0) switches_before = atomic_load(&shared.switches);
        size_t count = run < 0 ? (size_t)(1 / LOAD_PERIOD) : per_run;
        double deadline = bench_wall_seconds() + LOAD_PERIOD;
        for (size_t n = 0; n < count; n++, trigger_index++) {
            if (sleep_until(deadline)) {
                late++;
                deadline = bench_wall_seconds();
            }
            deadline += LOAD_PERIOD;
            long i = trigger_index;
            struct rusage before, after;
            getrusage(RUSAGE_THREAD, &before);
            double start = bench_wall_seconds();
            if (free_count == 0) {
                int oldest = busy[busy_head];
                busy_head = (busy_head + 1) % LOAD_VOICES;
                busy_count--;
                alSourceStop(sources[oldest]);
                free_list[free_count++] = oldest;
            }
            int slot = free_list[--free_count];
            ALuint source = sources[slot];
            alSourcei(source, AL_BUFFER, (ALint)sound);
            alSourcef(source, AL_GAIN, 0.8f);
            alSourcef(source, AL_PITCH, 0.9f + 0.02f * (float)(i % 11));
            raw_pan(source, (float)(i % 21) / 10.0f - 1.0f);
            alSourcePlay(source);
            busy[(busy_head + busy_count) % LOAD_VOICES] = slot;
            busy_count++;
            double time = (bench_wall_seconds() - start) * 1e6;
            getrusage(RUSAGE_THREAD, &after);
            times[n] = time;
            if (run >= 0) {
                /* Voluntary switch: the call slept (a lock); involuntary: it was preempted. */
                if (after.ru_nvcsw > before.ru_nvcsw) blocked[run]++;
                if (after.ru_nivcsw > before.ru_nivcsw) preempted++;
                else if (time > running[run]) running[run] = time;
            }
        }
        /* Checked once per run: other threads' AL calls share the context's error state. */
        raw_check_al("trigger (alSourcei/alSourcef/alSource3f/alSourcePlay)");
        if (run < 0) continue;
        qsort(times, count, sizeof *times, compare_doubles);
        for (int k = 0; k < STATS; k++) {
            /* Nearest rank, as soundstation-bench. */
            size_t rank = (size_t)(quantile[k] * (double)count + 0.999999);
            if (rank < 1) rank = 1;
            if (rank > count) rank = count;
            stats[k][run] = times[rank - 1];
        }
    }
    atomic_store(&shared.stop, 1);
    pthread_join(music, NULL);
    pthread_join(scene, NULL);
    long switched = atomic_load(&shared.switches) - switches_before;
    char note[200];
    snprintf(note, sizeof note,
             "1 trigger / 200 us for %d s per run; %ld late wake-ups, %ld track restarts, %ld scene cycles, "
             "%ld stream underruns, %ld calls preempted",
             seconds, late, switched, (long)atomic_load(&shared.cycles), shared.underruns, preempted);
    for (int k = 0; k < STATS; k++) {
        char name[64];
        snprintf(name, sizeof name, "trigger-under-load-%s", suffix[k]);
        bench_emit(name, RAW_PEER, "us",
                   "trigger call time (free list + alSourcei/f/3f + alSourcePlay) every 200 us while a "
                   "thread streams (vorbisfile + alBufferData queue, restarting every 0.5 s) and a "
                   "thread decodes and deletes a scene",
                   stats[k], (size_t)runs, note);
        free(stats[k]);
    }
    bench_emit("trigger-under-load-max-unpreempted", RAW_PEER, "us",
               "the longest trigger the thread was not preempted in (no involuntary context switch)", running,
               (size_t)runs, note);
    bench_emit("trigger-under-load-blocked", RAW_PEER, "calls",
               "triggers per run that slept (a voluntary context switch: a lock or futex wait)", blocked,
               (size_t)runs, note);
    free(blocked);
    free(running);
    for (int i = 0; i < LOAD_VOICES; i++) alSourceStop(sources[i]);
    alDeleteSources(LOAD_VOICES, sources);
    alDeleteBuffers(1, &sound);
    raw_check_al("alDeleteSources/alDeleteBuffers");
    raw_close(output);
    bench_free_list(shared.scene, shared.scene_count);
    free(times);
    free(track_b);
    free(track_a);
    free(scene_list);
    free(sound_path);
}

/* ---- idle-music ---- */

void raw_case_idle_music(const char *work, int runs, int seconds) {
    raw_output output = raw_open_device();
    char *track = bench_path(work, "load/Music/track60.ogg");
    raw_stream *stream = malloc(sizeof *stream);
    double *samples = calloc((size_t)runs, sizeof *samples);
    if (!stream || !samples) bench_die("out of memory");
    stream_init(stream);
    stream_start(stream, track);
    for (int run = -1; run < runs; run++) {
        double span = run < 0 ? 1.0 : (double)seconds;
        double start = rusage_seconds();
        double deadline = bench_wall_seconds() + span;
        for (;;) {
            double due = stream_service(stream);
            double left = deadline - bench_wall_seconds();
            if (left <= 0) break;
            sleep_seconds(due < left ? due : left);
        }
        if (run >= 0) samples[run] = (rusage_seconds() - start) * 1e3;
    }
    char note[80];
    snprintf(note, sizeof note, "%ld stream underruns", stream->underruns);
    char label[160];
    snprintf(label, sizeof label,
             "CPU (getrusage user+sys) of %d s of one looped track streamed (vorbisfile, 4 x 8192 frames), "
             "sleeping until a buffer is processed",
             seconds);
    bench_emit("idle-music", RAW_PEER, "ms", label, samples, (size_t)runs, note);
    stream_free(stream);
    free(stream);
    free(samples);
    free(track);
    raw_close(output);
}

/* ---- idle-device, idle-device-active ---- */

void raw_case_idle_device(const char *name, int active, int runs, int seconds) {
    double *samples = calloc((size_t)runs, sizeof *samples);
    if (!samples) bench_die("out of memory");
    /* A device per run, opened 1 s before the run, as the engine's rows do (no warm-up run). */
    for (int run = 0; run < runs; run++) {
        raw_output output = raw_open_device();
        sleep_seconds(1.0);
        double start = rusage_seconds();
        double began = bench_wall_seconds(), next = began;
        while (bench_wall_seconds() < began + seconds) {
            if (active) {
                alListener3f(AL_POSITION, 0.0f, 0.0f, 0.0f);
                raw_check_al("alListener3f");
            }
            next += LOAD_SWITCH;
            sleep_until(next < began + seconds ? next : began + seconds);
        }
        samples[run] = (rusage_seconds() - start) * 1e3 / seconds;
        raw_close(output);
    }
    char label[160];
    snprintf(label, sizeof label, "CPU per second (getrusage user+sys) of a device open with nothing playing%s",
             active ? ", an alListener3f every 0.5 s" : "");
    bench_emit(name, RAW_PEER, "ms/s", label, samples, (size_t)runs, NULL);
    free(samples);
}
