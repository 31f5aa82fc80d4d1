package soundstation

/*
#include <stddef.h>
#include <soundstation.h>

// C-side helpers for the tests, which cannot use cgo themselves (a _test.go file cannot).
// The C compiler's sizes and offsets of the structs that cross the interface, for the layout test.
static size_t ss_layout(int i) {
    switch (i) {
    case 0: return sizeof(ss_event);
    case 1: return offsetof(ss_event, type);
    case 2: return offsetof(ss_event, sound_id);
    case 3: return offsetof(ss_event, reason);
    case 4: return offsetof(ss_event, time);
    case 5: return offsetof(ss_event, voice);
    case 6: return offsetof(ss_event, name);
    case 7: return offsetof(ss_event, text);
    case 8: return sizeof(ss_musical_position);
    case 9: return offsetof(ss_musical_position, fraction);
    case 10: return sizeof(ss_open_options);
    case 11: return offsetof(ss_open_options, device);
    case 12: return offsetof(ss_open_options, sample_rate);
    case 13: return offsetof(ss_open_options, latency);
    case 14: return offsetof(ss_open_options, assets_dir);
    case 15: return sizeof(ss_play_options);
    case 16: return offsetof(ss_play_options, bus);
    case 17: return offsetof(ss_play_options, loops);
    case 18: return offsetof(ss_play_options, start_time);
    case 19: return offsetof(ss_play_options, fade_in_seconds);
    case 20: return offsetof(ss_play_options, priority);
    case 21: return sizeof(ss_music_options);
    case 22: return offsetof(ss_music_options, crossfade_seconds);
    case 23: return offsetof(ss_music_options, bars);
    case 24: return offsetof(ss_music_options, loops);
    case 25: return offsetof(ss_music_options, marker);
    case 26: return offsetof(ss_play_options, pitch_shift);
    }
    return 0;
}
*/
import "C"

import "unsafe"

// layoutNames name the entries of cLayout and goLayout, in order.
var layoutNames = []string{
	"sizeof ss_event", "ss_event.type", "ss_event.sound_id", "ss_event.reason", "ss_event.time",
	"ss_event.voice", "ss_event.name", "ss_event.text",
	"sizeof ss_musical_position", "ss_musical_position.fraction",
	"sizeof ss_open_options", "ss_open_options.device", "ss_open_options.sample_rate",
	"ss_open_options.latency", "ss_open_options.assets_dir",
	"sizeof ss_play_options", "ss_play_options.bus", "ss_play_options.loops", "ss_play_options.start_time",
	"ss_play_options.fade_in_seconds", "ss_play_options.priority",
	"sizeof ss_music_options", "ss_music_options.crossfade_seconds", "ss_music_options.bars",
	"ss_music_options.loops", "ss_music_options.marker", "ss_play_options.pitch_shift",
}

// cLayout is what the C compiler says of each entry of layoutNames.
func cLayout() []uintptr {
	out := make([]uintptr, len(layoutNames))
	for i := range out {
		out[i] = uintptr(C.ss_layout(C.int(i)))
	}
	return out
}

// goLayout is what Go's view of the same structs (the ones this package fills) says.
func goLayout() []uintptr {
	var event C.ss_event
	var position C.ss_musical_position
	var open C.ss_open_options
	var play C.ss_play_options
	var music C.ss_music_options
	return []uintptr{
		unsafe.Sizeof(event), unsafe.Offsetof(event._type), unsafe.Offsetof(event.sound_id),
		unsafe.Offsetof(event.reason), unsafe.Offsetof(event.time), unsafe.Offsetof(event.voice),
		unsafe.Offsetof(event.name), unsafe.Offsetof(event.text),
		unsafe.Sizeof(position), unsafe.Offsetof(position.fraction),
		unsafe.Sizeof(open), unsafe.Offsetof(open.device), unsafe.Offsetof(open.sample_rate),
		unsafe.Offsetof(open.latency), unsafe.Offsetof(open.assets_dir),
		unsafe.Sizeof(play), unsafe.Offsetof(play.bus), unsafe.Offsetof(play.loops), unsafe.Offsetof(play.start_time),
		unsafe.Offsetof(play.fade_in_seconds), unsafe.Offsetof(play.priority),
		unsafe.Sizeof(music), unsafe.Offsetof(music.crossfade_seconds), unsafe.Offsetof(music.bars),
		unsafe.Offsetof(music.loops), unsafe.Offsetof(music.marker), unsafe.Offsetof(play.pitch_shift),
	}
}

// openUnreferenced opens a silent engine, drops every reference to it, and returns a probe that
// says whether its handle has been closed since (ss_close leaves the handle valid, answering
// SS_ERR_CLOSED): for the test of the finalizer.
func openUnreferenced() (closed func() bool, err error) {
	engine, err := OpenWith(OpenOptions{Output: OutputSilent})
	if err != nil {
		return nil, err
	}
	raw := engine.raw
	return func() bool { return C.ss_sample_rate(raw) == C.SS_ERR_CLOSED }, nil
}
