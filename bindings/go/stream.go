package soundstation

/*
#include <soundstation.h>
*/
import "C"

import (
	"runtime"
	"sync"
	"unsafe"
)

// StreamOptions say how OpenStream plays a stream (ss_stream_options). The zero value is not the
// default: start from DefaultStreamOptions.
type StreamOptions struct {
	Bus         Bus     // BusEffects by default
	Volume      float32 // 0...16; 1
	Pan         float32 // -1 left ... 1 right; 0
	QueueFrames int     // the most frames the queue holds, 1...480000; 0 (default): half a second
}

// DefaultStreamOptions are the options ss_stream_options_init fills.
func DefaultStreamOptions() StreamOptions {
	var raw C.ss_stream_options
	C.ss_stream_options_init(&raw, C.size_t(unsafe.Sizeof(raw)))
	return StreamOptions{Bus: Bus(raw.bus), Volume: float32(raw.volume), Pan: float32(raw.pan),
		QueueFrames: int(raw.queue_frames)}
}

// Stream is PCM the game writes as it makes it (an emulator, a tracker, a synth), heard at once
// through one voice. Write never waits: what does not fit in the queue is refused and counted.
// Close stops it; a Stream may be used from any goroutine.
type Stream struct {
	mu       sync.RWMutex // Close against the other calls: a closed stream's handle is freed
	raw      *C.ss_stream
	channels int
	voice    *Voice
}

// OpenStream opens a stream of channels (1 or 2) interleaved float32 channels at rate Hz
// (8000...192000; resampled to the engine's), heard from its first frames until Close. nil options
// are the defaults.
func (e *Engine) OpenStream(channels, rate int, options *StreamOptions) (*Stream, error) {
	o := DefaultStreamOptions()
	if options != nil {
		o = *options
	}
	if channels != 1 && channels != 2 {
		return nil, invalid("Engine.OpenStream: invalid channels %d: a stream has 1 or 2 channels", channels)
	}
	if rate < 0 || rate > 1<<31-1 || o.QueueFrames < 0 || o.QueueFrames > 1<<31-1 {
		return nil, invalid("Engine.OpenStream: rate %d or queue frames %d out of range", rate, o.QueueFrames)
	}
	var raw C.ss_stream_options
	C.ss_stream_options_init(&raw, C.size_t(unsafe.Sizeof(raw)))
	raw.bus = C.int32_t(o.Bus)
	raw.volume = C.float(o.Volume)
	raw.pan = C.float(o.Pan)
	raw.queue_frames = C.int32_t(o.QueueFrames)
	var stream *C.ss_stream
	if _, err := e.do(func(engine *C.ss_engine) C.int {
		return C.ss_stream_open(engine, C.int(channels), C.int(rate), &raw, &stream)
	}); err != nil {
		return nil, err
	}
	s := &Stream{raw: stream, channels: channels, voice: &Voice{engine: e, id: C.ss_stream_voice(stream)}}
	runtime.SetFinalizer(s, func(s *Stream) { s.Close() })
	return s, nil
}

// Write copies whole interleaved frames into the queue and returns how many were taken (fewer when
// the queue is full: the rest are refused and counted). It never waits.
func (s *Stream) Write(interleaved []float32) (int, error) {
	if len(interleaved)%s.channels != 0 {
		return 0, invalid("Stream.Write: %d samples is not a whole number of frames of %d channels",
			len(interleaved), s.channels)
	}
	frames := len(interleaved) / s.channels
	if frames > 1<<31-1 {
		return 0, invalid("Stream.Write: %d frames is too many for one write", frames)
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.raw == nil {
		return 0, &Error{Code: ErrClosed, Message: "Stream.Write: the stream is closed: open another with Engine.OpenStream"}
	}
	if frames == 0 {
		return 0, nil
	}
	return call(func() C.int { return C.ss_stream_write(s.raw, (*C.float)(&interleaved[0]), C.int(frames)) })
}

func (s *Stream) count(f func(*C.ss_stream) C.int) int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.raw == nil {
		return 0
	}
	if n := int(f(s.raw)); n > 0 {
		return n
	}
	return 0
}

// Queued is the frames written and not yet heard.
func (s *Stream) Queued() int {
	return s.count(func(r *C.ss_stream) C.int { return C.ss_stream_queued(r) })
}

// Underruns is how often the voice ran out of frames after it had begun.
func (s *Stream) Underruns() int {
	return s.count(func(r *C.ss_stream) C.int { return C.ss_stream_underruns(r) })
}

// Refused is the frames Write refused because the queue was full.
func (s *Stream) Refused() int {
	return s.count(func(r *C.ss_stream) C.int { return C.ss_stream_refused(r) })
}

// Voice is the voice the stream plays through: set its volume or pan, pause it.
func (s *Stream) Voice() *Voice { return s.voice }

// Close stops the voice and frees the stream; closing twice does nothing.
func (s *Stream) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.raw != nil {
		C.ss_stream_close(s.raw)
		s.raw = nil
	}
	return nil
}
