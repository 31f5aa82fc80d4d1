#include "ssdsp.h"

#include <math.h>

#if defined(__x86_64__)
#include <immintrin.h>
#elif defined(__SSE__)
#include <emmintrin.h>
#endif

/* The samples must match the Swift loop's to the bit: no a*b+c fused into one rounding. */
#pragma STDC FP_CONTRACT OFF

/* One lane alone from frame `start` on: the Swift loop's arithmetic. */
static void run_scalar(ssdsp_biquad_lane *lane, long start) {
    float *p = lane->samples;
    const long s = lane->stride;
    double x1 = lane->x1, x2 = lane->x2, y1 = lane->y1, y2 = lane->y2;
    const double b0 = lane->b0, b1 = lane->b1, b2 = lane->b2, a1 = lane->a1, a2 = lane->a2;
    for (long i = start; i < lane->frames; i++) {
        double x = (double)p[i * s];
        /* Everything but the newest output first, so the chain from y[n-1] to y[n] is short. */
        double rest = b0 * x + b1 * x1 + b2 * x2 - a2 * y2;
        double y = rest - a1 * y1;
        x2 = x1;
        x1 = x;
        y2 = y1;
        y1 = y;
        p[i * s] = (float)y;
    }
    lane->x1 = x1;
    lane->x2 = x2;
    lane->y1 = y1;
    lane->y2 = y2;
}

/* Two doubles, one SSE2 (or NEON) register: clang's vector extension, on every target. */
typedef double pair __attribute__((vector_size(16)));

/* Four lanes for `frames` frames, as two pairs of doubles. */
static void run_four(ssdsp_biquad_lane *q[4], long frames) {
    float *p0 = q[0]->samples, *p1 = q[1]->samples, *p2 = q[2]->samples, *p3 = q[3]->samples;
    const long s0 = q[0]->stride, s1 = q[1]->stride, s2 = q[2]->stride, s3 = q[3]->stride;
#define PAIR(a, b, f) ((pair){(a)->f, (b)->f})
    const pair b0 = PAIR(q[0], q[1], b0), c0 = PAIR(q[2], q[3], b0);
    const pair b1 = PAIR(q[0], q[1], b1), c1 = PAIR(q[2], q[3], b1);
    const pair b2 = PAIR(q[0], q[1], b2), c2 = PAIR(q[2], q[3], b2);
    const pair a1 = PAIR(q[0], q[1], a1), d1 = PAIR(q[2], q[3], a1);
    const pair a2 = PAIR(q[0], q[1], a2), d2 = PAIR(q[2], q[3], a2);
    pair x1 = PAIR(q[0], q[1], x1), u1 = PAIR(q[2], q[3], x1);
    pair x2 = PAIR(q[0], q[1], x2), u2 = PAIR(q[2], q[3], x2);
    pair y1 = PAIR(q[0], q[1], y1), v1 = PAIR(q[2], q[3], y1);
    pair y2 = PAIR(q[0], q[1], y2), v2 = PAIR(q[2], q[3], y2);
#undef PAIR
    for (long i = 0; i < frames; i++) {
        pair x = {(double)p0[i * s0], (double)p1[i * s1]};
        pair u = {(double)p2[i * s2], (double)p3[i * s3]};
        /* The scalar loop's order: everything but the newest output first, then it. */
        pair y = (b0 * x + b1 * x1 + b2 * x2 - a2 * y2) - a1 * y1;
        pair v = (c0 * u + c1 * u1 + c2 * u2 - d2 * v2) - d1 * v1;
        x2 = x1;
        x1 = x;
        y2 = y1;
        y1 = y;
        u2 = u1;
        u1 = u;
        v2 = v1;
        v1 = v;
        p0[i * s0] = (float)y[0];
        p1[i * s1] = (float)y[1];
        p2[i * s2] = (float)v[0];
        p3[i * s3] = (float)v[1];
    }
    q[0]->x1 = x1[0], q[1]->x1 = x1[1], q[2]->x1 = u1[0], q[3]->x1 = u1[1];
    q[0]->x2 = x2[0], q[1]->x2 = x2[1], q[2]->x2 = u2[0], q[3]->x2 = u2[1];
    q[0]->y1 = y1[0], q[1]->y1 = y1[1], q[2]->y1 = v1[0], q[3]->y1 = v1[1];
    q[0]->y2 = y2[0], q[1]->y2 = y2[1], q[2]->y2 = v2[0], q[3]->y2 = v2[1];
}

