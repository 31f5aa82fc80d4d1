//! Synthesised effects: sfxr's generator in the engine ([`Engine::synth`]).

use crate::{c_string, check, sys, Engine, Error, SoundId};

impl Engine {
    /// Renders an sfxr effect and makes it an effect called `name` on the effects bus, with no file
    /// and no catalogue entry. `params` is the catalogue's JSON form (`{"preset": "coin", "seed":
    /// 7}`, optionally with `"mutate"`, `"variation"` and any sfxr slider such as `"p_base_freq"`)
    /// or an sfxr parameter string as jsfxr and sfxr copy it (jsfxr's base58 share string, sfxr's
    /// comma-separated settings). The same parameters render the same samples in every language.
    /// Waits while it renders (about a millisecond per 10 ms of sound).
    ///
    /// # Errors
    /// [`crate::ErrorCode::InvalidArgument`] for an empty name, one already in use, or parameters
    /// that do not read (the message names the value).
    pub fn synth(&self, name: &str, params: &str) -> Result<SoundId, Error> {
        let c_name = c_string("sound name", name)?;
        let c_params = c_string("synth params", params)?;
        // SAFETY: the handle is valid; both are NUL-terminated strings.
        check(unsafe { sys::ss_synth(self.raw, c_name.as_ptr(), c_params.as_ptr()) }).map(SoundId)
    }
}
