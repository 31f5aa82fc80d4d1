//! Game sound for Rust games over libsoundstation: music, effects, preloading and offline rendering.
//!
//! ```no_run
//! use soundstation::Engine;
//! use std::path::Path;
//!
//! let engine = Engine::open("auto", Some(Path::new("Assets")))?;
//! engine.preload(None)?; // every sound of the catalogue, before the game loop
//! let reward = engine.sound_id("reward")?;
//! engine.music("main", 0.0)?;
//! engine.play(reward, 1.0, 1.0, -0.5)?; // volume, pitch, pan
//! # Ok::<(), soundstation::Error>(())
//! ```
//!
//! Failures: every call that can fail returns an [`Error`] carrying the library's message, which
//! names the value at fault (`unknown sound "rewrad"; did you mean "reward"?`); nothing panics or
//! aborts on bad input.
//!
//! Threads: an [`Engine`] is `Send + Sync`; every method may be called from any thread, and none
//! waits except [`Engine::open`], [`Engine::preload`] and [`Engine::load_file`] (they read and
//! decode files). [`Engine::render`] takes `&mut self`: one render at a time. A [`Trigger`] is
//! `Copy + Send + Sync` and its [`Trigger::play`] is async-signal-safe: call it from a signal handler
//! or a real-time thread.

use std::ffi::{CStr, CString};
use std::os::raw::{c_char, c_int, c_void};
use std::fmt;
use std::path::Path;
use std::ptr;

mod sys {
    use std::os::raw::{c_char, c_double, c_float, c_int, c_void};

    #[repr(C)]
    pub struct Event {
        pub kind: c_int,
        pub sound_id: c_int,
        pub reason: c_int,
        pub time: c_double,
        pub name: [c_char; 64],
    }

    pub type Progress = Option<extern "C" fn(c_double, *mut c_void)>;

    extern "C" {
        pub fn ss_version() -> c_int;
        pub fn ss_last_error() -> *const c_char;
        pub fn ss_open(out: *mut *mut c_void, output: *const c_char, assets: *const c_char) -> c_int;
        pub fn ss_close(engine: *mut c_void);
        pub fn ss_preload(
            engine: *mut c_void,
            names: *const *const c_char,
            count: c_int,
            progress: Progress,
            user: *mut c_void,
        ) -> c_int;
        pub fn ss_load_file(engine: *mut c_void, name: *const c_char, path: *const c_char) -> c_int;
        pub fn ss_sound_id(engine: *mut c_void, name: *const c_char) -> c_int;
        pub fn ss_play(engine: *mut c_void, id: c_int, volume: c_float, pitch: c_float, pan: c_float) -> c_int;
        pub fn ss_play_at(engine: *mut c_void, id: c_int, seconds: c_double, volume: c_float, pan: c_float)
            -> c_int;
        pub fn ss_music(engine: *mut c_void, name: *const c_char, crossfade: c_double) -> c_int;
        pub fn ss_music_at(engine: *mut c_void, name: *const c_char, crossfade: c_double, at: *const c_char)
            -> c_int;
        pub fn ss_stop_music(engine: *mut c_void, fade: c_double) -> c_int;
        pub fn ss_set_volume(engine: *mut c_void, bus: *const c_char, gain: c_float) -> c_int;
        pub fn ss_pause_all(engine: *mut c_void) -> c_int;
        pub fn ss_resume_all(engine: *mut c_void) -> c_int;
        pub fn ss_render(engine: *mut c_void, out: *mut c_float, frames: c_int) -> c_int;
        pub fn ss_poll_event(engine: *mut c_void, out: *mut Event) -> c_int;
        pub fn ss_time(engine: *mut c_void) -> c_double;
        pub fn ss_sample_rate(engine: *mut c_void) -> c_int;
    }
}

