package soundstation

/*
#include <soundstation.h>
#include <stdlib.h>
*/
import "C"

import (
	"encoding/json"
	"fmt"
	"strings"
	"unsafe"
)

// Synth renders an sfxr effect and makes it an effect called name on the effects bus, with no file
// and no catalogue entry, and returns its id; it waits while it renders (about a millisecond per
// 10 ms of sound). params is the catalogue's JSON form (`{"preset": "coin", "seed": 7}`, optionally
// with "mutate", "variation" and any sfxr slider such as "p_base_freq") or an sfxr parameter string
// as jsfxr and sfxr copy it (jsfxr's base58 share string, sfxr's comma-separated settings). The same
// parameters render the same samples in every language. Errors: ErrInvalidArgument for an empty
// name, one already in use, or parameters that do not read (the message names the value).
func (e *Engine) Synth(name, params string) (int, error) {
	if strings.IndexByte(name, 0) >= 0 || strings.IndexByte(params, 0) >= 0 {
		return -1, &Error{Code: ErrInvalidArgument, Message: fmt.Sprintf("synth name %q or params hold a NUL byte", name)}
	}
	cName, cParams := C.CString(name), C.CString(params)
	defer C.free(unsafe.Pointer(cName))
	defer C.free(unsafe.Pointer(cParams))
	return e.do(func(raw *C.ss_engine) C.int { return C.ss_synth(raw, cName, cParams) })
}

// SynthPreset is the catalogue's JSON form of an sfxr preset (coin, laser, explosion, powerup, hit,
// jump, blip, random) with a seed, for Synth: SynthPreset("laser", 3, 0.5) is a laser whose pitch
// strays by up to half a semitone at each play.
func SynthPreset(preset string, seed uint64, variation float64) string {
	text, _ := json.Marshal(map[string]any{"preset": preset, "seed": seed, "variation": variation})
	return string(text)
}
