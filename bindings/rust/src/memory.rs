//! Sounds from memory: an encoded file's bytes (`include_bytes!`) and raw PCM a game makes.

use std::os::raw::{c_int, c_void};

use crate::{c_string, check, sys, Engine, Error, SoundId};

/// A sample type [`Engine::load_pcm`] takes: `f32` (-1...1) or `i16`.
pub trait Sample: Copy + sealed::Sealed {
    /// Its `ss_sample_format`.
    #[doc(hidden)]
    const FORMAT: i32;
}

impl Sample for f32 {
    const FORMAT: i32 = sys::SS_SAMPLE_FLOAT32;
}

impl Sample for i16 {
    const FORMAT: i32 = sys::SS_SAMPLE_INT16;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for i16 {}
}

/// The sample formats of raw PCM (`ss_sample_format`): [`Engine::load_pcm`] picks it from the slice's
/// type; this names them for messages and for code that keeps samples as bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SampleFormat {
    /// 32-bit float samples, -1...1.
    Float32,
    /// Signed 16-bit samples.
    Int16,
}

impl SampleFormat {
    /// The C value.
    pub fn raw(self) -> i32 {
        match self {
            SampleFormat::Float32 => sys::SS_SAMPLE_FLOAT32,
            SampleFormat::Int16 => sys::SS_SAMPLE_INT16,
        }
    }
}

impl Engine {
    /// Decodes a whole encoded file held in memory (any format [`Engine::load_file`] reads: WAV,
    /// AIFF, FLAC, Ogg Vorbis, Opus, MP3, tracker modules) into an effect called `name`, so a game
    /// built with `include_bytes!` needs no asset folder. The bytes are copied; waits while decoding.
    ///
    /// ```ignore
    /// let coin = engine.load_memory("coin", include_bytes!("../assets/coin.ogg"))?;
    /// engine.play(coin, 1.0, 1.0, 0.0)?;
    /// ```
    pub fn load_memory(&self, name: &str, bytes: &[u8]) -> Result<SoundId, Error> {
        let c_name = c_string("sound name", name)?;
        if bytes.is_empty() {
            return Err(Error::invalid(format!("the bytes of sound {name:?} are empty: give a whole file")));
        }
        // SAFETY: a valid NUL-terminated string and `bytes.len()` readable bytes; the library copies them.
        check(unsafe {
            sys::ss_load_memory(self.raw, c_name.as_ptr(), bytes.as_ptr() as *const c_void, bytes.len())
        })
        .map(SoundId)
    }

    /// Makes raw interleaved samples (`&[f32]` in -1...1 or `&[i16]`) an effect called `name`:
    /// `channels` samples a frame (1...32; above 2 mixed to stereo), `rate` frames a second
    /// (1000...384000). The samples are copied; waits while they are uploaded.
    pub fn load_pcm<S: Sample>(&self, name: &str, samples: &[S], channels: u32, rate: u32) -> Result<SoundId, Error> {
        let c_name = c_string("sound name", name)?;
        if channels == 0 || channels > 32 {
            return Err(Error::invalid(format!("invalid channels {channels}: expected 1...32")));
        }
        if samples.len() % channels as usize != 0 {
            return Err(Error::invalid(format!(
                "{} samples is not a whole number of frames of {channels} channels",
                samples.len()
            )));
        }
        let frames = samples.len() / channels as usize;
        let frames = c_int::try_from(frames)
            .map_err(|_| Error::invalid(format!("{frames} frames is too many: expected at most {}", c_int::MAX)))?;
        let rate = c_int::try_from(rate)
            .map_err(|_| Error::invalid(format!("invalid rate {rate} Hz: expected 1000...384000")))?;
        // SAFETY: `samples` holds frames * channels values of S's format; the library copies them.
        check(unsafe {
            sys::ss_load_pcm(
                self.raw,
                c_name.as_ptr(),
                samples.as_ptr() as *const c_void,
                S::FORMAT,
                frames,
                channels as c_int,
                rate,
            )
        })
        .map(SoundId)
    }
}