/// What kind of failure an [`Error`] is: the C library's `SS_ERR_*` codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// A NaN, an out-of-range number, a malformed string, or a string with a NUL byte.
    InvalidArgument,
    /// No sound, bus or catalogue entry has that name or id.
    UnknownName,
    /// The sound is known but was not loaded: call [`Engine::preload`] first.
    NotLoaded,
    /// The output device could not be opened, or OpenAL refused something.
    Device,
    /// catalogue.json is missing or wrong.
    Catalogue,
    /// A sound file is missing or does not decode.
    Decode,
    /// The operation needs an engine opened with `"offline:RATE"`.
    NotOffline,
    /// The engine was closed.
    Closed,
    /// A code this binding does not know (a newer library).
    Other(i32),
}

impl ErrorCode {
    fn from_code(code: c_int) -> ErrorCode {
        match code {
            -1 => ErrorCode::InvalidArgument,
            -2 => ErrorCode::UnknownName,
            -3 => ErrorCode::NotLoaded,
            -4 => ErrorCode::Device,
            -5 => ErrorCode::Catalogue,
            -6 => ErrorCode::Decode,
            -7 => ErrorCode::NotOffline,
            -8 => ErrorCode::Closed,
            other => ErrorCode::Other(other),
        }
    }
}

/// A failed call: its [`ErrorCode`] and the library's message, which names the value at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// What kind of failure.
    pub code: ErrorCode,
    /// The library's message, e.g. `unknown sound "rewrad"; did you mean "reward"?`.
    pub message: String,
}

impl Error {
    /// The error of the call that just returned `code` on this thread (the C library keeps the
    /// message per thread).
    fn last(code: c_int) -> Error {
        // SAFETY: ss_last_error returns a valid NUL-terminated string owned by the library.
        let message = unsafe { CStr::from_ptr(sys::ss_last_error()) }.to_string_lossy().into_owned();
        Error { code: ErrorCode::from_code(code), message }
    }

    fn invalid(message: String) -> Error {
        Error { code: ErrorCode::InvalidArgument, message }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// A loaded sound's id: small integers 0, 1, 2... in load order. Look ids up once, before the game
/// loop, with [`Engine::sound_id`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SoundId(pub i32);

/// What [`Engine::poll_event`] reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// A voice began to play the sound.
    Started,
    /// A voice is done with the sound; `reason` says why.
    Finished,
    /// The sound could not get a voice: every voice was busy with sounds that matter more.
    Refused,
    /// The output device went away (`name` holds the reason); the engine retries every second.
    DeviceLost,
    /// The device is back (`name` holds its name).
    DeviceRestored,
    /// A kind this binding does not know (a newer library).
    Other(i32),
}

/// Why a voice finished (an [`Event`]'s `reason` when its kind is [`EventKind::Finished`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FinishReason {
    /// Not a finish event.
    None,
    /// The sound played to its end.
    Ended,
    /// It was stopped.
    Stopped,
    /// A sound that matters more took its voice.
    Stolen,
    /// The device went away.
    DeviceLost,
    /// A reason this binding does not know.
    Other(i32),
}

/// Something that happened to a sound, from [`Engine::poll_event`].
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// What happened.
    pub kind: EventKind,
    /// The sound's id, or None for device events.
    pub sound: Option<SoundId>,
    /// Why a voice finished.
    pub reason: FinishReason,
    /// Seconds on the engine clock (frames rendered / rate when offline).
    pub time: f64,
    /// The sound's name (or the device or the reason).
    pub name: String,
}

/// An open engine: its output, its catalogue and the sounds loaded from it. Dropping it stops every
/// sound and closes the output.
pub struct Engine {
    raw: *mut c_void,
    output: String,
}

// SAFETY: the C library allows every call from any thread (soundstation.h, "Threads"); render, which
// allows one at a time, takes &mut self.
unsafe impl Send for Engine {}
unsafe impl Sync for Engine {}

fn c_string(what: &str, text: &str) -> Result<CString, Error> {
    CString::new(text).map_err(|_| Error::invalid(format!("{what} {text:?} holds a NUL byte")))
}

