//! Music speed without pitch.
use crate::{done, sys, Engine, Error};

impl Engine {
    /// Plays the music faster or slower without changing its pitch, at once (`tween_seconds` 0) or
    /// gliding linearly; tracks played later keep the speed. A layered track's stems stay aligned
    /// to the sample, and the grid (beats, bars, [`Engine::music_position`], switches on the next
    /// bar) follows the speed. Never waits.
    ///
    /// `speed`: 0.5...2, 1 as recorded; `tween_seconds`: 0...3600. Out of range is
    /// [`Error::InvalidArgument`] naming the value.
    pub fn set_music_speed(&self, speed: f64, tween_seconds: f64) -> Result<(), Error> {
        // SAFETY: plain values; the handle is valid while `self` lives.
        done(unsafe { sys::ss_set_music_speed(self.raw, speed, tween_seconds) })
    }
}