void ssdsp_biquad_lanes(ssdsp_biquad_lane *lanes, long count) {
    long first = 0;
    while (count - first >= 2) {
        long n = count - first < 4 ? count - first : 4;
        /* A missing lane is a dummy over one float of its own (stride 0). */
        float scratch[4] = {0, 0, 0, 0};
        ssdsp_biquad_lane dummies[4];
        ssdsp_biquad_lane *quad[4];
        long common = -1;
        for (long k = 0; k < n; k++) {
            quad[k] = &lanes[first + k];
            if (common < 0 || lanes[first + k].frames < common) common = lanes[first + k].frames;
        }
        for (long k = n; k < 4; k++) {
            ssdsp_biquad_lane dummy = {&scratch[k], 0, common, 0, 0, 0, 0, 1, 0, 0, 0, 0};
            dummies[k] = dummy;
            quad[k] = &dummies[k];
        }
        run_four(quad, common);
        for (long k = 0; k < n; k++) run_scalar(&lanes[first + k], common);
        first += n;
    }
    for (; first < count; first++) run_scalar(&lanes[first], 0);
}

#if defined(__x86_64__)
/* 32 samples a step in four AVX registers, where the processor has AVX (checked once at run time):
 * half the instructions of the SSE loop below, which every x86-64 has. */
__attribute__((target("avx"))) static float peak_avx(const float *samples, long count, long *done) {
    const __m256 mask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
    __m256 m0 = _mm256_setzero_ps(), m1 = m0, m2 = m0, m3 = m0;
    long i = 0;
    for (; i + 32 <= count; i += 32) {
        m0 = _mm256_max_ps(_mm256_and_ps(_mm256_loadu_ps(samples + i), mask), m0);
        m1 = _mm256_max_ps(_mm256_and_ps(_mm256_loadu_ps(samples + i + 8), mask), m1);
        m2 = _mm256_max_ps(_mm256_and_ps(_mm256_loadu_ps(samples + i + 16), mask), m2);
        m3 = _mm256_max_ps(_mm256_and_ps(_mm256_loadu_ps(samples + i + 24), mask), m3);
    }
    float lanes[8];
    _mm256_storeu_ps(lanes, _mm256_max_ps(_mm256_max_ps(m0, m1), _mm256_max_ps(m2, m3)));
    float peak = 0;
    for (int k = 0; k < 8; k++) peak = lanes[k] > peak ? lanes[k] : peak;
    *done = i;
    return peak;
}
#endif

float ssdsp_peak(const float *samples, long count) {
    long i = 0;
    float peak = 0;
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx")) peak = peak_avx(samples, count, &i);
#endif
#if defined(__SSE__)
    /* Four registers of four magnitudes (the sign bit masked off), 16 samples a step: maxps keeps
     * the larger lane, and a NaN lane is dropped (the second operand wins), which is what the caller
     * wants (a NaN passes the clipper's curve unchanged). */
    const __m128 mask = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff));
    __m128 m0 = _mm_setzero_ps(), m1 = m0, m2 = m0, m3 = m0;
    for (; i + 16 <= count; i += 16) {
        m0 = _mm_max_ps(_mm_and_ps(_mm_loadu_ps(samples + i), mask), m0);
        m1 = _mm_max_ps(_mm_and_ps(_mm_loadu_ps(samples + i + 4), mask), m1);
        m2 = _mm_max_ps(_mm_and_ps(_mm_loadu_ps(samples + i + 8), mask), m2);
        m3 = _mm_max_ps(_mm_and_ps(_mm_loadu_ps(samples + i + 12), mask), m3);
    }
    float lanes[4];
    _mm_storeu_ps(lanes, _mm_max_ps(_mm_max_ps(m0, m1), _mm_max_ps(m2, m3)));
    for (int k = 0; k < 4; k++) peak = lanes[k] > peak ? lanes[k] : peak;
#endif
    for (; i < count; i++) {
        float magnitude = fabsf(samples[i]);
        peak = magnitude > peak ? magnitude : peak;
    }
    return peak;
}
