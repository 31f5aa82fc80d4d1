/* A fed stream on a real device (a PulseAudio null sink; Scripts/e2e-feed.sh runs it under
 * Scripts/with-pulse.sh):
 *   tone SECONDS: a 440 Hz sine written in 10 ms pieces, kept 50 ms ahead (by ss_stream_queued); the
 *     underrun count must stay 0 (the script records the sink's monitor meanwhile and checks that
 *     the tone has no gap);
 *   latency: a stream fed silence just ahead (5 ms pieces whenever less than 10 ms is queued) gets
 *     a burst instead; the sink's monitor, captured in this process through OpenAL, says when it
 *     came out. Prints each delay from the write to the first captured sample of the burst: that
 *     includes the capture path's own delay, so it is an upper bound of the playback delay.
 * The tone plays at SS_LATENCY_NORMAL unless `low` is given: at low latency OpenAL Soft's own mixing
 * thread has a 10 ms buffer, which a machine whose cores are all busy (a load of 10 on 2 cores)
 * lets run dry now and then, whatever feeds it (the stream's underrun count stays 0 then).
 * Usage: feed_device_test tone SECONDS [low] | latency */
#define _POSIX_C_SOURCE 200809L
#include <soundstation.h>

#include <AL/al.h>
#include <AL/alc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { RATE = 48000 };
static const double PI = 3.14159265358979323846;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static void sleep_until(double when) {
    struct timespec t;
    t.tv_sec = (time_t)when;
    t.tv_nsec = (long)((when - (double)t.tv_sec) * 1e9);
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) != 0) {
    }
}

static ss_engine *open_device(ss_latency latency) {
    ss_open_options options;
    ss_open_options_init(&options, sizeof options);
    options.output = SS_OUTPUT_DEVICE;
    options.latency = latency;
    ss_engine *engine = NULL;
    if (ss_open_with(&engine, &options) != SS_OK) {
        printf("FAIL cannot open the device: %s\n", ss_last_error());
        exit(1);
    }
    printf("output %s\n", ss_output(engine));
    return engine;
}

static int tone(double seconds, ss_latency latency) {
    ss_engine *engine = open_device(latency);
    ss_stream *stream = NULL;
    if (ss_stream_open(engine, 1, RATE, NULL, &stream) != SS_OK) {
        printf("FAIL open: %s\n", ss_last_error());
        return 1;
    }
    const int piece = RATE / 100;
    float buffer[RATE / 100];
    long written = 0, total = (long)(seconds * RATE);
    int short_writes = 0, most_queued = 0;
    /* As a game keeps an audio queue filled: by what is queued, not by the wall clock (a sound
     * server's clock drifts from it: a null sink on a loaded machine runs several percent slow). */
    while (written < total) {
        int queued = ss_stream_queued(stream);
        if (queued > most_queued) most_queued = queued;
        if (queued < RATE / 20) {
            for (int i = 0; i < piece; i++)
                buffer[i] = (float)(0.5 * sin(2 * PI * 440 * (double)(written + i) / RATE));
            if (ss_stream_write(stream, buffer, piece) != piece) short_writes++;
            written += piece;
            continue;
        }
        sleep_until(now() + 0.002);
    }
    /* The count while the game kept the queue filled; running dry at the end is no gap. */
    int underruns = ss_stream_underruns(stream);
    /* What is queued plays out. */
    double deadline = now() + 2;
    while (ss_stream_queued(stream) > 0 && now() < deadline) sleep_until(now() + 0.005);
    sleep_until(now() + 0.2);
    printf("tone: %.1f s written in %ld pieces of 10 ms, underruns %d, refused %d, short writes %d, "
           "most queued %d frames (%.1f ms); %d underrun(s) once the writes stopped\n",
           seconds, total / piece, underruns, ss_stream_refused(stream), short_writes, most_queued,
           most_queued * 1000.0 / RATE, ss_stream_underruns(stream) - underruns);
    ss_stream_close(stream);
    ss_close(engine);
    return underruns == 0 && short_writes == 0 ? 0 : 1;
}

