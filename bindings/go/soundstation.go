// Package soundstation is game sound for Go games over libsoundstation 1.x: music, effects you can
// stop and change while they play, preloading and sample-exact offline rendering.
//
//	engine, err := soundstation.OpenWith(soundstation.OpenOptions{Output: soundstation.OutputAuto, Assets: "Assets"})
//	if err != nil { log.Fatal(err) }
//	defer engine.Close()
//	engine.Preload(ctx, nil)                 // every sound of the catalogue, before the game loop
//	reward, _ := engine.SoundID("reward")
//	engine.Music("main", 0)
//	engine.Play(reward, 1, 1, -0.5)          // volume, pitch, pan
//	opts := soundstation.DefaultPlayOptions()
//	opts.Loops = soundstation.LoopsForever
//	hum, _ := engine.PlayVoice(reward, &opts) // a handle to this one play
//	hum.Stop(0.5)
//
// Failures: every call that can fail returns an *Error carrying the library's message, which names
// the value at fault, in this package's names (Engine.Play, never the C function's). Each code has a
// sentinel: errors.Is(err, soundstation.ErrUnknownName). Nothing panics on bad input.
//
// Goroutines: an Engine may be used from any goroutine, several at once; no method waits except
// Open, OpenWith, Preload, LoadFile, LoadMusicFile (they read and decode files) and Render. Render is
// one at a time per engine. Close refuses (with an error) while a Preload or Render runs.
//
// It links the installed library through pkg-config (the libsoundstation-dev package, or `make
// install-lib` with PKG_CONFIG_PATH pointing at PREFIX/lib/pkgconfig).
package soundstation

/*
#cgo pkg-config: soundstation
#include <soundstation.h>
#include <stdlib.h>
#include <stdint.h>

extern void goPreloadProgress(double fraction, void *user);
*/
import "C"

import (
	"context"
	"fmt"
	"runtime"
	"runtime/cgo"
	"strings"
	"sync"
	"unsafe"
)

// Code is the kind of an Error: the C library's SS_ERR_* codes (and SS_REFUSED as ErrDropped).
// Each Code is itself an error, the sentinel errors.Is compares an *Error with.
type Code int

// The codes, each a sentinel: errors.Is(err, ErrUnknownName).
const (
	ErrInvalidArgument Code = C.SS_ERR_INVALID_ARGUMENT // a NaN, an out-of-range number, a malformed string
	ErrUnknownName     Code = C.SS_ERR_UNKNOWN_NAME     // no sound, marker, preset or catalogue entry has that name or id
	ErrNotLoaded       Code = C.SS_ERR_NOT_LOADED       // the sound is known but was not loaded: Preload first
	ErrDevice          Code = C.SS_ERR_DEVICE           // the output device could not be opened, or OpenAL refused something
	ErrCatalogue       Code = C.SS_ERR_CATALOGUE        // catalogue.json is missing or wrong
	ErrDecode          Code = C.SS_ERR_DECODE           // a sound file is missing or does not decode
	ErrNotOffline      Code = C.SS_ERR_NOT_OFFLINE      // the call needs an offline engine
	ErrClosed          Code = C.SS_ERR_CLOSED           // the engine was closed
	ErrCancelled       Code = C.SS_ERR_CANCELLED        // Preload was cancelled (its context, or CancelPreload)
	// ErrDropped: Play, PlayAt, PlayPosition or PlayVoice found the engine thousands of triggers
	// behind and it dropped this one (the C SS_REFUSED: not a failure of the call itself).
	ErrDropped Code = C.SS_REFUSED
)

// okCode is C's SS_OK, the success every call checks for.
const okCode = C.SS_OK

// Error is the code's constant name, for logs: "SS_ERR_UNKNOWN_NAME".
func (c Code) Error() string { return C.GoString(C.ss_result_name(C.int(c))) }

// Error is a failed call: its Code and a message naming the value at fault.
type Error struct {
	Code    Code
	Message string
	cause   error // the context's error when a Preload was cancelled by its context
}

func (e *Error) Error() string { return e.Message }

// Is makes errors.Is(err, ErrUnknownName) true for an *Error with that Code.
func (e *Error) Is(target error) bool {
	code, ok := target.(Code)
	return ok && code == e.Code
}

// Unwrap is the context's error (context.Canceled, context.DeadlineExceeded) of a Preload its
// context stopped, else nil.
func (e *Error) Unwrap() error { return e.cause }

