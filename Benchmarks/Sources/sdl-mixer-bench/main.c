/* sdl-mixer-bench: what most SDL and terminal games use for sound, SDL_mixer 2, measured on the
   same cases as SoundStation. It always runs on SDL's dummy audio driver (SDL_AUDIODRIVER=dummy),
   which mixes on SDL's audio thread and throws the result away. Usage:
     sdl-mixer-bench all --work DIR [--runs N]   every in-process case, one JSON line each
     sdl-mixer-bench startup --work DIR          one start-to-exit run (timed by bench.sh) */
#define _POSIX_C_SOURCE 200809L
#include <SDL.h>
#include <SDL_mixer.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_support.h"

#define SDL_PEER "sdl-mixer"
#define SDL_RATE 48000
/* The chunk most SDL_mixer games pass to Mix_OpenAudio (2048 frames, 43 ms at 48 kHz). */
#define SDL_CHUNK 2048
#define TRIGGER_CHANNELS 32
#define TRIGGERS 10000

static void open_audio(void) {
    if (SDL_Init(SDL_INIT_AUDIO) != 0) bench_die("SDL_Init(SDL_INIT_AUDIO) failed: %s", SDL_GetError());
    int formats = Mix_Init(MIX_INIT_OGG);
    if (!(formats & MIX_INIT_OGG)) bench_die("Mix_Init(MIX_INIT_OGG) failed: %s", Mix_GetError());
    if (Mix_OpenAudio(SDL_RATE, AUDIO_F32SYS, 2, SDL_CHUNK) != 0)
        bench_die("Mix_OpenAudio failed: %s", Mix_GetError());
    int rate = 0, channels = 0;
    Uint16 format = 0;
    if (!Mix_QuerySpec(&rate, &format, &channels)) bench_die("Mix_QuerySpec failed: %s", Mix_GetError());
    if (rate != SDL_RATE || channels != 2 || format != AUDIO_F32SYS)
        bench_die("SDL opened %d Hz, %d channels, format 0x%x instead of %d Hz float stereo", rate, channels,
                  format, SDL_RATE);
}

static void close_audio(void) {
    Mix_CloseAudio();
    Mix_Quit();
    SDL_Quit();
}

/* Loads every sound of a list: Mix_LoadWAV decodes into a chunk; with `streamed_music`, entries
   marked "open" go to Mix_LoadMUS, which opens the file for streaming. */
static void load_list(bench_sound *sounds, size_t count, int streamed_music, Mix_Chunk **chunks,
                      Mix_Music **music) {
    for (size_t i = 0; i < count; i++) {
        chunks[i] = NULL;
        music[i] = NULL;
        if (sounds[i].decode || !streamed_music) {
            chunks[i] = Mix_LoadWAV(sounds[i].path);
            if (!chunks[i]) bench_die("Mix_LoadWAV(%s) failed: %s", sounds[i].path, Mix_GetError());
        } else {
            music[i] = Mix_LoadMUS(sounds[i].path);
            if (!music[i]) bench_die("Mix_LoadMUS(%s) failed: %s", sounds[i].path, Mix_GetError());
        }
    }
}

static void free_list(size_t count, Mix_Chunk **chunks, Mix_Music **music) {
    for (size_t i = 0; i < count; i++) {
        if (chunks[i]) Mix_FreeChunk(chunks[i]);
        if (music[i]) Mix_FreeMusic(music[i]);
    }
}

static void case_preload(const char *list, const char *case_name, int streamed_music, int runs) {
    bench_sound *sounds;
    size_t count = bench_read_list(list, &sounds);
    Mix_Chunk **chunks = calloc(count, sizeof *chunks);
    Mix_Music **music = calloc(count, sizeof *music);
    double *samples = calloc((size_t)runs, sizeof *samples);
    if (!chunks || !music || !samples) bench_die("out of memory");
    for (int run = -1; run < runs; run++) {
        double start = bench_wall_seconds();
        load_list(sounds, count, streamed_music, chunks, music);
        double elapsed = bench_wall_seconds() - start;
        if (run >= 0) samples[run] = elapsed * 1e3;
        free_list(count, chunks, music);
    }
    const char *label =
        streamed_music ? "Mix_LoadWAV effects, Mix_LoadMUS music" : "Mix_LoadWAV every sound (decoded)";
    bench_emit(case_name, SDL_PEER, "ms", label, samples, (size_t)runs, NULL);
    free(samples);
    free(music);
    free(chunks);
    bench_free_list(sounds, count);
}