static int latency(void) {
    ALCdevice *capture = alcCaptureOpenDevice(NULL, RATE, AL_FORMAT_MONO16, RATE);
    if (!capture) {
        printf("FAIL cannot open the monitor for capture\n");
        return 1;
    }
    ss_engine *engine = open_device(SS_LATENCY_LOW);
    ss_stream *stream = NULL;
    if (ss_stream_open(engine, 1, RATE, NULL, &stream) != SS_OK) {
        printf("FAIL open: %s\n", ss_last_error());
        return 1;
    }
    alcCaptureStart(capture);
    static short captured[RATE * 20];
    long got = 0;
    const int piece = RATE / 200;
    float silence[RATE / 200], burst[RATE / 200];
    for (int i = 0; i < piece; i++) {
        silence[i] = 0;
        burst[i] = (float)(0.8 * sin(2 * PI * 1000 * i / RATE));
    }
    double delays[8];
    int measured = 0, failures = 0;
    double start = now();
    long burst_at[8];
    int bursts = 0;
    double next_burst = start + 1.0;
    while (now() - start < 6.0 && got < RATE * 19) {
        ALCint available = 0;
        alcGetIntegerv(capture, ALC_CAPTURE_SAMPLES, 1, &available);
        if (available > 0) {
            alcCaptureSamples(capture, captured + got, available);
            got += available;
        }
        if (ss_stream_queued(stream) < RATE / 100) {
            int is_burst = now() >= next_burst && bursts < 8;
            if (is_burst) {
                /* The capture count now, against the first captured sample of the burst. */
                alcGetIntegerv(capture, ALC_CAPTURE_SAMPLES, 1, &available);
                if (available > 0) {
                    alcCaptureSamples(capture, captured + got, available);
                    got += available;
                }
                burst_at[bursts++] = got;
                next_burst += 0.5;
            }
            ss_stream_write(stream, is_burst ? burst : silence, piece);
        }
        sleep_until(now() + 0.001);
    }
    for (int b = 0; b < bursts; b++) {
        long onset = -1;
        long end = b + 1 < bursts ? burst_at[b + 1] : got;
        for (long i = burst_at[b]; i < end; i++)
            if (abs(captured[i]) > 3000) {
                onset = i;
                break;
            }
        if (onset < 0) {
            printf("burst %d: not heard\n", b);
            failures++;
            continue;
        }
        delays[measured++] = (double)(onset - burst_at[b]) * 1000.0 / RATE;
    }
    double worst = 0, sum = 0;
    for (int i = 0; i < measured; i++) {
        sum += delays[i];
        if (delays[i] > worst) worst = delays[i];
        printf("burst %d: heard %.1f ms after its write\n", i, delays[i]);
    }
    printf("latency: %d bursts, mean %.1f ms, worst %.1f ms (write to captured on the monitor), underruns %d\n",
           measured, measured ? sum / measured : 0, worst, ss_stream_underruns(stream));
    ss_stream_close(stream);
    ss_close(engine);
    alcCaptureStop(capture);
    alcCaptureCloseDevice(capture);
    /* The first burst may come before the capture path has settled: one miss is allowed. */
    return failures <= 1 && measured >= 6 && worst <= 30 ? 0 : 1;
}

int main(int argc, char **argv) {
    if (argc >= 3 && strcmp(argv[1], "tone") == 0)
        return tone(atof(argv[2]), argc >= 4 && strcmp(argv[3], "low") == 0 ? SS_LATENCY_LOW : SS_LATENCY_NORMAL);
    if (argc >= 2 && strcmp(argv[1], "latency") == 0) return latency();
    fprintf(stderr, "usage: feed_device_test tone SECONDS [low] | latency\n");
    return 2;
}
