#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <vorbis/vorbisenc.h>

#include "raw.h"

/* Frames handed to libvorbis per call: 100 ms at 16 kHz, what a recorder reads per round. */
#define ENCODE_CHUNK 1600
#define ENCODE_QUALITY 0.4f

static void write_pages(ogg_stream_state *stream, FILE *file, int force, const char *path) {
    ogg_page page;
    while (force ? ogg_stream_flush(stream, &page) : ogg_stream_pageout(stream, &page)) {
        if (fwrite(page.header, 1, (size_t)page.header_len, file) != (size_t)page.header_len ||
            fwrite(page.body, 1, (size_t)page.body_len, file) != (size_t)page.body_len)
            bench_die("writing %s failed: %s", path, strerror(errno));
    }
}

static void drain(vorbis_dsp_state *dsp, vorbis_block *block, ogg_stream_state *stream, FILE *file,
                  const char *path) {
    ogg_packet packet;
    while (vorbis_analysis_blockout(dsp, block) == 1) {
        vorbis_analysis(block, NULL);
        vorbis_bitrate_addblock(block);
        while (vorbis_bitrate_flushpacket(dsp, &packet)) {
            ogg_stream_packetin(stream, &packet);
            write_pages(stream, file, 0, path);
        }
    }
}

/* Encodes `pcm` to an Ogg Vorbis file the way the engine's VorbisEncoder does, synced at the end. */
static void encode_file(const raw_pcm *pcm, const char *path) {
    vorbis_info info;
    vorbis_info_init(&info);
    int result = vorbis_encode_init_vbr(&info, pcm->channels, pcm->rate, ENCODE_QUALITY);
    if (result != 0)
        bench_die("vorbis_encode_init_vbr(%d ch, %d Hz) failed with %d", pcm->channels, pcm->rate, result);
    vorbis_comment comment;
    vorbis_comment_init(&comment);
    vorbis_comment_add_tag(&comment, "ENCODER", "raw-openal-bench");
    vorbis_dsp_state dsp;
    vorbis_block block;
    ogg_stream_state stream;
    if (vorbis_analysis_init(&dsp, &info) != 0 || vorbis_block_init(&dsp, &block) != 0 ||
        ogg_stream_init(&stream, 0x5353) != 0)
        bench_die("libvorbis could not set up the encoder");
    FILE *file = fopen(path, "wb");
    if (!file) bench_die("cannot create %s: %s", path, strerror(errno));
    ogg_packet identification, comments, codebooks;
    vorbis_analysis_headerout(&dsp, &comment, &identification, &comments, &codebooks);
    ogg_stream_packetin(&stream, &identification);
    ogg_stream_packetin(&stream, &comments);
    ogg_stream_packetin(&stream, &codebooks);
    write_pages(&stream, file, 1, path);

    for (size_t start = 0; start < pcm->frames; start += ENCODE_CHUNK) {
        size_t frames = pcm->frames - start < ENCODE_CHUNK ? pcm->frames - start : ENCODE_CHUNK;
        float **buffer = vorbis_analysis_buffer(&dsp, (int)frames);
        for (int c = 0; c < pcm->channels; c++) {
            const float *from = pcm->samples + start * (size_t)pcm->channels + (size_t)c;
            for (size_t i = 0; i < frames; i++) buffer[c][i] = from[i * (size_t)pcm->channels];
        }
        vorbis_analysis_wrote(&dsp, (int)frames);
        drain(&dsp, &block, &stream, file, path);
    }
    vorbis_analysis_wrote(&dsp, 0);
    drain(&dsp, &block, &stream, file, path);
    write_pages(&stream, file, 1, path);
    if (fflush(file) != 0 || fsync(fileno(file)) != 0 || fclose(file) != 0)
        bench_die("finishing %s failed: %s", path, strerror(errno));
    ogg_stream_clear(&stream);
    vorbis_block_clear(&block);
    vorbis_dsp_clear(&dsp);
    vorbis_comment_clear(&comment);
    vorbis_info_clear(&info);
}

void raw_case_encode(const char *speech, const char *out, int runs) {
    raw_pcm pcm = raw_read_wav_float(speech);
    double *samples = calloc((size_t)runs, sizeof *samples);
    if (!samples) bench_die("out of memory");
    for (int run = -1; run < runs; run++) {
        double start = bench_wall_seconds();
        encode_file(&pcm, out);
        double elapsed = bench_wall_seconds() - start;
        if (run >= 0) samples[run] = elapsed * 1e3;
    }
    char note[96];
    snprintf(note, sizeof note, "audio %.3f s at %d Hz, %d ch", (double)pcm.frames / pcm.rate, pcm.rate,
             pcm.channels);
    bench_emit("voice-encode", RAW_PEER, "ms",
               "libvorbisenc q0.4, 1600-frame writes, fsync at the end", samples,
               (size_t)runs, note);
    free(samples);
    free(pcm.samples);
}
