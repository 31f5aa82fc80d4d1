/*
 * ssdsp: the engine's cutoff filters (biquads) run several voices side by side, the soft
 * clipper's peak scan, and the interleaving of a decoder's planar channels.
 *
 * A biquad's output depends on its previous output, so one channel is a serial chain of a multiply
 * and a subtract per sample; four channels in vector lanes (two pairs of doubles, SSE2 or NEON
 * registers), or eight (two AVX registers of four doubles) where the processor has AVX, share that
 * chain's latency. Each lane computes exactly what the Swift loop in Colour/Biquad.swift computes, in
 * doubles, in the same order, nothing fused (FP_CONTRACT OFF), so the samples are bit-identical.
 * In C because Swift's SIMD types come out of LLVM reshuffled across lanes on every sample (1.7x
 * slower than this; Benchmarks/PERFORMANCE.md has the figures).
 */
#ifndef SSDSP_H
#define SSDSP_H

#ifdef __cplusplus
extern "C" {
#endif

/** One channel of one voice's block, its biquad's memory and coefficients (a0 normalised to 1). */
typedef struct ssdsp_biquad_lane {
    /** The channel's first sample; the next ones are `stride` samples apart (1 mono, 2 stereo). */
    float *samples;
    long stride;
    long frames;
    double x1, x2, y1, y2;
    double b0, b1, b2, a1, a2;
} ssdsp_biquad_lane;

/**
 * Filters every lane's samples in place, eight lanes at a time in AVX registers where the processor
 * has AVX (checked at run time), else four at a time, and leaves each lane's memory where its block
 * ended. Lanes must not share samples. Every path computes each sample exactly as the scalar loop.
 */
void ssdsp_biquad_lanes(ssdsp_biquad_lane *lanes, long count);

/** ssdsp_biquad_lanes without the AVX path (four lanes at a time): what a processor without AVX
 * runs, so tests check it on every machine. */
void ssdsp_biquad_lanes_sse(ssdsp_biquad_lane *lanes, long count);

/**
 * The largest magnitude among `count` samples, NaNs left out: the soft clipper's test of a whole
 * block (Mixer/SoftClipper.swift), in vector lanes (SSE on x86-64).
 */
float ssdsp_peak(const float *samples, long count);

/**
 * Writes `frames` frames of `channels` planar channels (`planes[c]` holds channel c's samples, or is
 * NULL for a channel to leave silent) into `out` interleaved: frame f's channel c at
 * `out[f * channels + c]`. What a Vorbis decoder's planar floats need to become a stream's block; in
 * C because a streamed voice's refill runs on the mixing side (an offline engine's render, the SSH
 * player's speaker), and the Swift loop it replaces, with its zero fill, made a debug build's music
 * refill on the speaker take 30 ms, and 131 ms at a track's switch (9-14 ms with this).
 */
void ssdsp_interleave(float *out, float *const *planes, long channels, long frames);

#ifdef __cplusplus
}
#endif

#endif
