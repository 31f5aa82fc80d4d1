/* ss_synth, offline: the coin of Tests/Synth/README.md hashes to Swift's hash (the file
 * coin-seed7.fnv1a); the three parameter forms (JSON, jsfxr's share string, sfxr's settings) make
 * sound; another seed other bytes; variation makes ten plays of one id differ; bad input names the
 * value. Usage: synth_test GOLDEN_FILE. Exit 1 when a check fails. */
#include <soundstation.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { RATE = 48000, FRAMES = 24000 };

static int checks, failures;
static float mix[2 * FRAMES];

static void check(int ok, const char *what) {
    checks++;
    if (!ok) {
        failures++;
        printf("FAIL %s (last error: %s)\n", what, ss_last_error());
    }
}

/* FNV-1a, 64-bit, of the floats' little-endian bytes (x86 and arm64 Linux are little-endian). */
static uint64_t fnv1a(const float *samples, size_t count) {
    uint64_t value = 0xcbf29ce484222325ull;
    const unsigned char *bytes = (const unsigned char *)samples;
    for (size_t i = 0; i < count * sizeof(float); i++) value = (value ^ bytes[i]) * 0x100000001b3ull;
    return value;
}

static double rms(const float *samples, size_t count) {
    double sum = 0;
    for (size_t i = 0; i < count; i++) sum += (double)samples[i] * samples[i];
    return sqrt(sum / (double)count);
}

/* Plays `id` once and renders FRAMES frames into `mix`. */
static uint64_t play_and_hash(ss_engine *engine, int id, float pitch) {
    check(ss_play(engine, id, 1.0f, pitch, 0.0f) == SS_OK, "ss_play a synthesised sound");
    check(ss_render(engine, mix, FRAMES) == FRAMES, "ss_render");
    return fnv1a(mix, 2 * FRAMES);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: synth_test GOLDEN_FILE\n");
        return 2;
    }
    char golden[64] = "";
    FILE *file = fopen(argv[1], "r");
    if (file == NULL || fscanf(file, "%63s", golden) != 1) {
        fprintf(stderr, "synth_test: cannot read %s\n", argv[1]);
        return 2;
    }
    fclose(file);
    ss_engine *engine = NULL;
    check(ss_open(&engine, "offline:48000", NULL) == SS_OK, "open offline with no catalogue");
    if (engine == NULL) return 1;

    int coin = ss_synth(engine, "coin", "{\"preset\": \"coin\", \"seed\": 7}");
    check(coin >= 0, "ss_synth the coin");
    char hex[17];
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)play_and_hash(engine, coin, 1.0f));
    check(strcmp(hex, golden) == 0, "the coin's bytes are Swift's");
    if (strcmp(hex, golden) != 0) printf("  C %s, Swift %s\n", hex, golden);
    check(rms(mix, 2 * FRAMES) > 0.01, "the coin is heard");

    int other = ss_synth(engine, "coin8", "{\"preset\": \"coin\", \"seed\": 8}");
    check(other >= 0, "seed 8 synthesises");
    play_and_hash(engine, other, 1.0f);
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)fnv1a(mix, 2 * FRAMES));
    check(strcmp(hex, golden) != 0, "seed 8 renders other bytes than seed 7");

    /* The same laser as JSON, then as jsfxr's share string and sfxr's settings string. */
    int shared = ss_synth(engine, "share", "#111114zUgM88ECUJPtVN5Td6u54vgQtCm1oGzACoo6kN7shSfHpXQZcVqpxpGZ6iUxBojXSXiEqSk2Cjkx9ss1R3TAy4cKuo3x939CsRdDgAJ2Ja2rT2ZrJs");
    check(shared >= 0, "jsfxr's share string (laser seed 3's, from `soundstation synth laser --seed 3`)");
    if (shared >= 0) {
        play_and_hash(engine, shared, 1.0f);
        check(rms(mix, 2 * FRAMES) > 0.01, "the share string's laser is heard");
    }
    int settings = ss_synth(engine, "settings", "0,,0.3,,0.2,0.4,,,,,,,,,,,,,1,,,,,0.5");
    check(settings >= 0, "sfxr's settings string");
    if (settings >= 0) {
        play_and_hash(engine, settings, 1.0f);
        check(rms(mix, 2 * FRAMES) > 0.01, "the settings string's tone is heard");
    }

    /* Variation: ten plays of one id, each rendered alone, give (nearly) ten different hashes. */
    int zap = ss_synth(engine, "zap", "{\"preset\": \"laser\", \"seed\": 3, \"variation\": 2}");
    check(zap >= 0, "ss_synth with variation");
    uint64_t hashes[10];
    int distinct = 0;
    for (int i = 0; i < 10; i++) {
        hashes[i] = play_and_hash(engine, zap, 1.0f);
        int seen = 0;
        for (int j = 0; j < i; j++) seen |= hashes[j] == hashes[i];
        distinct += !seen;
    }
    check(distinct >= 9, "ten lasers in a row are not one sample");

    check(ss_synth(engine, "bad", "{\"preset\": \"kazoo\"}") == SS_ERR_INVALID_ARGUMENT, "an unknown preset");
    check(strstr(ss_last_error(), "kazoo") != NULL, "the message names the preset");
    check(ss_synth(engine, "bad", "{\"p_base_freq\": 9}") == SS_ERR_INVALID_ARGUMENT, "a slider out of range");
    check(strstr(ss_last_error(), "p_base_freq") != NULL, "the message names the slider");
    check(ss_synth(engine, "coin", "{}") == SS_ERR_INVALID_ARGUMENT, "a name in use");
    check(ss_synth(engine, NULL, "{}") == SS_ERR_INVALID_ARGUMENT, "a NULL name");
    check(ss_synth(engine, "n", NULL) == SS_ERR_INVALID_ARGUMENT, "NULL params");
    check(ss_synth(NULL, "n", "{}") == SS_ERR_INVALID_ARGUMENT, "a NULL engine");
    ss_close(engine);
    check(ss_synth(engine, "late", "{}") == SS_ERR_CLOSED, "after ss_close");
    printf("synth_test: %d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
