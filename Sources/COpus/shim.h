#ifndef SOUNDSTATION_COPUS_SHIM_H
#define SOUNDSTATION_COPUS_SHIM_H

// libopus: the codec a fed stream travels in over SSH (Sources/SoundStation/Remote/StreamCodec.swift).
#include <opus.h>

// opus_encoder_ctl and opus_decoder_ctl are variadic, which Swift cannot call: these take one value.
static inline int ss_opus_set_bitrate(OpusEncoder *encoder, opus_int32 bitrate) {
    return opus_encoder_ctl(encoder, OPUS_SET_BITRATE(bitrate));
}

static inline int ss_opus_set_complexity(OpusEncoder *encoder, opus_int32 complexity) {
    return opus_encoder_ctl(encoder, OPUS_SET_COMPLEXITY(complexity));
}

static inline int ss_opus_set_vbr_constraint(OpusEncoder *encoder, opus_int32 constrained) {
    return opus_encoder_ctl(encoder, OPUS_SET_VBR_CONSTRAINT(constrained));
}

#endif