fn c_path(what: &str, path: &Path) -> Result<CString, Error> {
    let text = path
        .to_str()
        .ok_or_else(|| Error::invalid(format!("{what} {} is not UTF-8", path.display())))?;
    c_string(what, text)
}

impl Engine {
    /// Opens an engine and reads its catalogue. May wait: it opens the device and reads files.
    ///
    /// `output`: `"device"`, `"device:NAME"`, `"auto"` (the device, or silent output when there is
    /// none), `"silent"` or `"offline:RATE"` (nothing plays until [`Engine::render`]). `assets`: the
    /// folder holding catalogue.json, or None for an engine whose sounds come from
    /// [`Engine::load_file`].
    pub fn open(output: &str, assets: Option<&Path>) -> Result<Engine, Error> {
        let c_output = c_string("output", output)?;
        let c_assets = assets.map(|path| c_path("assets folder", path)).transpose()?;
        let mut raw = ptr::null_mut();
        // SAFETY: valid pointers to NUL-terminated strings (or NULL for no catalogue) and to `raw`.
        let code = unsafe {
            sys::ss_open(&mut raw, c_output.as_ptr(), c_assets.as_ref().map_or(ptr::null(), |s| s.as_ptr()))
        };
        if code != 0 {
            return Err(Error::last(code));
        }
        Ok(Engine { raw, output: output.to_string() })
    }

    /// The output this engine was opened with, as given to [`Engine::open`].
    pub fn output(&self) -> &str {
        &self.output
    }

    fn check(&self, code: c_int) -> Result<c_int, Error> {
        if code < 0 {
            Err(Error::last(code))
        } else {
            Ok(code)
        }
    }

    /// Decodes sounds of the catalogue (None: all of them) on all cores and uploads them, so that
    /// playing them later never waits. Waits until done; a sound that fails is named in the error,
    /// and the others are loaded anyway.
    pub fn preload(&self, names: Option<&[&str]>) -> Result<(), Error> {
        let owned = names
            .unwrap_or(&[])
            .iter()
            .map(|name| c_string("sound name", name))
            .collect::<Result<Vec<_>, _>>()?;
        let pointers: Vec<*const c_char> = owned.iter().map(|s| s.as_ptr()).collect();
        let (list, count) = match names {
            None => (ptr::null(), 0),
            Some(_) => (pointers.as_ptr(), pointers.len() as c_int),
        };
        // SAFETY: `pointers` outlives the call; NULL with 0 means "all".
        self.check(unsafe { sys::ss_preload(self.raw, list, count, None, ptr::null_mut()) }).map(|_| ())
    }

    /// Decodes one WAV or Ogg Vorbis file into a sound called `name`. Waits while decoding.
    pub fn load_file(&self, name: &str, path: &Path) -> Result<SoundId, Error> {
        let c_name = c_string("sound name", name)?;
        let c_file = c_path("file", path)?;
        // SAFETY: valid NUL-terminated strings.
        self.check(unsafe { sys::ss_load_file(self.raw, c_name.as_ptr(), c_file.as_ptr()) }).map(SoundId)
    }

    /// The id of a loaded sound; an unknown or unloaded name is an error naming it.
    pub fn sound_id(&self, name: &str) -> Result<SoundId, Error> {
        let c_name = c_string("sound name", name)?;
        // SAFETY: a valid NUL-terminated string.
        self.check(unsafe { sys::ss_sound_id(self.raw, c_name.as_ptr()) }).map(SoundId)
    }

    /// Plays a loaded sound now: `volume` multiplies the catalogue's (0...16), `pitch` is the speed
    /// (0.25...4), `pan` -1 (left) ... 1 (right). Never waits. Ok(true): handed to the mixer;
    /// Ok(false): dropped because the engine is thousands of triggers behind.
    pub fn play(&self, sound: SoundId, volume: f32, pitch: f32, pan: f32) -> Result<bool, Error> {
        // SAFETY: plain values; the engine handle is valid while self lives.
        self.check(unsafe { sys::ss_play(self.raw, sound.0, volume, pitch, pan) }).map(|code| code == 0)
    }