// goNames gives the package's name for each C function, for messages: a Go game has no ss_play.
var goNames = map[string]string{
	"ss_open_options_init": "OpenOptions", "ss_open_with": "OpenWith", "ss_open": "Open",
	"ss_close": "Engine.Close", "ss_preload": "Engine.Preload", "ss_cancel_preload": "Engine.CancelPreload",
	"ss_load_file": "Engine.LoadFile", "ss_load_music_file": "Engine.LoadMusicFile",
	"ss_sound_id": "Engine.SoundID", "ss_play": "Engine.Play", "ss_play_at": "Engine.PlayAt",
	"ss_play_options_init": "DefaultPlayOptions", "ss_play_voice": "Engine.PlayVoice",
	"ss_voice_stop": "Voice.Stop", "ss_voice_set_volume": "Voice.SetVolume", "ss_voice_set_pitch": "Voice.SetPitch",
	"ss_voice_set_pan": "Voice.SetPan", "ss_voice_pause": "Voice.Pause", "ss_voice_resume": "Voice.Resume",
	"ss_voice_is_playing": "Voice.IsPlaying", "ss_stop_effects": "Engine.StopEffects", "ss_music": "Engine.Music",
	"ss_music_options_init": "DefaultMusicOptions", "ss_music_with": "Engine.MusicWith",
	"ss_music_position": "Engine.MusicPosition", "ss_music_intensity": "Engine.MusicIntensity",
	"ss_pause_music": "Engine.PauseMusic", "ss_resume_music": "Engine.ResumeMusic", "ss_stop_music": "Engine.StopMusic",
	"ss_set_volume": "Engine.SetVolume", "ss_pause_all": "Engine.PauseAll", "ss_resume_all": "Engine.ResumeAll",
	"ss_play_position": "Engine.PlayPosition", "ss_set_listener": "Engine.SetListener", "ss_set_grid": "Engine.SetGrid",
	"ss_set_filter": "Engine.SetFilter", "ss_set_reverb": "Engine.SetReverb", "ss_render": "Engine.Render",
	"ss_poll_event": "Engine.PollEvent", "ss_time": "Engine.Time", "ss_sample_rate": "Engine.SampleRate",
	"ss_output": "Engine.Output",
	"ss_load_memory": "Engine.LoadMemory", "ss_load_pcm": "LoadPCM",
	"ss_stream_open": "Engine.OpenStream", "ss_stream_write": "Stream.Write", "ss_stream_close": "Stream.Close",
}

// goTerms is message with every C function name replaced by the package's.
func goTerms(message string) string {
	var out strings.Builder
	for {
		at := strings.Index(message, "ss_")
		if at < 0 {
			out.WriteString(message)
			return out.String()
		}
		end := at + 3
		for end < len(message) && (message[end] == '_' || message[end] >= 'a' && message[end] <= 'z') {
			end++
		}
		word := message[at:end]
		out.WriteString(message[:at])
		before := byte(' ')
		if at > 0 {
			before = message[at-1]
		}
		if name, ok := goNames[word]; ok && !(before == '_' || before >= 'a' && before <= 'z' || before >= 'A' && before <= 'Z') {
			out.WriteString(name)
		} else {
			out.WriteString(word)
		}
		message = message[end:]
	}
}

// call runs one C call and, when it fails, reads its message on the same OS thread (the C library
// keeps the message per thread; a goroutine may otherwise move between the two calls).
func call(f func() C.int) (int, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	code := f()
	if code < 0 {
		return int(code), &Error{Code: Code(code), Message: goTerms(C.GoString(C.ss_last_error()))}
	}
	return int(code), nil
}

func invalid(format string, args ...any) error {
	return &Error{Code: ErrInvalidArgument, Message: fmt.Sprintf(format, args...)}
}

// OutputKind is where an engine's sound goes (OpenOptions.Output).
type OutputKind int

// The output kinds.
const (
	OutputAuto    OutputKind = C.SS_OUTPUT_AUTO    // the default device, or silent output when there is none
	OutputDevice  OutputKind = C.SS_OUTPUT_DEVICE  // a playback device: OpenOptions.Device, or "" for the default
	OutputSilent  OutputKind = C.SS_OUTPUT_SILENT  // mixes in real time and discards the sound
	OutputOffline OutputKind = C.SS_OUTPUT_OFFLINE // stereo at OpenOptions.SampleRate; nothing plays until Render
)

// Latency is how short a device's mixing periods are (OpenOptions.Latency).
type Latency int

// The latencies.
const (
	LatencyNormal Latency = C.SS_LATENCY_NORMAL // 20 ms periods: the least CPU
	LatencyLow    Latency = C.SS_LATENCY_LOW    // about 2.5 ms periods on PulseAudio: a hit is heard sooner
)

// OpenOptions says how OpenWith opens an engine; the zero value opens OutputAuto with no catalogue.
type OpenOptions struct {
	Output     OutputKind
	Device     string  // OutputDevice: a name `soundstation devices` lists, or "" for the default device
	SampleRate int     // OutputOffline: Hz, 8000...192000; 0 for 48000
	Latency    Latency // devices only
	Assets     string  // the folder holding catalogue.json, or "" for sounds from LoadFile alone
}

// Engine is an open engine: its output, its catalogue and the sounds loaded from it.
type Engine struct {
	raw    *C.ss_engine
	mu     sync.Mutex
	closed bool
	busy   map[string]int // Preload and Render calls running, which Close must not cut short
}

func newEngine(raw *C.ss_engine) *Engine {
	e := &Engine{raw: raw, busy: map[string]int{}}
	// A safety net for an Engine dropped without Close: its device and threads are let go of when
	// the collector finds it (Close says when; a game should call it).
	runtime.SetFinalizer(e, func(e *Engine) { _ = e.Close() })
	return e
}

