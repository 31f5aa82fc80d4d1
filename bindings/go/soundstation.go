// Package soundstation is game sound for Go games over libsoundstation: music, effects, preloading
// and offline rendering.
//
//	engine, err := soundstation.Open("auto", "Assets")
//	if err != nil { log.Fatal(err) }
//	defer engine.Close()
//	engine.Preload(nil)                      // every sound of the catalogue, before the game loop
//	reward, _ := engine.SoundID("reward")
//	engine.Music("main", 0)
//	engine.Play(reward, 1, 1, -0.5)          // volume, pitch, pan
//
// Failures: every call that can fail returns an *Error carrying the library's message, which names
// the value at fault; nothing panics on bad input.
//
// Goroutines: an Engine may be used from any goroutine, several at once; no method waits except
// Open, Preload and LoadFile (they read and decode files). Render is one at a time per engine. Close
// must not run while another goroutine is inside Preload or Render.
//
// It links the installed library through pkg-config (package libsoundstation-dev, or `make
// install-lib` with PKG_CONFIG_PATH pointing at PREFIX/lib/pkgconfig).
package soundstation

/*
#cgo pkg-config: soundstation
#include <soundstation.h>
#include <stdlib.h>
*/
import "C"

import (
	"errors"
	"fmt"
	"runtime"
	"unsafe"
)

// Code is the kind of an Error: the C library's SS_ERR_* codes.
type Code int

// The codes of Error.Code.
const (
	InvalidArgument Code = C.SS_ERR_INVALID_ARGUMENT // a NaN, an out-of-range number, a malformed string
	UnknownName     Code = C.SS_ERR_UNKNOWN_NAME     // no sound, bus or catalogue entry has that name or id
	NotLoaded       Code = C.SS_ERR_NOT_LOADED       // the sound is known but was not loaded: Preload first
	Device          Code = C.SS_ERR_DEVICE           // the output device could not be opened
	Catalogue       Code = C.SS_ERR_CATALOGUE        // catalogue.json is missing or wrong
	Decode          Code = C.SS_ERR_DECODE           // a sound file is missing or does not decode
	NotOffline      Code = C.SS_ERR_NOT_OFFLINE      // the call needs an engine opened with "offline:RATE"
	Closed          Code = C.SS_ERR_CLOSED           // the engine was closed
)

// Error is a failed call: its Code and the library's message, which names the value at fault.
type Error struct {
	Code    Code
	Message string
}

func (e *Error) Error() string { return e.Message }

// ErrDropped is what Play and PlayAt return when the engine is thousands of triggers behind and
// dropped this one (the C library's SS_REFUSED: not a failure of the call).
var ErrDropped = errors.New("soundstation: the engine is behind and dropped the trigger")

// Engine is an open engine: its output, its catalogue and the sounds loaded from it.
type Engine struct {
	raw    *C.ss_engine
	output string
}

// call runs one C call and, when it fails, reads its message on the same OS thread (the C library
// keeps the message per thread; a goroutine may otherwise move between the two calls).
func call(f func() C.int) (int, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	code := f()
	if code < 0 {
		return int(code), &Error{Code: Code(code), Message: C.GoString(C.ss_last_error())}
	}
	return int(code), nil
}

func invalid(format string, args ...any) error {
	return &Error{Code: InvalidArgument, Message: fmt.Sprintf(format, args...)}
}

// Open opens an engine and reads its catalogue; it may wait (device, files).
//
// output: "device", "device:NAME", "auto" (the device, or silent output when there is none),
// "silent" or "offline:RATE" (nothing plays until Render). assets: the folder holding
// catalogue.json, or "" for an engine whose sounds come from LoadFile.
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
	return &Engine{raw: raw, output: output}, nil
}

// Close stops every sound and closes the output; later calls return an Error with Code Closed, and a
// second Close does nothing.
func (e *Engine) Close() error {
	C.ss_close(e.raw)
	return nil
}