    /// Plays a loaded sound at `seconds` on the engine clock (offline: at frame
    /// round(seconds * rate), exactly). Never waits. Returns as [`Engine::play`].
    pub fn play_at(&self, sound: SoundId, seconds: f64, volume: f32, pan: f32) -> Result<bool, Error> {
        // SAFETY: plain values.
        self.check(unsafe { sys::ss_play_at(self.raw, sound.0, seconds, volume, pan) }).map(|code| code == 0)
    }

    /// Switches the music to the preloaded track `name`, cutting (0) or crossfading over
    /// `crossfade` seconds. Never waits.
    pub fn music(&self, name: &str, crossfade: f64) -> Result<(), Error> {
        let c_name = c_string("music", name)?;
        // SAFETY: a valid NUL-terminated string.
        self.check(unsafe { sys::ss_music(self.raw, c_name.as_ptr(), crossfade) }).map(|_| ())
    }

    /// Switches the music on the playing track's grid: `at` is "now", "beat", "bar", "bars=N" or
    /// "marker=NAME". Never waits.
    pub fn music_at(&self, name: &str, crossfade: f64, at: &str) -> Result<(), Error> {
        let c_name = c_string("music", name)?;
        let c_at = c_string("position", at)?;
        // SAFETY: valid NUL-terminated strings.
        self.check(unsafe { sys::ss_music_at(self.raw, c_name.as_ptr(), crossfade, c_at.as_ptr()) }).map(|_| ())
    }

    /// Stops the music at once (0) or fading out over `fade` seconds. Never waits.
    pub fn stop_music(&self, fade: f64) -> Result<(), Error> {
        // SAFETY: a plain value.
        self.check(unsafe { sys::ss_stop_music(self.raw, fade) }).map(|_| ())
    }

    /// Sets a bus's volume ("master", "music", "effects" or "voice"; linear gain 0...16), gliding
    /// there over 20 ms. Never waits.
    pub fn set_volume(&self, bus: &str, gain: f32) -> Result<(), Error> {
        let c_bus = c_string("bus", bus)?;
        // SAFETY: a valid NUL-terminated string.
        self.check(unsafe { sys::ss_set_volume(self.raw, c_bus.as_ptr(), gain) }).map(|_| ())
    }

    /// Pauses every sound (a game's pause screen). Never waits.
    pub fn pause_all(&self) -> Result<(), Error> {
        // SAFETY: the handle is valid.
        self.check(unsafe { sys::ss_pause_all(self.raw) }).map(|_| ())
    }

    /// Resumes what [`Engine::pause_all`] paused. Never waits.
    pub fn resume_all(&self) -> Result<(), Error> {
        // SAFETY: the handle is valid.
        self.check(unsafe { sys::ss_resume_all(self.raw) }).map(|_| ())
    }

    /// Mixes the next frames of an `"offline:RATE"` engine into `interleaved_stereo` (left, right,
    /// left...; its length must be even) and returns the frames written. Takes as long as mixing.
    pub fn render(&mut self, interleaved_stereo: &mut [f32]) -> Result<usize, Error> {
        if interleaved_stereo.len() % 2 != 0 {
            return Err(Error::invalid(format!(
                "buffer of {} samples: interleaved stereo needs an even count",
                interleaved_stereo.len()
            )));
        }
        let frames = c_int::try_from(interleaved_stereo.len() / 2)
            .map_err(|_| Error::invalid(format!("{} frames is too many for one render", interleaved_stereo.len() / 2)))?;
        // SAFETY: the buffer holds 2 * frames floats.
        self.check(unsafe { sys::ss_render(self.raw, interleaved_stereo.as_mut_ptr(), frames) })
            .map(|written| written as usize)
    }