// OpenWith opens an engine as options say and reads its catalogue; it waits while the device opens
// and the catalogue is read.
func OpenWith(options OpenOptions) (*Engine, error) {
	var raw C.ss_open_options
	C.ss_open_options_init(&raw, C.size_t(unsafe.Sizeof(raw)))
	raw.output = C.int32_t(options.Output)
	if options.Device != "" {
		raw.device = C.CString(options.Device)
		defer C.free(unsafe.Pointer(raw.device))
	}
	if options.SampleRate != 0 {
		raw.sample_rate = C.int32_t(options.SampleRate)
	}
	raw.latency = C.int32_t(options.Latency)
	if options.Assets != "" {
		raw.assets_dir = C.CString(options.Assets)
		defer C.free(unsafe.Pointer(raw.assets_dir))
	}
	var engine *C.ss_engine
	if _, err := call(func() C.int { return C.ss_open_with(&engine, &raw) }); err != nil {
		return nil, err
	}
	return newEngine(engine), nil
}

// Open opens an engine from an output spelled as a string, as a command line or config file gives
// it: "auto", "device", "device:NAME", "silent", "offline:RATE". assets: the folder holding
// catalogue.json, or "" for none. It waits while the device opens.
func Open(output, assets string) (*Engine, error) {
	cOutput := C.CString(output)
	defer C.free(unsafe.Pointer(cOutput))
	var cAssets *C.char
	if assets != "" {
		cAssets = C.CString(assets)
		defer C.free(unsafe.Pointer(cAssets))
	}
	var raw *C.ss_engine
	if _, err := call(func() C.int { return C.ss_open(&raw, cOutput, cAssets) }); err != nil {
		return nil, err
	}
	return newEngine(raw), nil
}

// Close stops every sound, frees the engine's sounds and closes its output; later calls return
// ErrClosed. It refuses, naming the call, while a Preload or Render runs on another goroutine
// (CancelPreload, or wait for it), and a second Close returns ErrClosed.
func (e *Engine) Close() error {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return &Error{Code: ErrClosed, Message: "Engine.Close: the engine is already closed"}
	}
	for name, count := range e.busy {
		if count > 0 {
			e.mu.Unlock()
			return &Error{Code: ErrInvalidArgument, Message: fmt.Sprintf(
				"Engine.Close: Engine.%s is running on another goroutine; close after it returns", name)}
		}
	}
	e.closed = true
	e.mu.Unlock()
	runtime.SetFinalizer(e, nil)
	C.ss_close(e.raw)
	return nil
}

// enter marks a Preload or Render as running, so Close waits for none of them; it fails when
// the engine is closed.
func (e *Engine) enter(name string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return &Error{Code: ErrClosed, Message: "Engine." + name + ": the engine is closed: open a new one"}
	}
	e.busy[name]++
	return nil
}

func (e *Engine) leave(name string) {
	e.mu.Lock()
	e.busy[name]--
	e.mu.Unlock()
}

// do runs one call on the engine's handle, keeping the Engine alive through it (so that its
// finalizer cannot close it mid-call).
func (e *Engine) do(f func(raw *C.ss_engine) C.int) (int, error) {
	defer runtime.KeepAlive(e)
	return call(func() C.int { return f(e.raw) })
}

func (e *Engine) done(f func(raw *C.ss_engine) C.int) error {
	_, err := e.do(f)
	return err
}

// Output says where the sound goes, as opened: "device:NAME", "silent" (also when OutputAuto found
// no device: an EventNotice says why), "remote" or "offline:RATE".
func (e *Engine) Output() string {
	defer runtime.KeepAlive(e)
	return C.GoString(C.ss_output(e.raw))
}

//export goPreloadProgress
func goPreloadProgress(fraction C.double, user unsafe.Pointer) {
	h := *(*cgo.Handle)(user)
	if progress, ok := h.Value().(func(float64)); ok && progress != nil {
		progress(float64(fraction))
	}
}

// Preload decodes sounds of the catalogue (nil: all of them) on all cores and uploads them, so that
// playing them never waits. It waits until done, or until ctx is done (then it returns an error
// that is ErrCancelled and ctx.Err(), and what it had loaded is let go of). A sound that fails is
// named in the error (ErrDecode), and the others are loaded anyway.
func (e *Engine) Preload(ctx context.Context, names []string) error {
	return e.PreloadProgress(ctx, names, nil)
}

