//! Streams a game feeds: [`Engine::open_stream`] and [`Stream`].

use std::os::raw::c_int;
use std::ptr;

use crate::{check, done, sys, Bus, Engine, Error, Voice};

/// How [`Engine::open_stream`] plays a stream (`ss_stream_options`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StreamOptions {
    /// The bus it plays on; [`Bus::Effects`] by default.
    pub bus: Bus,
    /// 0...16; 1.
    pub volume: f32,
    /// -1 left ... 1 right; 0.
    pub pan: f32,
    /// The most frames the queue holds, 1...480000; 0 (default) for half a second.
    pub queue_frames: u32,
}

impl Default for StreamOptions {
    fn default() -> Self {
        StreamOptions { bus: Bus::Effects, volume: 1.0, pan: 0.0, queue_frames: 0 }
    }
}

/// A stream of PCM the game writes as it makes it (an emulator, a tracker, a synth), heard at once
/// through one voice. [`Stream::write`] never waits: what does not fit in the queue is refused and
/// counted. Dropping it closes it (stops its voice).
///
/// ```no_run
/// # let engine = soundstation::Engine::open(soundstation::Output::Auto, None).unwrap();
/// let stream = engine.open_stream(1, 48_000, &Default::default())?;
/// let piece = [0.0f32; 480]; // 10 ms, from the emulator
/// if stream.queued() < 2400 {
///     stream.write(&piece)?;
/// }
/// # Ok::<(), soundstation::Error>(())
/// ```
pub struct Stream {
    raw: *mut sys::ss_stream,
    channels: usize,
    voice: Voice,
}

impl std::fmt::Debug for Stream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stream").field("channels", &self.channels).field("voice", &self.voice.id()).finish()
    }
}

// SAFETY: every ss_stream call may be made from any thread (soundstation.h); close takes self.
unsafe impl Send for Stream {}
unsafe impl Sync for Stream {}

impl Engine {
    /// Opens a stream of `channels` (1 or 2) interleaved `f32` channels at `rate` Hz
    /// (8000...192000; resampled to the engine's), heard from its first frames until it is dropped.
    pub fn open_stream(&self, channels: u32, rate: u32, options: &StreamOptions) -> Result<Stream, Error> {
        if channels != 1 && channels != 2 {
            return Err(Error::invalid(format!("invalid channels {channels}: a stream has 1 or 2 channels")));
        }
        let rate = c_int::try_from(rate).map_err(|_| Error::invalid(format!("invalid rate {rate} Hz: expected 8000...192000")))?;
        let queue_frames = c_int::try_from(options.queue_frames).map_err(|_| {
            Error::invalid(format!("invalid queue_frames {}: expected 1...480000, or 0", options.queue_frames))
        })?;
        // SAFETY: all-zero is a valid ss_stream_options; init fills it.
        let mut raw_options: sys::ss_stream_options = unsafe { std::mem::zeroed() };
        // SAFETY: a writable struct of the size passed.
        unsafe { sys::ss_stream_options_init(&mut raw_options, std::mem::size_of::<sys::ss_stream_options>()) };
        raw_options.bus = options.bus.raw();
        raw_options.volume = options.volume;
        raw_options.pan = options.pan;
        raw_options.queue_frames = queue_frames;
        let mut raw = ptr::null_mut();
        // SAFETY: valid handle, options and out pointer.
        done(unsafe { sys::ss_stream_open(self.raw, channels as c_int, rate, &raw_options, &mut raw) })?;
        // SAFETY: a stream just opened.
        let id = unsafe { sys::ss_stream_voice(raw) };
        Ok(Stream { raw, channels: channels as usize, voice: Voice { raw: self.raw, id } })
    }
}

impl Stream {
    /// Copies whole interleaved frames into the queue and returns how many were taken (fewer when
    /// the queue is full: the rest are refused and counted). Never waits.
    pub fn write(&self, interleaved: &[f32]) -> Result<usize, Error> {
        if interleaved.len() % self.channels != 0 {
            return Err(Error::invalid(format!(
                "{} samples is not a whole number of frames of {} channels",
                interleaved.len(),
                self.channels
            )));
        }
        let frames = interleaved.len() / self.channels;
        let frames = c_int::try_from(frames)
            .map_err(|_| Error::invalid(format!("{frames} frames is too many for one write")))?;
        // SAFETY: `interleaved` holds frames * channels floats; the library copies them.
        check(unsafe { sys::ss_stream_write(self.raw, interleaved.as_ptr(), frames) }).map(|n| n as usize)
    }

    /// Frames written and not yet heard.
    pub fn queued(&self) -> usize {
        // SAFETY: a valid stream.
        unsafe { sys::ss_stream_queued(self.raw) }.max(0) as usize
    }

    /// Times the voice ran out of frames after it had begun.
    pub fn underruns(&self) -> usize {
        // SAFETY: a valid stream.
        unsafe { sys::ss_stream_underruns(self.raw) }.max(0) as usize
    }

    /// Frames [`Stream::write`] refused because the queue was full.
    pub fn refused(&self) -> usize {
        // SAFETY: a valid stream.
        unsafe { sys::ss_stream_refused(self.raw) }.max(0) as usize
    }

    /// The voice it plays through: set its volume or pan, pause it.
    pub fn voice(&self) -> &Voice {
        &self.voice
    }

    /// Stops the voice and frees the stream (as dropping it does).
    pub fn close(self) {}
}

impl Drop for Stream {
    fn drop(&mut self) {
        // SAFETY: the stream is valid and used no more.
        unsafe { sys::ss_stream_close(self.raw) };
    }
}