    /// The oldest event not yet taken, or None. Never waits.
    pub fn poll_event(&self) -> Result<Option<Event>, Error> {
        let mut raw = sys::Event { kind: 0, sound_id: -1, reason: 0, time: 0.0, name: [0; 64] };
        // SAFETY: `raw` is a valid ss_event.
        if self.check(unsafe { sys::ss_poll_event(self.raw, &mut raw) })? == 0 {
            return Ok(None);
        }
        // SAFETY: the library NUL-terminates name within its 64 bytes.
        let name = unsafe { CStr::from_ptr(raw.name.as_ptr()) }.to_string_lossy().into_owned();
        let kind = match raw.kind {
            1 => EventKind::Started,
            2 => EventKind::Finished,
            3 => EventKind::Refused,
            4 => EventKind::DeviceLost,
            5 => EventKind::DeviceRestored,
            other => EventKind::Other(other),
        };
        let reason = match raw.reason {
            0 => FinishReason::None,
            1 => FinishReason::Ended,
            2 => FinishReason::Stopped,
            3 => FinishReason::Stolen,
            4 => FinishReason::DeviceLost,
            other => FinishReason::Other(other),
        };
        let sound = (raw.sound_id >= 0).then_some(SoundId(raw.sound_id));
        Ok(Some(Event { kind, sound, reason, time: raw.time, name }))
    }

    /// Seconds on the engine clock (offline: frames rendered / rate).
    pub fn time(&self) -> Result<f64, Error> {
        // SAFETY: the handle is valid.
        let time = unsafe { sys::ss_time(self.raw) };
        if time < 0.0 {
            Err(Error::last(time as c_int))
        } else {
            Ok(time)
        }
    }

    /// The output's rate in Hz.
    pub fn sample_rate(&self) -> Result<u32, Error> {
        // SAFETY: the handle is valid.
        self.check(unsafe { sys::ss_sample_rate(self.raw) }).map(|rate| rate as u32)
    }

    /// A [`Trigger`] for this engine, to play sounds from a signal handler or any thread.
    pub fn trigger(&self) -> Trigger {
        Trigger { raw: self.raw }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // SAFETY: the handle came from ss_open; ss_close leaves it valid for later calls (which
        // return SS_ERR_CLOSED), so a Trigger that outlives the engine stays safe.
        unsafe { sys::ss_close(self.raw) }
    }
}

/// Plays an engine's sounds from anywhere, a signal handler included: `Copy + Send + Sync`, and
/// [`Trigger::play`] is async-signal-safe (no lock, no allocation: it calls the C `ss_play`). After
/// the engine is dropped it returns [`ErrorCode::Closed`].
#[derive(Clone, Copy, Debug)]
pub struct Trigger {
    raw: *mut c_void,
}

// SAFETY: ss_play may be called from any thread or a signal handler, and the handle stays valid
// after ss_close (soundstation.h, ss_close).
unsafe impl Send for Trigger {}
unsafe impl Sync for Trigger {}

impl Trigger {
    /// Plays a loaded sound now, as [`Engine::play`]; Ok(true) when handed to the mixer, Ok(false)
    /// when the engine is thousands of triggers behind. The error is only its code: building a
    /// message would allocate, which a signal handler must not (read it later with
    /// [`last_error_message`] on the same thread).
    pub fn play(&self, sound: SoundId, volume: f32, pitch: f32, pan: f32) -> Result<bool, ErrorCode> {
        // SAFETY: ss_play is async-signal-safe and the handle stays valid.
        match unsafe { sys::ss_play(self.raw, sound.0, volume, pitch, pan) } {
            0 => Ok(true),
            1 => Ok(false),
            code => Err(ErrorCode::from_code(code)),
        }
    }
}

/// The message of this thread's last failed call ("" when none failed).
pub fn last_error_message() -> String {
    // SAFETY: ss_last_error returns a valid NUL-terminated string.
    unsafe { CStr::from_ptr(sys::ss_last_error()) }.to_string_lossy().into_owned()
}

/// The library's version: major * 10000 + minor * 100 + patch.
pub fn library_version() -> i32 {
    // SAFETY: no arguments.
    unsafe { sys::ss_version() }
}