// PreloadProgress is Preload, calling progress on this goroutine after each sound with the fraction
// done (0 < fraction <= 1): a loading bar.
func (e *Engine) PreloadProgress(ctx context.Context, names []string, progress func(fraction float64)) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if err := ctx.Err(); err != nil {
		return &Error{Code: ErrCancelled, Message: "Engine.Preload: cancelled before it began: " + err.Error(), cause: err}
	}
	if err := e.enter("Preload"); err != nil {
		return err
	}
	defer e.leave("Preload")
	var list **C.char
	if names != nil {
		block := C.malloc(C.size_t(len(names)+1) * C.size_t(unsafe.Sizeof(uintptr(0))))
		defer C.free(block)
		pointers := unsafe.Slice((**C.char)(block), len(names)+1)
		for i, name := range names {
			pointers[i] = C.CString(name)
			defer C.free(unsafe.Pointer(pointers[i]))
		}
		list = (**C.char)(block)
	}
	var callback C.ss_progress_fn
	var user unsafe.Pointer
	if progress != nil {
		// The handle travels through C in C memory (a Go pointer may not be kept by C).
		h := cgo.NewHandle(progress)
		defer h.Delete()
		user = C.malloc(C.size_t(unsafe.Sizeof(h)))
		defer C.free(user)
		*(*cgo.Handle)(user) = h
		callback = C.ss_progress_fn(C.goPreloadProgress)
	}
	// A watcher cancels the C preload when ctx is done; it ends with the call.
	finished := make(chan struct{})
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		select {
		case <-ctx.Done():
			C.ss_cancel_preload(e.raw)
		case <-finished:
		}
	}()
	_, err := e.do(func(raw *C.ss_engine) C.int { return C.ss_preload(raw, list, C.int(len(names)), callback, user) })
	close(finished)
	<-watched
	if failure, ok := err.(*Error); ok && failure.Code == ErrCancelled && ctx.Err() != nil {
		failure.cause = ctx.Err()
	}
	return err
}

// CancelPreload stops every Preload running on this engine (each returns ErrCancelled within about
// 20 ms); cancelling Preload's context does the same.
func (e *Engine) CancelPreload() error {
	return e.done(func(raw *C.ss_engine) C.int { return C.ss_cancel_preload(raw) })
}

// LoadFile decodes one file (any format the engine reads) into an effect called name, with no
// catalogue entry, and returns its id; it waits while decoding.
func (e *Engine) LoadFile(name, path string) (int, error) {
	cName, cPath := C.CString(name), C.CString(path)
	defer C.free(unsafe.Pointer(cName))
	defer C.free(unsafe.Pointer(cPath))
	return e.do(func(raw *C.ss_engine) C.int { return C.ss_load_file(raw, cName, cPath) })
}

// LoadMusicFile makes a file a music track called name, streamed while it plays, with no catalogue
// entry: Music then plays it by that name (looping unless told otherwise; no tempo).
func (e *Engine) LoadMusicFile(name, path string) (int, error) {
	cName, cPath := C.CString(name), C.CString(path)
	defer C.free(unsafe.Pointer(cName))
	defer C.free(unsafe.Pointer(cPath))
	return e.do(func(raw *C.ss_engine) C.int { return C.ss_load_music_file(raw, cName, cPath) })
}

// SoundID is the id of a loaded sound (0, 1, 2... in load order); look ids up once, before the game
// loop. An unknown or unloaded name is an error naming it.
func (e *Engine) SoundID(name string) (int, error) {
	cName := C.CString(name)
	defer C.free(unsafe.Pointer(cName))
	return e.do(func(raw *C.ss_engine) C.int { return C.ss_sound_id(raw, cName) })
}

// played turns a play's result into nil (handed to the mixer) or an error (ErrDropped included).
func played(code int, err error) error {
	switch {
	case err != nil:
		return err
	case code == okCode:
		return nil
	case code == int(ErrDropped):
		return &Error{Code: ErrDropped, Message: "the engine has fallen 4096 triggers behind; this one was dropped"}
	}
	return &Error{Code: Code(code), Message: fmt.Sprintf("an unknown result %d from the library", code)}
}

// Play plays a loaded sound now, once: volume multiplies the catalogue's (0...16), pitch is the
// speed (0.0625...16), pan -1 (left) ... 1 (right). It never waits. To stop or change it while it
// plays, use PlayVoice.
func (e *Engine) Play(id int, volume, pitch, pan float32) error {
	return played(e.do(func(raw *C.ss_engine) C.int {
		return C.ss_play(raw, C.int(id), C.float(volume), C.float(pitch), C.float(pan))
	}))
}

// PlayAt plays a loaded sound at seconds on the engine clock (offline: at frame round(seconds *
// rate), exactly), at pitch 1. It never waits.
func (e *Engine) PlayAt(id int, seconds float64, volume, pan float32) error {
	return played(e.do(func(raw *C.ss_engine) C.int {
		return C.ss_play_at(raw, C.int(id), C.double(seconds), C.float(volume), C.float(pan))
	}))
}

// PlayPosition plays a loaded sound now at (x, y) in the game's units: its pan and loudness come
// from where it is against the listener (SetListener) by the layout (SetGrid).
func (e *Engine) PlayPosition(id int, x, y, volume, pitch float32) error {
	return played(e.do(func(raw *C.ss_engine) C.int {
		return C.ss_play_position(raw, C.int(id), C.float(x), C.float(y), C.float(volume), C.float(pitch))
	}))
}