static void case_trigger(const char *sound, int runs) {
    Mix_Chunk *chunk = Mix_LoadWAV(sound);
    if (!chunk) bench_die("Mix_LoadWAV(%s) failed: %s", sound, Mix_GetError());
    if (Mix_AllocateChannels(TRIGGER_CHANNELS) != TRIGGER_CHANNELS)
        bench_die("Mix_AllocateChannels(%d) failed", TRIGGER_CHANNELS);
    double *samples = calloc((size_t)runs, sizeof *samples);
    if (!samples) bench_die("out of memory");
    for (int run = -1; run < runs; run++) {
        double start = bench_wall_seconds();
        for (int i = 0; i < TRIGGERS; i++) {
            /* Naming the channel recycles it: whatever played there is replaced. */
            if (Mix_PlayChannel(i % TRIGGER_CHANNELS, chunk, 0) < 0)
                bench_die("Mix_PlayChannel failed: %s", Mix_GetError());
        }
        double elapsed = bench_wall_seconds() - start;
        if (run >= 0) samples[run] = elapsed / TRIGGERS * 1e6;
    }
    bench_emit("trigger", SDL_PEER, "us",
               "Mix_PlayChannel on a named channel (no gain, pitch or pan)", samples,
               (size_t)runs, NULL);
    Mix_HaltChannel(-1);
    Mix_FreeChunk(chunk);
    free(samples);
}

/* The bytes SDL_mixer hands the post-mix hook per call: one chunk of the audio thread. */
static SDL_atomic_t mixed_bytes;

static void post_mix(void *unused, Uint8 *stream, int length) {
    (void)unused;
    (void)stream;
    SDL_AtomicSet(&mixed_bytes, length);
}

static void case_latency(int runs) {
    double *samples = calloc((size_t)runs, sizeof *samples);
    if (!samples) bench_die("out of memory");
    Mix_SetPostMix(post_mix, NULL);
    for (int run = -1; run < runs; run++) {
        SDL_AtomicSet(&mixed_bytes, 0);
        int waited = 0;
        while (SDL_AtomicGet(&mixed_bytes) == 0 && waited < 2000) {
            SDL_Delay(1);
            waited++;
        }
        int bytes = SDL_AtomicGet(&mixed_bytes);
        if (bytes == 0) bench_die("SDL_mixer's audio thread mixed nothing in 2 s");
        double frames = (double)bytes / (2 * sizeof(float));
        if (run >= 0) samples[run] = frames * 1000.0 / SDL_RATE;
    }
    Mix_SetPostMix(NULL, NULL);
    bench_emit("latency-device", SDL_PEER, "ms",
               "frames per SDL_mixer mix call (Mix_OpenAudio chunk 2048)", samples,
               (size_t)runs, NULL);
    free(samples);
}

int main(int argc, char **argv) {
    bench_set_program("sdl-mixer-bench");
    if (setenv("SDL_AUDIODRIVER", "dummy", 1) != 0) bench_die("setenv(SDL_AUDIODRIVER) failed");
    if (argc < 2) bench_die("usage: sdl-mixer-bench all|startup --work DIR [--runs N]");
    const char *work = bench_option(argc, argv, "work", NULL);
    if (!work) bench_die("--work DIR is required");
    int runs = bench_int_option(argc, argv, "runs", 5);
    const char *command = argv[1];
    if (strcmp(command, "startup") == 0) {
        char *list = bench_path(work, "demo.list");
        bench_sound *sounds;
        size_t count = bench_read_list(list, &sounds);
        Mix_Chunk **chunks = calloc(count, sizeof *chunks);
        Mix_Music **music = calloc(count, sizeof *music);
        if (!chunks || !music) bench_die("out of memory");
        open_audio();
        load_list(sounds, count, 1, chunks, music);
        free_list(count, chunks, music);
        close_audio();
        free(music);
        free(chunks);
        bench_free_list(sounds, count);
        free(list);
        return 0;
    }
    if (strcmp(command, "all") != 0) bench_die("unknown command '%s'", command);
    const char *only = bench_option(argc, argv, "only", NULL);
    char *preload = bench_path(work, "preload.list");
    char *streamed = bench_path(work, "streamed.list");
    char *sound = bench_path(work, "trigger/Effects/coin.wav");
    open_audio();
    if (!only || strstr(only, "preload")) {
        case_preload(preload, "preload", 0, runs);
        case_preload(streamed, "preload-music-streamed", 1, runs);
    }
    if (!only || strstr(only, "trigger")) case_trigger(sound, runs);
    if (!only || strstr(only, "latency")) case_latency(runs);
    close_audio();
    free(sound);
    free(streamed);
    free(preload);
    return 0;
}
