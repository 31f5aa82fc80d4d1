#include "ssdsp.h"

#include <math.h>
#include <string.h>

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

/* One frame of two groups of lanes (inputs x and u, outputs y and v) with the coefficients b*, a*
 * and c*, d* and the memories x1, x2, y1, y2 and u1, u2, v1, v2 in scope: the scalar loop's order,
 * everything but the newest output first and then it, so each lane rounds as run_scalar does. */
#define BIQUAD_STEP(x, u, y, v)                              \
    do {                                                     \
        y = (b0 * x + b1 * x1 + b2 * x2 - a2 * y2) - a1 * y1; \
        v = (c0 * u + c1 * u1 + c2 * u2 - d2 * v2) - d1 * v1; \
        x2 = x1;                                             \
        x1 = x;                                              \
        y2 = y1;                                             \
        y1 = y;                                              \
        u2 = u1;                                             \
        u1 = u;                                              \
        v2 = v1;                                             \
        v1 = v;                                              \
    } while (0)

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
        pair y, v;
        BIQUAD_STEP(x, u, y, v);
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

#if defined(__x86_64__)
/* Four doubles, one AVX register; four floats, one SSE register. */
typedef double quad __attribute__((vector_size(32)));
typedef float floats4 __attribute__((vector_size(16)));

/* Eight lanes for `frames` frames, as two AVX registers of four doubles, where the processor has AVX
 * (checked at run time; no FMA: the target adds no fused instruction, and FP_CONTRACT is off, so every
 * multiply and add rounds as the scalar loop's do). Each frame's eight samples are gathered into two
 * registers of four floats and widened with one conversion each (vcvtps2pd), and narrowed back the same
 * way (vcvtpd2ps, the same round-to-nearest as each lane's own conversion): the SSE loop widens and
 * narrows sample by sample, which is most of its instructions. */
__attribute__((target("avx"))) static void run_eight(ssdsp_biquad_lane *q[8], long frames) {
    float *p[8];
    long s[8];
    for (int k = 0; k < 8; k++) p[k] = q[k]->samples, s[k] = q[k]->stride;
#define QUAD(h, f) ((quad){q[h]->f, q[h + 1]->f, q[h + 2]->f, q[h + 3]->f})
    const quad b0 = QUAD(0, b0), c0 = QUAD(4, b0);
    const quad b1 = QUAD(0, b1), c1 = QUAD(4, b1);
    const quad b2 = QUAD(0, b2), c2 = QUAD(4, b2);
    const quad a1 = QUAD(0, a1), d1 = QUAD(4, a1);
    const quad a2 = QUAD(0, a2), d2 = QUAD(4, a2);
    quad x1 = QUAD(0, x1), u1 = QUAD(4, x1);
    quad x2 = QUAD(0, x2), u2 = QUAD(4, x2);
    quad y1 = QUAD(0, y1), v1 = QUAD(4, y1);
    quad y2 = QUAD(0, y2), v2 = QUAD(4, y2);
#undef QUAD
    long i = 0;
    int contiguous = 1;
    for (int k = 0; k < 8; k++) contiguous &= s[k] == 1;
    if (contiguous) {
        /* Mono lanes (stride 1): four frames of each lane in one load, turned into four frames of
         * four lanes by a 4x4 transpose (and back after), instead of a load and an insert per sample. */
        for (; i + 4 <= frames; i += 4) {
            __m128 r0 = _mm_loadu_ps(p[0] + i), r1 = _mm_loadu_ps(p[1] + i);
            __m128 r2 = _mm_loadu_ps(p[2] + i), r3 = _mm_loadu_ps(p[3] + i);
            __m128 t0 = _mm_loadu_ps(p[4] + i), t1 = _mm_loadu_ps(p[5] + i);
            __m128 t2 = _mm_loadu_ps(p[6] + i), t3 = _mm_loadu_ps(p[7] + i);
            _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
            _MM_TRANSPOSE4_PS(t0, t1, t2, t3);
            __m128 in[4] = {r0, r1, r2, r3}, un[4] = {t0, t1, t2, t3};
            __m128 out[4], vout[4];
            for (int j = 0; j < 4; j++) {
                quad x = (quad)_mm256_cvtps_pd(in[j]);
                quad u = (quad)_mm256_cvtps_pd(un[j]);
                quad y, v;
                BIQUAD_STEP(x, u, y, v);
                out[j] = _mm256_cvtpd_ps((__m256d)y);
                vout[j] = _mm256_cvtpd_ps((__m256d)v);
            }
            _MM_TRANSPOSE4_PS(out[0], out[1], out[2], out[3]);
            _MM_TRANSPOSE4_PS(vout[0], vout[1], vout[2], vout[3]);
            _mm_storeu_ps(p[0] + i, out[0]);
            _mm_storeu_ps(p[1] + i, out[1]);
            _mm_storeu_ps(p[2] + i, out[2]);
            _mm_storeu_ps(p[3] + i, out[3]);
            _mm_storeu_ps(p[4] + i, vout[0]);
            _mm_storeu_ps(p[5] + i, vout[1]);
            _mm_storeu_ps(p[6] + i, vout[2]);
            _mm_storeu_ps(p[7] + i, vout[3]);
        }
    }
    for (; i < frames; i++) {
        floats4 xf = {p[0][i * s[0]], p[1][i * s[1]], p[2][i * s[2]], p[3][i * s[3]]};
        floats4 uf = {p[4][i * s[4]], p[5][i * s[5]], p[6][i * s[6]], p[7][i * s[7]]};
        quad x = __builtin_convertvector(xf, quad);
        quad u = __builtin_convertvector(uf, quad);
        quad y, v;
        BIQUAD_STEP(x, u, y, v);
        floats4 yf = __builtin_convertvector(y, floats4);
        floats4 vf = __builtin_convertvector(v, floats4);
        p[0][i * s[0]] = yf[0];
        p[1][i * s[1]] = yf[1];
        p[2][i * s[2]] = yf[2];
        p[3][i * s[3]] = yf[3];
        p[4][i * s[4]] = vf[0];
        p[5][i * s[5]] = vf[1];
        p[6][i * s[6]] = vf[2];
        p[7][i * s[7]] = vf[3];
    }
    for (int k = 0; k < 4; k++) {
        q[k]->x1 = x1[k], q[k]->x2 = x2[k], q[k]->y1 = y1[k], q[k]->y2 = y2[k];
        q[k + 4]->x1 = u1[k], q[k + 4]->x2 = u2[k], q[k + 4]->y1 = v1[k], q[k + 4]->y2 = v2[k];
    }
}
#endif