// Bus is a mixing bus: every sound plays on one; a bus's volume, filter and reverb apply to all of
// its sounds. BusMaster scales every bus.
type Bus int

// The buses.
const (
	BusDefault Bus = C.SS_BUS_DEFAULT // PlayOptions.Bus only: the sound's own bus
	BusMaster  Bus = C.SS_BUS_MASTER
	BusMusic   Bus = C.SS_BUS_MUSIC
	BusEffects Bus = C.SS_BUS_EFFECTS
	BusVoice   Bus = C.SS_BUS_VOICE
)

// Loop counts for PlayOptions.Loops and MusicOptions.Loops: a count N >= 0 plays N + 1 times.
const (
	LoopsForever = int(C.SS_LOOPS_FOREVER) // until stopped
	LoopsDefault = int(C.SS_LOOPS_DEFAULT) // as the catalogue entry says
)

// PlayOptions says how PlayVoice plays a sound; DefaultPlayOptions gives the library's defaults.
type PlayOptions struct {
	Volume    float32 // multiplies the catalogue's volume, 0...16
	Pitch     float32 // speed, 0.0625...16
	Pan       float32 // -1 left ... 1 right
	Bus       Bus     // BusDefault: the sound's own
	Loops     int     // N repeats (0...1000), LoopsForever or LoopsDefault
	StartTime float64 // seconds on the engine clock, or negative for now
	FadeIn    float64 // seconds, 0...3600
	Priority  int     // 0...255, or -1 for the sound's own
	// PitchShift is semitones (-24...24) the pitch moves without the speed changing; 0 for none.
	PitchShift float64
}

// DefaultPlayOptions is now, volume 1, pitch 1, centred, the sound's own bus, loops and priority.
func DefaultPlayOptions() PlayOptions {
	var raw C.ss_play_options
	C.ss_play_options_init(&raw, C.size_t(unsafe.Sizeof(raw)))
	return PlayOptions{
		Volume: float32(raw.volume), Pitch: float32(raw.pitch), Pan: float32(raw.pan), Bus: Bus(raw.bus),
		Loops: int(raw.loops), StartTime: float64(raw.start_time), FadeIn: float64(raw.fade_in_seconds),
		Priority: int(raw.priority),
	}
}

// Voice is one play of a sound, from PlayVoice: stop it, fade it, pause it or change its volume,
// pitch or pan while it plays. A voice that has ended stays valid: its calls do nothing and return
// nil, and IsPlaying answers false.
type Voice struct {
	engine *Engine
	id     C.ss_voice
}

// PlayVoice plays a loaded effect as options say (nil: DefaultPlayOptions) and returns its Voice.
// It never waits. ErrDropped when the engine is thousands of triggers behind; a start the instance
// limit or the voice pool refuses comes later as EventRefused naming the voice.
func (e *Engine) PlayVoice(id int, options *PlayOptions) (*Voice, error) {
	if options == nil {
		defaults := DefaultPlayOptions()
		options = &defaults
	}
	var raw C.ss_play_options
	C.ss_play_options_init(&raw, C.size_t(unsafe.Sizeof(raw)))
	raw.volume, raw.pitch, raw.pan = C.float(options.Volume), C.float(options.Pitch), C.float(options.Pan)
	raw.bus, raw.loops, raw.priority = C.int32_t(options.Bus), C.int32_t(options.Loops), C.int32_t(options.Priority)
	raw.start_time, raw.fade_in_seconds = C.double(options.StartTime), C.double(options.FadeIn)
	raw.pitch_shift = C.double(options.PitchShift)
	var voice C.ss_voice
	code, err := e.do(func(raw_ *C.ss_engine) C.int { return C.ss_play_voice(raw_, C.int(id), &raw, &voice) })
	if err := played(code, err); err != nil {
		if failure, ok := err.(*Error); ok && failure.Code == ErrDropped {
			failure.Message = "Engine.PlayVoice: " + failure.Message
		}
		return nil, err
	}
	return &Voice{engine: e, id: voice}, nil
}

// ID is the voice's number as events name it (Event.Voice): 1, 2, 3... per engine, never reused.
func (v *Voice) ID() uint64 { return uint64(v.id) }

// Stop stops the voice at once (0) or fading out over fade seconds.
func (v *Voice) Stop(fade float64) error {
	return v.engine.done(func(raw *C.ss_engine) C.int { return C.ss_voice_stop(raw, v.id, C.double(fade)) })
}

// SetVolume sets its volume (0...16), at once (0) or gliding over tween seconds.
func (v *Voice) SetVolume(volume float32, tween float64) error {
	return v.engine.done(func(raw *C.ss_engine) C.int {
		return C.ss_voice_set_volume(raw, v.id, C.float(volume), C.double(tween))
	})
}

// SetPitch sets its pitch (0.0625...16), at once (0) or gliding over tween seconds.
func (v *Voice) SetPitch(pitch float32, tween float64) error {
	return v.engine.done(func(raw *C.ss_engine) C.int {
		return C.ss_voice_set_pitch(raw, v.id, C.float(pitch), C.double(tween))
	})
}