// Output is the output the engine was opened with, as given to Open.
func (e *Engine) Output() string { return e.output }

// Preload decodes sounds of the catalogue (nil: all of them) on all cores and uploads them, so that
// playing them never waits. It waits until done; a sound that fails is named in the error, and the
// others are loaded anyway.
func (e *Engine) Preload(names []string) error {
	if names == nil {
		_, err := call(func() C.int { return C.ss_preload(e.raw, nil, 0, nil, nil) })
		return err
	}
	list := C.malloc(C.size_t(len(names)+1) * C.size_t(unsafe.Sizeof(uintptr(0))))
	defer C.free(list)
	pointers := unsafe.Slice((**C.char)(list), len(names)+1)
	for i, name := range names {
		pointers[i] = C.CString(name)
		defer C.free(unsafe.Pointer(pointers[i]))
	}
	_, err := call(func() C.int { return C.ss_preload(e.raw, (**C.char)(list), C.int(len(names)), nil, nil) })
	return err
}

// LoadFile decodes one WAV or Ogg Vorbis file into a sound called name and returns its id; it waits
// while decoding.
func (e *Engine) LoadFile(name, path string) (int, error) {
	cName, cPath := C.CString(name), C.CString(path)
	defer C.free(unsafe.Pointer(cName))
	defer C.free(unsafe.Pointer(cPath))
	return call(func() C.int { return C.ss_load_file(e.raw, cName, cPath) })
}

// SoundID is the id of a loaded sound (0, 1, 2... in load order); look ids up once, before the game
// loop. An unknown or unloaded name is an error naming it.
func (e *Engine) SoundID(name string) (int, error) {
	cName := C.CString(name)
	defer C.free(unsafe.Pointer(cName))
	return call(func() C.int { return C.ss_sound_id(e.raw, cName) })
}

func played(code int, err error) error {
	if err != nil {
		return err
	}
	if code == C.SS_REFUSED {
		return ErrDropped
	}
	return nil
}

// Play plays a loaded sound now: volume multiplies the catalogue's (0...16), pitch is the speed
// (0.25...4), pan -1 (left) ... 1 (right). It never waits.
func (e *Engine) Play(id int, volume, pitch, pan float32) error {
	return played(call(func() C.int {
		return C.ss_play(e.raw, C.int(id), C.float(volume), C.float(pitch), C.float(pan))
	}))
}

// PlayAt plays a loaded sound at seconds on the engine clock (offline: at frame round(seconds *
// rate), exactly). It never waits.
func (e *Engine) PlayAt(id int, seconds float64, volume, pan float32) error {
	return played(call(func() C.int {
		return C.ss_play_at(e.raw, C.int(id), C.double(seconds), C.float(volume), C.float(pan))
	}))
}

// Music switches the music to the preloaded track name, cutting (0) or crossfading over crossfade
// seconds. It never waits.
func (e *Engine) Music(name string, crossfade float64) error {
	cName := C.CString(name)
	defer C.free(unsafe.Pointer(cName))
	_, err := call(func() C.int { return C.ss_music(e.raw, cName, C.double(crossfade)) })
	return err
}

// MusicAt switches the music on the playing track's grid: at is "now", "beat", "bar", "bars=N" or
// "marker=NAME". It never waits.
func (e *Engine) MusicAt(name string, crossfade float64, at string) error {
	cName, cAt := C.CString(name), C.CString(at)
	defer C.free(unsafe.Pointer(cName))
	defer C.free(unsafe.Pointer(cAt))
	_, err := call(func() C.int { return C.ss_music_at(e.raw, cName, C.double(crossfade), cAt) })
	return err
}

// StopMusic stops the music at once (0) or fading out over fade seconds.
func (e *Engine) StopMusic(fade float64) error {
	_, err := call(func() C.int { return C.ss_stop_music(e.raw, C.double(fade)) })
	return err
}