/* Runs lanes from `first` on in groups of up to `width` (4 or 8) with `run`, while at least
 * `least` are left: a missing lane is a dummy over one float of its own (stride 0), a lane longer
 * than the group's shortest finishes alone. Returns the first lane left. */
static long run_groups(ssdsp_biquad_lane *lanes, long count, long first, int width, long least,
                       void (*run)(ssdsp_biquad_lane **, long)) {
    while (count - first >= least) {
        long n = count - first < width ? count - first : width;
        float scratch[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        ssdsp_biquad_lane dummies[8];
        ssdsp_biquad_lane *group[8];
        long common = -1;
        for (long k = 0; k < n; k++) {
            group[k] = &lanes[first + k];
            if (common < 0 || lanes[first + k].frames < common) common = lanes[first + k].frames;
        }
        for (long k = n; k < width; k++) {
            ssdsp_biquad_lane dummy = {&scratch[k], 0, common, 0, 0, 0, 0, 1, 0, 0, 0, 0};
            dummies[k] = dummy;
            group[k] = &dummies[k];
        }
        run(group, common);
        for (long k = 0; k < n; k++) run_scalar(&lanes[first + k], common);
        first += n;
    }
    return first;
}

void ssdsp_biquad_lanes_sse(ssdsp_biquad_lane *lanes, long count) {
    long first = run_groups(lanes, count, 0, 4, 2, run_four);
    for (; first < count; first++) run_scalar(&lanes[first], 0);
}

void ssdsp_biquad_lanes(ssdsp_biquad_lane *lanes, long count) {
    long first = 0;
#if defined(__x86_64__)
    /* Five lanes or more fill most of an eight-lane group; four or fewer go to the SSE pairs. */
    if (count >= 5 && __builtin_cpu_supports("avx")) first = run_groups(lanes, count, 0, 8, 5, run_eight);
#endif
    first = run_groups(lanes, count, first, 4, 2, run_four);
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

void ssdsp_interleave(float *out, float *const *planes, long channels, long frames) {
    if (channels == 1) {
        if (planes[0]) {
            memcpy(out, planes[0], (size_t)frames * sizeof(float));
        } else {
            memset(out, 0, (size_t)frames * sizeof(float));
        }
        return;
    }
    if (channels == 2 && planes[0] && planes[1]) {
        const float *left = planes[0], *right = planes[1];
        for (long i = 0; i < frames; i++) {
            out[2 * i] = left[i];
            out[2 * i + 1] = right[i];
        }
        return;
    }
    for (long c = 0; c < channels; c++) {
        const float *plane = planes[c];
        for (long i = 0; i < frames; i++) out[i * channels + c] = plane ? plane[i] : 0.0f;
    }
}