// SetPan sets its pan (-1...1), at once (0) or gliding over tween seconds.
func (v *Voice) SetPan(pan float32, tween float64) error {
	return v.engine.done(func(raw *C.ss_engine) C.int {
		return C.ss_voice_set_pan(raw, v.id, C.float(pan), C.double(tween))
	})
}

// Pause holds the voice where it is.
func (v *Voice) Pause() error {
	return v.engine.done(func(raw *C.ss_engine) C.int { return C.ss_voice_pause(raw, v.id) })
}

// Resume plays it on from where Pause held it.
func (v *Voice) Resume() error {
	return v.engine.done(func(raw *C.ss_engine) C.int { return C.ss_voice_resume(raw, v.id) })
}

// IsPlaying says whether the voice still holds its sound: playing, paused, or waiting to start.
func (v *Voice) IsPlaying() (bool, error) {
	playing, err := v.engine.do(func(raw *C.ss_engine) C.int { return C.ss_voice_is_playing(raw, v.id) })
	return playing == 1, err
}

// StopEffects stops every effect (the music goes on), at once (0) or fading over fade seconds.
func (e *Engine) StopEffects(fade float64) error {
	return e.done(func(raw *C.ss_engine) C.int { return C.ss_stop_effects(raw, C.double(fade)) })
}

// Music switches the music to the preloaded track name (or a LoadMusicFile track), cutting (0) or
// crossfading over crossfade seconds. It never waits.
func (e *Engine) Music(name string, crossfade float64) error {
	cName := C.CString(name)
	defer C.free(unsafe.Pointer(cName))
	return e.done(func(raw *C.ss_engine) C.int { return C.ss_music(raw, cName, C.double(crossfade)) })
}

// MusicPoint is where on the playing track's grid a switch lands (MusicOptions.Point).
type MusicPoint int

// The points.
const (
	MusicNow    MusicPoint = C.SS_MUSIC_NOW    // at once
	MusicBeat   MusicPoint = C.SS_MUSIC_BEAT   // the next beat
	MusicBar    MusicPoint = C.SS_MUSIC_BAR    // the next bar
	MusicBars   MusicPoint = C.SS_MUSIC_BARS   // the next bar whose count is a multiple of MusicOptions.Bars
	MusicMarker MusicPoint = C.SS_MUSIC_MARKER // the track's next pass over MusicOptions.Marker
)

// MusicOptions says how MusicWith switches; DefaultMusicOptions gives the library's defaults.
type MusicOptions struct {
	Point     MusicPoint
	Crossfade float64 // seconds: 0 cuts
	Bars      int     // MusicBars: N >= 1
	Loops     int     // N >= 0 (plays N + 1 times, then the music stops), LoopsForever or LoopsDefault
	Marker    string  // MusicMarker: the marker's name
}

// DefaultMusicOptions is now, a cut, the catalogue's looping.
func DefaultMusicOptions() MusicOptions {
	var raw C.ss_music_options
	C.ss_music_options_init(&raw, C.size_t(unsafe.Sizeof(raw)))
	return MusicOptions{Point: MusicPoint(raw.point), Crossfade: float64(raw.crossfade_seconds),
		Bars: int(raw.bars), Loops: int(raw.loops)}
}

// MusicWith switches the music to name as options say (nil: DefaultMusicOptions): on the playing
// track's grid, with a crossfade, a loop count. It never waits.
func (e *Engine) MusicWith(name string, options *MusicOptions) error {
	if options == nil {
		defaults := DefaultMusicOptions()
		options = &defaults
	}
	cName := C.CString(name)
	defer C.free(unsafe.Pointer(cName))
	var raw C.ss_music_options
	C.ss_music_options_init(&raw, C.size_t(unsafe.Sizeof(raw)))
	raw.point, raw.bars, raw.loops = C.int32_t(options.Point), C.int32_t(options.Bars), C.int32_t(options.Loops)
	raw.crossfade_seconds = C.double(options.Crossfade)
	if options.Marker != "" {
		raw.marker = C.CString(options.Marker)
		defer C.free(unsafe.Pointer(raw.marker))
	}
	return e.done(func(engine *C.ss_engine) C.int { return C.ss_music_with(engine, cName, &raw) })
}

// MusicPosition is where the playing music is in its bars.
type MusicPosition struct {
	Bar      int     // from 1 at the track's first downbeat, counting on through loops
	Beat     int     // the beat in the bar, from 1
	Fraction float64 // how far into the beat, 0 ... <1
}

// MusicPosition says where the playing music is now; ok is false when no music with a tempo plays.
func (e *Engine) MusicPosition() (position MusicPosition, ok bool, err error) {
	var raw C.ss_musical_position
	filled, err := e.do(func(engine *C.ss_engine) C.int {
		return C.ss_music_position(engine, &raw, C.size_t(unsafe.Sizeof(raw)))
	})
	if err != nil || filled != 1 {
		return MusicPosition{}, false, err
	}
	return MusicPosition{Bar: int(raw.bar), Beat: int(raw.beat), Fraction: float64(raw.fraction)}, true, nil
}

