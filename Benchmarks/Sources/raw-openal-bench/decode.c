#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vorbis/vorbisfile.h>

#include "raw.h"

/* The whole file in memory. */
static unsigned char *read_file(const char *path, size_t *size) {
    FILE *file = fopen(path, "rb");
    if (!file) bench_die("cannot open %s: %s", path, strerror(errno));
    if (fseek(file, 0, SEEK_END) != 0) bench_die("cannot seek in %s: %s", path, strerror(errno));
    long length = ftell(file);
    if (length <= 0) bench_die("%s is empty or unreadable", path);
    rewind(file);
    unsigned char *bytes = malloc((size_t)length);
    if (!bytes) bench_die("out of memory reading %s", path);
    if (fread(bytes, 1, (size_t)length, file) != (size_t)length) bench_die("cannot read %s", path);
    fclose(file);
    *size = (size_t)length;
    return bytes;
}

static uint32_t le32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint16_t le16(const unsigned char *p) { return (uint16_t)(p[0] | p[1] << 8); }

/* The fmt and data chunks of a WAV file. */
typedef struct {
    int tag; /* 1 integer PCM, 3 float */
    int channels;
    int rate;
    int bits;
    const unsigned char *data;
    size_t data_size;
} wav_layout;

static wav_layout parse_wav(const unsigned char *bytes, size_t size, const char *path) {
    if (size < 12 || memcmp(bytes, "RIFF", 4) != 0 || memcmp(bytes + 8, "WAVE", 4) != 0)
        bench_die("%s is not a RIFF/WAVE file", path);
    wav_layout wav = {0};
    size_t offset = 12;
    while (offset + 8 <= size) {
        uint32_t chunk = le32(bytes + offset + 4);
        const unsigned char *body = bytes + offset + 8;
        size_t available = size - offset - 8;
        if (chunk > available) chunk = (uint32_t)available;
        if (memcmp(bytes + offset, "fmt ", 4) == 0 && chunk >= 16) {
            wav.tag = le16(body);
            wav.channels = le16(body + 2);
            wav.rate = (int)le32(body + 4);
            wav.bits = le16(body + 14);
            if (wav.tag == 0xFFFE && chunk >= 26) wav.tag = le16(body + 24);
        } else if (memcmp(bytes + offset, "data", 4) == 0) {
            wav.data = body;
            wav.data_size = chunk;
        }
        offset += 8 + (size_t)chunk + (chunk & 1);
    }
    if (!wav.data || wav.channels < 1 || wav.channels > 2 || wav.rate <= 0)
        bench_die("%s: no data chunk, or not a mono or stereo WAV", path);
    if (!((wav.tag == 1 && (wav.bits == 8 || wav.bits == 16 || wav.bits == 24 || wav.bits == 32)) ||
          (wav.tag == 3 && wav.bits == 32)))
        bench_die("%s: unsupported WAV encoding (format %d, %d bits)", path, wav.tag, wav.bits);
    return wav;
}

/* Converts any supported WAV encoding to float samples. */
static float *wav_to_float(const wav_layout *wav, size_t *count) {
    size_t width = (size_t)wav->bits / 8;
    size_t n = wav->data_size / width;
    n -= n % (size_t)wav->channels;
    float *out = malloc((n ? n : 1) * sizeof *out);
    if (!out) bench_die("out of memory converting WAV samples");
    const unsigned char *p = wav->data;
    for (size_t i = 0; i < n; i++, p += width) {
        switch (wav->bits) {
        case 8: out[i] = ((float)p[0] - 128.0f) / 128.0f; break;
        case 16: out[i] = (float)(int16_t)le16(p) / 32768.0f; break;
        case 24: {
            /* Shifted to the top of 32 bits and back, which extends the sign. */
            int32_t value = (int32_t)((uint32_t)p[0] << 8 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 24) >> 8;
            out[i] = (float)value / 8388608.0f;
            break;
        }
        default:
            if (wav->tag == 3) {
                uint32_t bits = le32(p);
                memcpy(&out[i], &bits, sizeof bits);
            } else {
                out[i] = (float)((double)(int32_t)le32(p) / 2147483648.0);
            }
        }
    }
    *count = n;
    return out;
}

