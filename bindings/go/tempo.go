package soundstation

/*
#include <soundstation.h>
*/
import "C"

// SetMusicSpeed plays the music faster or slower without changing its pitch, at once (tweenSeconds
// 0) or gliding linearly; tracks played later keep the speed. A layered track's stems stay aligned
// to the sample, and the grid (beats, bars, MusicPosition, switches on the next bar) follows the
// speed. speed is 0.5...2 (1 as recorded), tweenSeconds 0...3600; out of range is ErrInvalidArgument
// naming the value. It never waits.
func (e *Engine) SetMusicSpeed(speed, tweenSeconds float64) error {
	return e.done(func(raw *C.ss_engine) C.int {
		return C.ss_set_music_speed(raw, C.double(speed), C.double(tweenSeconds))
	})
}