// MusicIntensity sets the intensity (0...1) of layered music, at once (0) or gliding over seconds.
func (e *Engine) MusicIntensity(intensity, seconds float64) error {
	return e.done(func(raw *C.ss_engine) C.int {
		return C.ss_music_intensity(raw, C.double(intensity), C.double(seconds))
	})
}

// PauseMusic pauses the music alone where it is (effects play on).
func (e *Engine) PauseMusic() error {
	return e.done(func(raw *C.ss_engine) C.int { return C.ss_pause_music(raw) })
}

// ResumeMusic resumes music paused by PauseMusic from the same place.
func (e *Engine) ResumeMusic() error {
	return e.done(func(raw *C.ss_engine) C.int { return C.ss_resume_music(raw) })
}

// StopMusic stops the music at once (0) or fading out over fade seconds.
func (e *Engine) StopMusic(fade float64) error {
	return e.done(func(raw *C.ss_engine) C.int { return C.ss_stop_music(raw, C.double(fade)) })
}

// SetVolume sets a bus's volume (linear gain 0...16), gliding there over 20 ms.
func (e *Engine) SetVolume(bus Bus, gain float32) error {
	return e.done(func(raw *C.ss_engine) C.int { return C.ss_set_volume(raw, C.ss_bus(bus), C.float(gain)) })
}

// PauseAll pauses every sound (a game's pause screen).
func (e *Engine) PauseAll() error {
	return e.done(func(raw *C.ss_engine) C.int { return C.ss_pause_all(raw) })
}

// ResumeAll resumes what PauseAll paused.
func (e *Engine) ResumeAll() error {
	return e.done(func(raw *C.ss_engine) C.int { return C.ss_resume_all(raw) })
}

// SetListener moves the listener to (x, y), gliding over glide seconds (0 jumps).
func (e *Engine) SetListener(x, y float32, glide float64) error {
	return e.done(func(raw *C.ss_engine) C.int {
		return C.ss_set_listener(raw, C.float(x), C.float(y), C.double(glide))
	})
}

// SetGrid lays positions out for a grid of columns x rows cells (a terminal's).
func (e *Engine) SetGrid(columns, rows int) error {
	return e.done(func(raw *C.ss_engine) C.int { return C.ss_set_grid(raw, C.int(columns), C.int(rows)) })
}

// Filter is the kind of filter SetFilter sets: real cutoffs in hertz, 12 dB per octave.
type Filter int

// The filters.
const (
	FilterOff      Filter = C.SS_FILTER_OFF
	FilterLowpass  Filter = C.SS_FILTER_LOWPASS  // keeps what lies below the cutoff
	FilterHighpass Filter = C.SS_FILTER_HIGHPASS // keeps what lies above the cutoff
	FilterBandpass Filter = C.SS_FILTER_BANDPASS // keeps what lies around the cutoff
)

// SetFilter filters every sound on bus at hertz with resonance q (0.7071 is flat), or none
// (FilterOff); the cutoff glides over glide seconds.
func (e *Engine) SetFilter(bus Bus, filter Filter, hertz, q float32, glide float64) error {
	return e.done(func(raw *C.ss_engine) C.int {
		return C.ss_set_filter(raw, C.ss_bus(bus), C.ss_filter_type(filter), C.float(hertz), C.float(q), C.double(glide))
	})
}

// SetReverb gives bus a reverb from OpenAL's EFX presets ("cave", "hall", "concert-hall", ...), or
// none for "" or "off".
func (e *Engine) SetReverb(bus Bus, preset string) error {
	var cPreset *C.char
	if preset != "" {
		cPreset = C.CString(preset)
		defer C.free(unsafe.Pointer(cPreset))
	}
	return e.done(func(raw *C.ss_engine) C.int { return C.ss_set_reverb(raw, C.ss_bus(bus), cPreset) })
}

// Render mixes the next frames of an offline engine into buf (interleaved stereo: left, right,
// left...; an even length) and returns the frames written. It takes as long as mixing.
func (e *Engine) Render(buf []float32) (int, error) {
	if len(buf)%2 != 0 {
		return 0, invalid("Engine.Render: a buffer of %d samples; interleaved stereo needs an even count", len(buf))
	}
	if err := e.enter("Render"); err != nil {
		return 0, err
	}
	defer e.leave("Render")
	if len(buf) == 0 {
		return e.do(func(raw *C.ss_engine) C.int { return C.ss_render(raw, nil, 0) })
	}
	return e.do(func(raw *C.ss_engine) C.int {
		return C.ss_render(raw, (*C.float)(unsafe.Pointer(&buf[0])), C.int(len(buf)/2))
	})
}

// EventType is what an Event reports.
type EventType int