static ALuint load_wav(const unsigned char *bytes, size_t size, const char *path) {
    wav_layout wav = parse_wav(bytes, size, path);
    ALuint buffer;
    alGenBuffers(1, &buffer);
    raw_check_al("alGenBuffers");
    if (wav.tag == 1 && (wav.bits == 8 || wav.bits == 16)) {
        /* OpenAL takes 8- and 16-bit PCM as stored. */
        ALenum format = wav.bits == 8 ? (wav.channels == 1 ? AL_FORMAT_MONO8 : AL_FORMAT_STEREO8)
                                      : (wav.channels == 1 ? AL_FORMAT_MONO16 : AL_FORMAT_STEREO16);
        size_t frame = (size_t)wav.channels * (size_t)wav.bits / 8;
        alBufferData(buffer, format, wav.data, (ALsizei)(wav.data_size - wav.data_size % frame), wav.rate);
    } else {
        size_t count;
        float *samples = wav_to_float(&wav, &count);
        ALenum format = wav.channels == 1 ? AL_FORMAT_MONO_FLOAT32 : AL_FORMAT_STEREO_FLOAT32;
        alBufferData(buffer, format, samples, (ALsizei)(count * sizeof *samples), wav.rate);
        free(samples);
    }
    raw_check_al("alBufferData(WAV)");
    return buffer;
}

static ALuint load_vorbis(const char *path) {
    OggVorbis_File file;
    int opened = ov_fopen(path, &file);
    if (opened != 0) bench_die("ov_fopen(%s) failed with %d", path, opened);
    vorbis_info *info = ov_info(&file, -1);
    if (!info || info->channels < 1 || info->channels > 2)
        bench_die("%s: not a mono or stereo Vorbis stream", path);
    ogg_int64_t total = ov_pcm_total(&file, -1);
    if (total < 0) bench_die("ov_pcm_total(%s) failed with %lld", path, (long long)total);
    size_t capacity = (size_t)total * (size_t)info->channels * 2;
    char *pcm = malloc(capacity ? capacity : 1);
    if (!pcm) bench_die("out of memory decoding %s", path);
    size_t done = 0;
    int section = 0;
    while (done < capacity) {
        int wanted = (int)(capacity - done > 65536 ? 65536 : capacity - done);
        /* Little-endian, 16-bit, signed samples. */
        long got = ov_read(&file, pcm + done, wanted, 0, 2, 1, &section);
        if (got == OV_HOLE) continue;
        if (got < 0) bench_die("ov_read(%s) failed with %ld", path, got);
        if (got == 0) break;
        done += (size_t)got;
    }
    ALuint buffer;
    alGenBuffers(1, &buffer);
    raw_check_al("alGenBuffers");
    alBufferData(buffer, info->channels == 1 ? AL_FORMAT_MONO16 : AL_FORMAT_STEREO16, pcm, (ALsizei)done,
                 (ALsizei)info->rate);
    raw_check_al("alBufferData(Vorbis)");
    free(pcm);
    ov_clear(&file);
    return buffer;
}

ALuint raw_load_buffer(const char *path) {
    FILE *probe = fopen(path, "rb");
    if (!probe) bench_die("cannot open %s: %s", path, strerror(errno));
    unsigned char magic[4] = {0};
    size_t got = fread(magic, 1, 4, probe);
    fclose(probe);
    if (got == 4 && memcmp(magic, "OggS", 4) == 0) return load_vorbis(path);
    size_t size;
    unsigned char *bytes = read_file(path, &size);
    ALuint buffer = load_wav(bytes, size, path);
    free(bytes);
    return buffer;
}

void raw_open_stream(const char *path) {
    OggVorbis_File file;
    int opened = ov_fopen(path, &file);
    if (opened != 0) bench_die("ov_fopen(%s) failed with %d", path, opened);
    vorbis_info *info = ov_info(&file, -1);
    if (!info || ov_pcm_total(&file, -1) < 0) bench_die("%s: no Vorbis stream information", path);
    ov_clear(&file);
}

raw_pcm raw_read_wav_float(const char *path) {
    size_t size;
    unsigned char *bytes = read_file(path, &size);
    wav_layout wav = parse_wav(bytes, size, path);
    size_t count;
    raw_pcm pcm;
    pcm.samples = wav_to_float(&wav, &count);
    pcm.rate = wav.rate;
    pcm.channels = wav.channels;
    pcm.frames = count / (size_t)wav.channels;
    free(bytes);
    return pcm;
}