// SetVolume sets a bus's volume ("master", "music", "effects" or "voice"; linear gain 0...16),
// gliding there over 20 ms.
func (e *Engine) SetVolume(bus string, gain float32) error {
	cBus := C.CString(bus)
	defer C.free(unsafe.Pointer(cBus))
	_, err := call(func() C.int { return C.ss_set_volume(e.raw, cBus, C.float(gain)) })
	return err
}

// PauseAll pauses every sound (a game's pause screen).
func (e *Engine) PauseAll() error {
	_, err := call(func() C.int { return C.ss_pause_all(e.raw) })
	return err
}

// ResumeAll resumes what PauseAll paused.
func (e *Engine) ResumeAll() error {
	_, err := call(func() C.int { return C.ss_resume_all(e.raw) })
	return err
}

// Render mixes the next frames of an "offline:RATE" engine into buf (interleaved stereo: left,
// right, left...; an even length) and returns the frames written.
func (e *Engine) Render(buf []float32) (int, error) {
	if len(buf)%2 != 0 {
		return 0, invalid("buffer of %d samples: interleaved stereo needs an even count", len(buf))
	}
	if len(buf) == 0 {
		return call(func() C.int { return C.ss_render(e.raw, nil, 0) })
	}
	return call(func() C.int {
		return C.ss_render(e.raw, (*C.float)(unsafe.Pointer(&buf[0])), C.int(len(buf)/2))
	})
}

// EventType is what an Event reports.
type EventType int

// The types of Event.Type.
const (
	Started        EventType = C.SS_EVENT_STARTED         // a voice began to play the sound
	Finished       EventType = C.SS_EVENT_FINISHED        // a voice is done with the sound; Reason says why
	Refused        EventType = C.SS_EVENT_REFUSED         // the sound could not get a voice
	DeviceLost     EventType = C.SS_EVENT_DEVICE_LOST     // the device went away; Name holds the reason
	DeviceRestored EventType = C.SS_EVENT_DEVICE_RESTORED // the device is back; Name holds its name
)

// String names the type as the Python package does: "started", "finished", "refused",
// "device-lost", "device-restored".
func (t EventType) String() string {
	switch t {
	case Started:
		return "started"
	case Finished:
		return "finished"
	case Refused:
		return "refused"
	case DeviceLost:
		return "device-lost"
	case DeviceRestored:
		return "device-restored"
	}
	return fmt.Sprintf("event-%d", int(t))
}

// Event is something that happened to a sound.
type Event struct {
	Type   EventType
	Sound  int     // the sound's id, or -1 for device events
	Reason int     // SS_FINISH_* (1 ended, 2 stopped, 3 stolen, 4 device lost) for Finished, else 0
	Time   float64 // seconds on the engine clock (frames rendered / rate when offline)
	Name   string  // the sound's name (or the device or the reason)
}

// PollEvent takes the oldest event not yet taken; ok is false when there is none.
func (e *Engine) PollEvent() (event Event, ok bool, err error) {
	var raw C.ss_event
	code, err := call(func() C.int { return C.ss_poll_event(e.raw, &raw) })
	if err != nil || code == 0 {
		return Event{}, false, err
	}
	return Event{
		Type: EventType(raw._type), Sound: int(raw.sound_id), Reason: int(raw.reason),
		Time: float64(raw.time), Name: C.GoString(&raw.name[0]),
	}, true, nil
}

// Time is the engine clock in seconds (offline: frames rendered / rate).
func (e *Engine) Time() (float64, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t := float64(C.ss_time(e.raw))
	if t < 0 {
		return 0, &Error{Code: Code(int(t)), Message: C.GoString(C.ss_last_error())}
	}
	return t, nil
}

// SampleRate is the output's rate in Hz.
func (e *Engine) SampleRate() (int, error) {
	return call(func() C.int { return C.ss_sample_rate(e.raw) })
}

// LibraryVersion is the library's version: major * 10000 + minor * 100 + patch.
func LibraryVersion() int { return int(C.ss_version()) }