// The event types.
const (
	EventStarted        EventType = C.SS_EVENT_STARTED         // a voice began to play the sound
	EventFinished       EventType = C.SS_EVENT_FINISHED        // a voice is done with the sound; Reason says why
	EventRefused        EventType = C.SS_EVENT_REFUSED         // the sound could not get a voice
	EventDeviceLost     EventType = C.SS_EVENT_DEVICE_LOST     // the device went away; Text holds the reason
	EventDeviceRestored EventType = C.SS_EVENT_DEVICE_RESTORED // the device is back; Name holds its name
	EventNotice         EventType = C.SS_EVENT_NOTICE          // a line to show or log, in Text
	EventOverflow       EventType = C.SS_EVENT_OVERFLOW        // events were lost: Dropped of them
	EventCoalesced      EventType = C.SS_EVENT_COALESCED       // a trigger folded into a voice just started
)

// String names the type as the Python package does: "started", "finished", "refused",
// "device-lost", "device-restored", "notice", "overflow", "coalesced".
func (t EventType) String() string {
	switch t {
	case EventStarted:
		return "started"
	case EventFinished:
		return "finished"
	case EventRefused:
		return "refused"
	case EventDeviceLost:
		return "device-lost"
	case EventDeviceRestored:
		return "device-restored"
	case EventNotice:
		return "notice"
	case EventOverflow:
		return "overflow"
	case EventCoalesced:
		return "coalesced"
	}
	return fmt.Sprintf("event-%d", int(t))
}

// FinishReason is why a voice finished (Event.Reason of an EventFinished).
type FinishReason int

// The reasons.
const (
	FinishEnded      FinishReason = C.SS_FINISH_ENDED       // it played to its end
	FinishStopped    FinishReason = C.SS_FINISH_STOPPED     // a stop ended it
	FinishStolen     FinishReason = C.SS_FINISH_STOLEN      // a sound that matters more took its voice
	FinishDeviceLost FinishReason = C.SS_FINISH_DEVICE_LOST // the device went away while it played
)

// String names the reason: "ended", "stopped", "stolen", "device-lost" ("" for none).
func (r FinishReason) String() string {
	switch r {
	case FinishEnded:
		return "ended"
	case FinishStopped:
		return "stopped"
	case FinishStolen:
		return "stolen"
	case FinishDeviceLost:
		return "device-lost"
	case 0:
		return ""
	}
	return fmt.Sprintf("reason-%d", int(r))
}

// Event is something that happened to a sound.
type Event struct {
	Type    EventType
	Sound   int          // the sound's id, or -1 (device events, notices, overflow)
	Voice   uint64       // the voice it concerns (Voice.ID), or 0
	Reason  FinishReason // EventFinished: why; else 0
	Dropped int          // EventOverflow: how many events were lost
	Time    float64      // seconds on the engine clock (frames rendered / rate when offline)
	Name    string       // the sound's name (or the device's, or the first 63 bytes of a reason)
	Text    string       // a notice's or device loss's whole line (up to 255 bytes); else Name
}

// fixedString is a C char array up to its NUL or its end (a cut line may lack its NUL).
func fixedString(chars []C.char) string {
	bytes := make([]byte, 0, len(chars))
	for _, c := range chars {
		if c == 0 {
			break
		}
		bytes = append(bytes, byte(c))
	}
	return string(bytes)
}

// PollEvent takes the oldest event not yet taken; ok is false when there is none.
func (e *Engine) PollEvent() (event Event, ok bool, err error) {
	var raw C.ss_event
	code, err := e.do(func(engine *C.ss_engine) C.int { return C.ss_poll_event(engine, &raw, C.size_t(unsafe.Sizeof(raw))) })
	if err != nil || code == 0 {
		return Event{}, false, err
	}
	event = Event{
		Type: EventType(raw._type), Sound: int(raw.sound_id), Voice: uint64(raw.voice), Time: float64(raw.time),
		Name: fixedString(raw.name[:]), Text: fixedString(raw.text[:]),
	}
	switch event.Type {
	case EventFinished:
		event.Reason = FinishReason(raw.reason)
	case EventOverflow:
		event.Dropped = int(raw.reason)
	}
	return event, true, nil
}

// Events takes every event not yet taken, oldest first: `for _, event := range engine.Events()`
// once per game frame. A closed engine has none.
func (e *Engine) Events() []Event {
	var events []Event
	for {
		event, ok, err := e.PollEvent()
		if !ok || err != nil {
			return events
		}
		events = append(events, event)
	}
}

// Time is the engine clock in seconds (offline: frames rendered / rate).
func (e *Engine) Time() (float64, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	defer runtime.KeepAlive(e)
	t := float64(C.ss_time(e.raw))
	if t < 0 {
		return 0, &Error{Code: Code(int(t)), Message: goTerms(C.GoString(C.ss_last_error()))}
	}
	return t, nil
}

// SampleRate is the output's rate in Hz.
func (e *Engine) SampleRate() (int, error) {
	return e.do(func(raw *C.ss_engine) C.int { return C.ss_sample_rate(raw) })
}

// LibraryVersion is the library's version: major * 10000 + minor * 100 + patch.
func LibraryVersion() int { return int(C.ss_version()) }

// APIVersion is the version of the header this package was built against (C.SS_API_VERSION); a
// library whose major differs lacks what this package calls.
const APIVersion = C.SS_API_VERSION
