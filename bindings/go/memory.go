package soundstation

/*
#include <soundstation.h>
#include <stdlib.h>
*/
import "C"

import (
	"strings"
	"unsafe"
)

// SampleFormat is what one sample of raw PCM is (ss_sample_format); LoadPCM picks it from the
// slice's type, and this names it for code that keeps samples as bytes.
type SampleFormat int

// The sample formats.
const (
	// SampleFloat32 is 32-bit float samples in -1...1.
	SampleFloat32 SampleFormat = C.SS_SAMPLE_FLOAT32
	// SampleInt16 is signed 16-bit samples.
	SampleInt16 SampleFormat = C.SS_SAMPLE_INT16
)

// Sample is a sample type LoadPCM takes.
type Sample interface{ ~float32 | ~int16 }

// LoadMemory decodes a whole encoded file held in memory (any format LoadFile reads: WAV, AIFF,
// FLAC, Ogg Vorbis, Opus, MP3, tracker modules) into an effect called name and returns its id, so a
// game built with embed needs no asset folder:
//
//	//go:embed coin.ogg
//	var coinOgg []byte
//	coin, err := engine.LoadMemory("coin", coinOgg)
//
// The bytes are copied; it waits while decoding.
func (e *Engine) LoadMemory(name string, data []byte) (int, error) {
	if strings.IndexByte(name, 0) >= 0 {
		return 0, invalid("Engine.LoadMemory: sound name %q holds a NUL byte", name)
	}
	if len(data) == 0 {
		return 0, invalid("Engine.LoadMemory: the bytes of sound %q are empty: give a whole file", name)
	}
	cName := C.CString(name)
	defer C.free(unsafe.Pointer(cName))
	return e.do(func(raw *C.ss_engine) C.int {
		return C.ss_load_memory(raw, cName, unsafe.Pointer(&data[0]), C.size_t(len(data)))
	})
}

// LoadPCM makes raw interleaved samples ([]float32 in -1...1, or []int16) an effect called name and
// returns its id: channels samples a frame (1...32; above 2 mixed to stereo), rate frames a second
// (1000...384000). The samples are copied; it waits while they are uploaded.
func LoadPCM[S Sample](e *Engine, name string, samples []S, channels, rate int) (int, error) {
	if strings.IndexByte(name, 0) >= 0 {
		return 0, invalid("LoadPCM: sound name %q holds a NUL byte", name)
	}
	if channels < 1 || channels > 32 {
		return 0, invalid("LoadPCM: invalid channels %d: expected 1...32", channels)
	}
	if len(samples) == 0 || len(samples)%channels != 0 {
		return 0, invalid("LoadPCM: %d samples is not a whole number (1 or more) of frames of %d channels",
			len(samples), channels)
	}
	frames := len(samples) / channels
	if frames > 1<<31-1 || rate > 1<<31-1 || rate < 0 {
		return 0, invalid("LoadPCM: %d frames at %d Hz is out of range", frames, rate)
	}
	format := SampleFloat32
	var zero S
	if unsafe.Sizeof(zero) == 2 {
		format = SampleInt16
	}
	cName := C.CString(name)
	defer C.free(unsafe.Pointer(cName))
	return e.do(func(raw *C.ss_engine) C.int {
		return C.ss_load_pcm(raw, cName, unsafe.Pointer(&samples[0]), C.ss_sample_format(format),
			C.int(frames), C.int(channels), C.int(rate))
	})
}

// LoadPCMFloat32 is LoadPCM for float samples, as a method.
func (e *Engine) LoadPCMFloat32(name string, samples []float32, channels, rate int) (int, error) {
	return LoadPCM(e, name, samples, channels, rate)
}

// LoadPCMInt16 is LoadPCM for 16-bit samples, as a method.
func (e *Engine) LoadPCMInt16(name string, samples []int16, channels, rate int) (int, error) {
	return LoadPCM(e, name, samples, channels, rate)
}
