//! Game sound for Rust games over libsoundstation 1.x: music, effects you can stop and change while
//! they play, preloading and sample-exact offline rendering.
//!
//! ```no_run
//! use soundstation::{Engine, Output, PlayOptions};
//! use std::path::Path;
//!
//! let engine = Engine::open(Output::Auto, Some(Path::new("Assets")))?;
//! engine.preload(None)?; // every sound of the catalogue, before the game loop
//! let reward = engine.sound_id("reward")?;
//! engine.music("main", 0.0)?;
//! engine.play(reward, 1.0, 1.0, -0.5)?; // volume, pitch, pan
//! let hum = engine.play_voice(reward, &PlayOptions::new().forever())?;
//! hum.stop(0.5)?; // this one sound, faded over half a second
//! # Ok::<(), soundstation::Error>(())
//! ```
//!
//! Failures: every call that can fail returns an [`Error`] carrying the library's message, which
//! names the value at fault, in this crate's names (`Engine::play: pan NaN ...`, never the C
//! function's); nothing panics or aborts on bad input.
//!
//! Threads: an [`Engine`] is `Send + Sync`; every method may be called from any thread, and none
//! waits except [`Engine::open`], [`Engine::preload`], [`Engine::load_file`],
//! [`Engine::load_music_file`] (they read and decode files) and [`Engine::render`] (it mixes).
//! [`Engine::render`] takes `&mut self`: one render at a time. A [`Trigger`] is `Copy + Send + Sync`
//! and its [`Trigger::play`] and [`Trigger::cancel_preload`] are async-signal-safe.

#![warn(missing_docs)]

use std::ffi::{CStr, CString};
use std::fmt;
use std::os::raw::{c_char, c_int, c_void};
use std::path::Path;
use std::ptr;

pub mod sys;
mod synth;
mod memory;
mod stream;
mod tempo;

pub use memory::{Sample, SampleFormat};
pub use stream::{Stream, StreamOptions};

/// What kind of failure an [`Error`] is: the C library's `SS_ERR_*` codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// A NaN, an out-of-range number, a malformed string, or a string with a NUL byte.
    InvalidArgument,
    /// No sound, marker, preset or catalogue entry has that name or id.
    UnknownName,
    /// The sound is known but was not loaded: call [`Engine::preload`] first.
    NotLoaded,
    /// The output device could not be opened, or OpenAL refused something.
    Device,
    /// catalogue.json is missing or wrong.
    Catalogue,
    /// A sound file is missing or does not decode.
    Decode,
    /// The operation needs an offline engine ([`Output::Offline`]).
    NotOffline,
    /// The engine was closed (dropped).
    Closed,
    /// [`Engine::preload`] was stopped by [`Engine::cancel_preload`].
    Cancelled,
    /// [`Engine::play_voice`] only: the engine is thousands of triggers behind and dropped this one
    /// (the C `SS_REFUSED`), so there is no voice to hand back.
    Dropped,
    /// A code this binding does not know (a newer library).
    Other(i32),
}

impl ErrorCode {
    fn from_code(code: c_int) -> ErrorCode {
        match code {
            sys::SS_ERR_INVALID_ARGUMENT => ErrorCode::InvalidArgument,
            sys::SS_ERR_UNKNOWN_NAME => ErrorCode::UnknownName,
            sys::SS_ERR_NOT_LOADED => ErrorCode::NotLoaded,
            sys::SS_ERR_DEVICE => ErrorCode::Device,
            sys::SS_ERR_CATALOGUE => ErrorCode::Catalogue,
            sys::SS_ERR_DECODE => ErrorCode::Decode,
            sys::SS_ERR_NOT_OFFLINE => ErrorCode::NotOffline,
            sys::SS_ERR_CLOSED => ErrorCode::Closed,
            sys::SS_ERR_CANCELLED => ErrorCode::Cancelled,
            sys::SS_REFUSED => ErrorCode::Dropped,
            other => ErrorCode::Other(other),
        }
    }

    /// The C code: `SS_ERR_*` (negative), `SS_REFUSED` for [`ErrorCode::Dropped`].
    pub fn code(self) -> i32 {
        match self {
            ErrorCode::InvalidArgument => sys::SS_ERR_INVALID_ARGUMENT,
            ErrorCode::UnknownName => sys::SS_ERR_UNKNOWN_NAME,
            ErrorCode::NotLoaded => sys::SS_ERR_NOT_LOADED,
            ErrorCode::Device => sys::SS_ERR_DEVICE,
            ErrorCode::Catalogue => sys::SS_ERR_CATALOGUE,
            ErrorCode::Decode => sys::SS_ERR_DECODE,
            ErrorCode::NotOffline => sys::SS_ERR_NOT_OFFLINE,
            ErrorCode::Closed => sys::SS_ERR_CLOSED,
            ErrorCode::Cancelled => sys::SS_ERR_CANCELLED,
            ErrorCode::Dropped => sys::SS_REFUSED,
            ErrorCode::Other(code) => code,
        }
    }

    /// The library's constant name for the code, for logs (`"SS_ERR_UNKNOWN_NAME"`).
    pub fn c_name(self) -> &'static str {
        // SAFETY: ss_result_name returns a static NUL-terminated string for every code.
        let name = unsafe { CStr::from_ptr(sys::ss_result_name(self.code())) };
        name.to_str().unwrap_or("SS_UNKNOWN_CODE")
    }
}

/// A failed call: its [`ErrorCode`] and a message naming the value at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// What kind of failure.
    pub code: ErrorCode,
    /// The library's message in this crate's names, e.g.
    /// `sound "rewrad" is not in the catalogue; did you mean "reward"?`.
    pub message: String,
}

/// The crate's name for each C function, for messages: a Rust game has no `ss_play`.
const RUST_NAMES: &[(&str, &str)] = &[
    ("ss_open_options_init", "OpenOptions"),
    ("ss_open_with", "Engine::open"),
    ("ss_open", "Engine::open"),
    ("ss_close", "drop(Engine)"),
    ("ss_preload", "Engine::preload"),
    ("ss_cancel_preload", "Engine::cancel_preload"),
    ("ss_load_file", "Engine::load_file"),
    ("ss_load_memory", "Engine::load_memory"),
    ("ss_load_pcm", "Engine::load_pcm"),
    ("ss_stream_open", "Engine::open_stream"),
    ("ss_stream_write", "Stream::write"),
    ("ss_load_music_file", "Engine::load_music_file"),
    ("ss_sound_id", "Engine::sound_id"),
    ("ss_play_options_init", "PlayOptions"),
    ("ss_play_voice", "Engine::play_voice"),
    ("ss_play_position", "Engine::play_position"),
    ("ss_play_at", "Engine::play_at"),
    ("ss_play", "Engine::play"),
    ("ss_voice_stop", "Voice::stop"),
    ("ss_voice_set_volume", "Voice::set_volume"),
    ("ss_voice_set_pitch", "Voice::set_pitch"),
    ("ss_voice_set_pan", "Voice::set_pan"),
    ("ss_voice_pause", "Voice::pause"),
    ("ss_voice_resume", "Voice::resume"),
    ("ss_voice_is_playing", "Voice::is_playing"),
    ("ss_stop_effects", "Engine::stop_effects"),
    ("ss_music_options_init", "MusicOptions"),
    ("ss_music_with", "Engine::music_with"),
    ("ss_music_position", "Engine::music_position"),
    ("ss_music_intensity", "Engine::music_intensity"),
    ("ss_music", "Engine::music"),
    ("ss_pause_music", "Engine::pause_music"),
    ("ss_resume_music", "Engine::resume_music"),
    ("ss_stop_music", "Engine::stop_music"),
    ("ss_set_volume", "Engine::set_volume"),
    ("ss_pause_all", "Engine::pause_all"),
    ("ss_resume_all", "Engine::resume_all"),
    ("ss_set_listener", "Engine::set_listener"),
    ("ss_set_grid", "Engine::set_grid"),
    ("ss_set_filter", "Engine::set_filter"),
    ("ss_set_reverb", "Engine::set_reverb"),
    ("ss_render", "Engine::render"),
    ("ss_poll_event", "Engine::poll_event"),
    ("ss_time", "Engine::time"),
    ("ss_sample_rate", "Engine::sample_rate"),
    ("ss_output", "Engine::output"),
];

/// `message` with every C function name (`ss_play`) replaced by the crate's (`Engine::play`).
fn rust_terms(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(at) = rest.find("ss_") {
        let word_start = at == 0 || !rest.as_bytes()[at - 1].is_ascii_alphanumeric() && rest.as_bytes()[at - 1] != b'_';
        let len = rest[at..].bytes().take_while(|b| b.is_ascii_lowercase() || *b == b'_').count();
        let word = &rest[at..at + len];
        out.push_str(&rest[..at]);
        match RUST_NAMES.iter().find(|(c, _)| *c == word) {
            Some((_, rust)) if word_start => out.push_str(rust),
            _ => out.push_str(word),
        }
        rest = &rest[at + len..];
    }
    out.push_str(rest);
    out
}

impl Error {
    /// The error of the call that just returned `code` on this thread (the C library keeps the
    /// message per thread), in this crate's names.
    fn last(code: c_int) -> Error {
        Error { code: ErrorCode::from_code(code), message: rust_terms(&last_error_message()) }
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

/// The number of one play of a sound ([`Voice::id`], [`Event::voice`]): 1, 2, 3... per engine,
/// never reused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VoiceId(pub u64);

/// Where an engine's sound goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    /// The default device, or silent output when there is none (a [`EventKind::Notice`] says why),
    /// or the player's speakers in an SSH session of `soundstation ssh`.
    Auto,
    /// A playback device: one of the names `soundstation devices` lists, or None for the default.
    Device(Option<String>),
    /// Mixes in real time and discards the sound: voices start, end and report as on a device.
    Silent,
    /// Stereo at `rate` Hz (8000...192000); nothing plays until [`Engine::render`].
    Offline {
        /// The sample rate in Hz.
        rate: u32,
    },
}

/// How short a device's mixing periods are ([`OpenOptions::latency`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Latency {
    /// 20 ms periods: the least CPU.
    #[default]
    Normal,
    /// About 2.5 ms periods on PulseAudio (4 ms elsewhere): a hit is heard sooner.
    Low,
}

/// How to open an engine: [`Engine::open_with`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenOptions {
    /// Where the sound goes.
    pub output: Output,
    /// The folder holding catalogue.json, or None for an engine whose sounds come from files.
    pub assets: Option<std::path::PathBuf>,
    /// A device's mixing period.
    pub latency: Latency,
}

impl OpenOptions {
    /// Options for `output`, with no catalogue and normal latency.
    pub fn new(output: Output) -> OpenOptions {
        OpenOptions { output, assets: None, latency: Latency::Normal }
    }

    /// The folder holding catalogue.json.
    pub fn assets(mut self, folder: &Path) -> OpenOptions {
        self.assets = Some(folder.to_path_buf());
        self
    }

    /// A device's mixing period.
    pub fn latency(mut self, latency: Latency) -> OpenOptions {
        self.latency = latency;
        self
    }
}

/// A mixing bus: every sound plays on one; a bus's volume, filter and reverb apply to all of its
/// sounds. [`Bus::Master`] scales every bus.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bus {
    /// Scales every bus.
    Master,
    /// The music.
    Music,
    /// Effects (and files from [`Engine::load_file`]).
    Effects,
    /// Speech.
    Voice,
}

impl Bus {
    fn raw(self) -> i32 {
        match self {
            Bus::Master => sys::SS_BUS_MASTER,
            Bus::Music => sys::SS_BUS_MUSIC,
            Bus::Effects => sys::SS_BUS_EFFECTS,
            Bus::Voice => sys::SS_BUS_VOICE,
        }
    }
}

/// How many times a sound or track plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Loops {
    /// As its catalogue entry says (music loops, effects play once; a [`Engine::load_file`] sound
    /// plays once, a [`Engine::load_music_file`] track loops).
    #[default]
    Default,
    /// Until stopped.
    Forever,
    /// `n` repeats after the first pass (n + 1 plays in all, as SDL_mixer and pygame count; n
    /// 0...1000).
    Repeat(u32),
}

impl Loops {
    fn raw(self) -> Result<i32, Error> {
        match self {
            Loops::Default => Ok(sys::SS_LOOPS_DEFAULT),
            Loops::Forever => Ok(sys::SS_LOOPS_FOREVER),
            Loops::Repeat(n) => i32::try_from(n).map_err(|_| Error::invalid(format!("Loops::Repeat({n}) is too many"))),
        }
    }
}

/// How [`Engine::play_voice`] plays a sound. `PlayOptions::new()` (or `default()`) plays it now,
/// as recorded, once or as the catalogue loops it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayOptions {
    /// Multiplies the catalogue's volume, 0...16.
    pub volume: f32,
    /// Speed, 0.0625...16 (1 as recorded).
    pub pitch: f32,
    /// -1 left ... 1 right.
    pub pan: f32,
    /// The bus, or None for the sound's own (its catalogue entry's; effects for a file).
    pub bus: Option<Bus>,
    /// How many times it plays.
    pub loops: Loops,
    /// Seconds on the engine clock ([`Engine::time`]) to start at, or None for now. Offline a time
    /// starts at frame round(time * rate) exactly.
    pub start_time: Option<f64>,
    /// Rises from silence over this long (seconds, 0...3600).
    pub fade_in: f64,
    /// 0...255 (a sound may take the voice of a lower one), or None for the sound's own.
    pub priority: Option<u8>,
    /// Semitones (-24...24) the pitch moves without the speed changing; 0 for none.
    pub pitch_shift: f64,
}

impl Default for PlayOptions {
    fn default() -> PlayOptions {
        PlayOptions {
            volume: 1.0,
            pitch: 1.0,
            pan: 0.0,
            bus: None,
            loops: Loops::Default,
            start_time: None,
            fade_in: 0.0,
            priority: None,
            pitch_shift: 0.0,
        }
    }
}

impl PlayOptions {
    /// The defaults: now, volume 1, pitch 1, centred, the sound's own bus, loops and priority.
    pub fn new() -> PlayOptions {
        PlayOptions::default()
    }

    /// Sets the volume (0...16).
    pub fn volume(mut self, volume: f32) -> PlayOptions {
        self.volume = volume;
        self
    }

    /// Sets the pitch (0.0625...16).
    pub fn pitch(mut self, pitch: f32) -> PlayOptions {
        self.pitch = pitch;
        self
    }

    /// Sets the pan (-1...1).
    pub fn pan(mut self, pan: f32) -> PlayOptions {
        self.pan = pan;
        self
    }

    /// Plays on `bus` instead of the sound's own.
    pub fn bus(mut self, bus: Bus) -> PlayOptions {
        self.bus = Some(bus);
        self
    }

    /// Sets how many times it plays.
    pub fn loops(mut self, loops: Loops) -> PlayOptions {
        self.loops = loops;
        self
    }

    /// Loops until stopped: `loops(Loops::Forever)`.
    pub fn forever(self) -> PlayOptions {
        self.loops(Loops::Forever)
    }

    /// Starts at `seconds` on the engine clock.
    pub fn at(mut self, seconds: f64) -> PlayOptions {
        self.start_time = Some(seconds);
        self
    }

    /// Fades in over `seconds`.
    pub fn fade_in(mut self, seconds: f64) -> PlayOptions {
        self.fade_in = seconds;
        self
    }

    /// Sets the priority (0...255).
    pub fn priority(mut self, priority: u8) -> PlayOptions {
        self.priority = Some(priority);
        self
    }

    /// Shifts the pitch by `semitones` (-24...24) without changing the speed.
    pub fn pitch_shift(mut self, semitones: f64) -> PlayOptions {
        self.pitch_shift = semitones;
        self
    }

    fn raw(&self) -> Result<sys::ss_play_options, Error> {
        // SAFETY: all-zero is a valid ss_play_options (numbers only); init then fills it.
        let mut raw: sys::ss_play_options = unsafe { std::mem::zeroed() };
        // SAFETY: `raw` is a valid, writable ss_play_options of the size passed.
        unsafe { sys::ss_play_options_init(&mut raw, std::mem::size_of::<sys::ss_play_options>()) };
        raw.volume = self.volume;
        raw.pitch = self.pitch;
        raw.pan = self.pan;
        raw.bus = self.bus.map_or(sys::SS_BUS_DEFAULT, Bus::raw);
        raw.loops = self.loops.raw()?;
        raw.start_time = self.start_time.unwrap_or(-1.0);
        raw.fade_in_seconds = self.fade_in;
        raw.priority = self.priority.map_or(-1, i32::from);
        raw.pitch_shift = self.pitch_shift;
        Ok(raw)
    }
}

/// Where on the playing track's grid a music switch lands ([`MusicOptions::point`]), from the
/// catalogue's "bpm", "beatsPerBar", "downbeat" and "markers".
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum MusicPoint {
    /// At once.
    #[default]
    Now,
    /// The next beat.
    Beat,
    /// The next bar.
    Bar,
    /// The next bar whose count is a multiple of n (n >= 1).
    Bars(u32),
    /// The track's next pass over the named marker.
    Marker(String),
}

/// How [`Engine::music_with`] switches the music.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct MusicOptions {
    /// Where the switch lands.
    pub point: MusicPoint,
    /// 0 cuts; more crossfades from the point (seconds, 0...3600).
    pub crossfade: f64,
    /// How many times the track plays (then the music stops).
    pub loops: Loops,
}

impl MusicOptions {
    /// The defaults: now, a cut, the catalogue's looping.
    pub fn new() -> MusicOptions {
        MusicOptions::default()
    }

    /// Sets where the switch lands.
    pub fn at(mut self, point: MusicPoint) -> MusicOptions {
        self.point = point;
        self
    }

    /// Crossfades over `seconds`.
    pub fn crossfade(mut self, seconds: f64) -> MusicOptions {
        self.crossfade = seconds;
        self
    }

    /// Sets how many times the track plays.
    pub fn loops(mut self, loops: Loops) -> MusicOptions {
        self.loops = loops;
        self
    }
}

/// The kind of filter [`Engine::set_filter`] sets: real cutoffs in hertz, 12 dB per octave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Filter {
    /// No filter.
    Off,
    /// Keeps what lies below the cutoff.
    Lowpass,
    /// Keeps what lies above the cutoff.
    Highpass,
    /// Keeps what lies around the cutoff.
    Bandpass,
}

impl Filter {
    fn raw(self) -> i32 {
        match self {
            Filter::Off => sys::SS_FILTER_OFF,
            Filter::Lowpass => sys::SS_FILTER_LOWPASS,
            Filter::Highpass => sys::SS_FILTER_HIGHPASS,
            Filter::Bandpass => sys::SS_FILTER_BANDPASS,
        }
    }
}

/// Where the playing music is in its bars ([`Engine::music_position`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MusicPosition {
    /// From 1 at the track's first downbeat, counting on through loops.
    pub bar: i32,
    /// The beat in the bar, from 1.
    pub beat: i32,
    /// How far into the beat, 0 ... <1.
    pub fraction: f64,
}

/// Why a voice finished ([`EventKind::Finished`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FinishReason {
    /// It played to its end (after its last loop).
    Ended,
    /// A stop ([`Voice::stop`], [`Engine::stop_effects`], a music switch) ended it.
    Stopped,
    /// A sound that matters more took its voice.
    Stolen,
    /// The device went away while it played.
    DeviceLost,
    /// A reason this binding does not know (a newer library).
    Other(i32),
}

/// What an [`Event`] reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// A voice began to play the sound.
    Started,
    /// A voice is done with the sound, for this reason.
    Finished(FinishReason),
    /// The sound could not get a voice (every voice busy with sounds that matter more, or its
    /// instance limit).
    Refused,
    /// The output device went away; [`Event::text`] holds the reason. The engine retries every second.
    DeviceLost,
    /// The device is back; [`Event::name`] holds its name.
    DeviceRestored,
    /// A line the game may show or log, in [`Event::text`] (the library never writes on the
    /// terminal): why `Auto` fell back to silence, a file that loads only in part, what ALSA said.
    Notice,
    /// Events were lost (nobody polled for a while on a device): this many.
    Overflow {
        /// How many were dropped since the last such event.
        dropped: u32,
    },
    /// A trigger arrived within the sound's "coalesceMs" of another start of it and was folded into
    /// that voice (which plays louder); [`Event::voice`] is the trigger's own, which now addresses
    /// that voice.
    Coalesced,
    /// A kind this binding does not know (a newer library).
    Other(i32),
}

/// Something that happened to a sound, from [`Engine::poll_event`] or [`Engine::events`].
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// What happened.
    pub kind: EventKind,
    /// The sound's id, or None (device events, notices, overflow).
    pub sound: Option<SoundId>,
    /// The voice it concerns, or None (device events, notices, overflow).
    pub voice: Option<VoiceId>,
    /// Seconds on the engine clock (frames rendered / rate when offline).
    pub time: f64,
    /// The sound's name (or the device's, or the reason's first 63 bytes).
    pub name: String,
    /// The whole line of a notice or a device loss (up to 255 bytes); else the same as `name`.
    pub text: String,
}

impl Event {
    fn from_raw(raw: &sys::ss_event) -> Event {
        let kind = match raw.type_ {
            sys::SS_EVENT_STARTED => EventKind::Started,
            sys::SS_EVENT_FINISHED => EventKind::Finished(match raw.reason {
                sys::SS_FINISH_ENDED => FinishReason::Ended,
                sys::SS_FINISH_STOPPED => FinishReason::Stopped,
                sys::SS_FINISH_STOLEN => FinishReason::Stolen,
                sys::SS_FINISH_DEVICE_LOST => FinishReason::DeviceLost,
                other => FinishReason::Other(other),
            }),
            sys::SS_EVENT_REFUSED => EventKind::Refused,
            sys::SS_EVENT_DEVICE_LOST => EventKind::DeviceLost,
            sys::SS_EVENT_DEVICE_RESTORED => EventKind::DeviceRestored,
            sys::SS_EVENT_NOTICE => EventKind::Notice,
            sys::SS_EVENT_OVERFLOW => EventKind::Overflow { dropped: raw.reason.max(0) as u32 },
            sys::SS_EVENT_COALESCED => EventKind::Coalesced,
            other => EventKind::Other(other),
        };
        Event {
            kind,
            sound: if raw.sound_id >= 0 { Some(SoundId(raw.sound_id)) } else { None },
            voice: if raw.voice != 0 { Some(VoiceId(raw.voice)) } else { None },
            time: raw.time,
            name: fixed_string(&raw.name),
            text: fixed_string(&raw.text),
        }
    }
}

/// A C char array as a String, up to its NUL or its end (a cut line may lack its NUL).
fn fixed_string(chars: &[c_char]) -> String {
    let bytes: Vec<u8> = chars.iter().take_while(|c| **c != 0).map(|c| *c as u8).collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// An open engine: its output, its catalogue and the sounds loaded from it. Dropping it stops every
/// sound and closes the output.
pub struct Engine {
    raw: *mut sys::ss_engine,
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

fn check(code: c_int) -> Result<c_int, Error> {
    if code < 0 {
        Err(Error::last(code))
    } else {
        Ok(code)
    }
}

fn done(code: c_int) -> Result<(), Error> {
    check(code).map(|_| ())
}

impl Engine {
    /// Opens an engine on `output` and reads the catalogue in `assets` (None: sounds come from
    /// [`Engine::load_file`] and [`Engine::load_music_file`]). Waits while the device opens and the
    /// catalogue is read.
    pub fn open(output: Output, assets: Option<&Path>) -> Result<Engine, Error> {
        let mut options = OpenOptions::new(output);
        options.assets = assets.map(Path::to_path_buf);
        Engine::open_with(&options)
    }

    /// Opens an engine as `options` say. Waits while the device opens and the catalogue is read.
    pub fn open_with(options: &OpenOptions) -> Result<Engine, Error> {
        let device = match &options.output {
            Output::Device(Some(name)) => Some(c_string("device", name)?),
            _ => None,
        };
        let assets = options.assets.as_deref().map(|path| c_path("assets folder", path)).transpose()?;
        // SAFETY: all-zero is a valid ss_open_options (NULL pointers, numbers); init fills it.
        let mut raw: sys::ss_open_options = unsafe { std::mem::zeroed() };
        // SAFETY: `raw` is a writable ss_open_options of the size passed.
        unsafe { sys::ss_open_options_init(&mut raw, std::mem::size_of::<sys::ss_open_options>()) };
        raw.output = match options.output {
            Output::Auto => sys::SS_OUTPUT_AUTO,
            Output::Device(_) => sys::SS_OUTPUT_DEVICE,
            Output::Silent => sys::SS_OUTPUT_SILENT,
            Output::Offline { rate } => {
                raw.sample_rate = i32::try_from(rate)
                    .map_err(|_| Error::invalid(format!("Output::Offline rate {rate}: expected 8000...192000")))?;
                sys::SS_OUTPUT_OFFLINE
            }
        };
        raw.device = device.as_ref().map_or(ptr::null(), |s| s.as_ptr());
        raw.assets_dir = assets.as_ref().map_or(ptr::null(), |s| s.as_ptr());
        raw.latency = match options.latency {
            Latency::Normal => sys::SS_LATENCY_NORMAL,
            Latency::Low => sys::SS_LATENCY_LOW,
        };
        let mut engine = ptr::null_mut();
        // SAFETY: `raw` and the strings it points to live through the call.
        done(unsafe { sys::ss_open_with(&mut engine, &raw) })?;
        Ok(Engine { raw: engine })
    }

    /// Opens an engine from an output spelled as a string, as a command line or config file gives
    /// it: `"auto"`, `"device"`, `"device:NAME"`, `"silent"`, `"offline:RATE"`.
    pub fn open_spec(output: &str, assets: Option<&Path>) -> Result<Engine, Error> {
        let c_output = c_string("output", output)?;
        let c_assets = assets.map(|path| c_path("assets folder", path)).transpose()?;
        let mut raw = ptr::null_mut();
        // SAFETY: valid NUL-terminated strings (or NULL for no catalogue) and a pointer to `raw`.
        done(unsafe {
            sys::ss_open(&mut raw, c_output.as_ptr(), c_assets.as_ref().map_or(ptr::null(), |s| s.as_ptr()))
        })?;
        Ok(Engine { raw })
    }

    /// Where the sound goes, as opened: `"device:NAME"`, `"silent"` (also when [`Output::Auto`]
    /// found no device: a [`EventKind::Notice`] says why), `"remote"` or `"offline:RATE"`.
    pub fn output(&self) -> String {
        // SAFETY: ss_output returns a NUL-terminated string that lives as long as the handle.
        unsafe { CStr::from_ptr(sys::ss_output(self.raw)) }.to_string_lossy().into_owned()
    }

    /// Decodes sounds of the catalogue (None: all of them) on all cores and uploads them, so that
    /// playing them later never waits. Waits until done; a sound that fails is named in the error
    /// ([`ErrorCode::Decode`]), and the others are loaded anyway. [`Engine::cancel_preload`] from
    /// another thread (or [`Trigger::cancel_preload`] from a signal handler) stops it with
    /// [`ErrorCode::Cancelled`].
    pub fn preload(&self, names: Option<&[&str]>) -> Result<(), Error> {
        self.preload_with_progress(names, |_| {})
    }

    /// [`Engine::preload`], calling `progress` on this thread after each sound with the fraction
    /// done (0 < fraction <= 1): a loading bar.
    pub fn preload_with_progress<F: FnMut(f64)>(&self, names: Option<&[&str]>, mut progress: F) -> Result<(), Error> {
        extern "C" fn trampoline<F: FnMut(f64)>(fraction: f64, user: *mut c_void) {
            // SAFETY: `user` is the &mut F passed below, alive for the whole ss_preload call, and
            // the library calls back on the calling thread only.
            let progress = unsafe { &mut *(user as *mut F) };
            // A panic must not unwind into C: it is caught and the preload goes on.
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| progress(fraction)));
        }
        let owned =
            names.unwrap_or(&[]).iter().map(|name| c_string("sound name", name)).collect::<Result<Vec<_>, _>>()?;
        let pointers: Vec<*const c_char> = owned.iter().map(|s| s.as_ptr()).collect();
        let (list, count) = match names {
            None => (ptr::null(), 0),
            Some(_) => (pointers.as_ptr(), c_int::try_from(pointers.len()).unwrap_or(c_int::MAX)),
        };
        let user = &mut progress as *mut F as *mut c_void;
        // SAFETY: `pointers` and `progress` outlive the call; NULL with 0 means "all".
        done(unsafe { sys::ss_preload(self.raw, list, count, Some(trampoline::<F>), user) })
    }

    /// Stops every [`Engine::preload`] running on this engine (on other threads): each returns
    /// [`ErrorCode::Cancelled`] within about 20 ms and lets go of what it had loaded. Never waits.
    pub fn cancel_preload(&self) -> Result<(), Error> {
        // SAFETY: the handle is valid.
        done(unsafe { sys::ss_cancel_preload(self.raw) })
    }

    /// Decodes one file (any format the engine reads) into an effect called `name`, played on the
    /// effects bus, with no catalogue entry. Waits while decoding.
    pub fn load_file(&self, name: &str, path: &Path) -> Result<SoundId, Error> {
        let c_name = c_string("sound name", name)?;
        let c_file = c_path("file", path)?;
        // SAFETY: valid NUL-terminated strings.
        check(unsafe { sys::ss_load_file(self.raw, c_name.as_ptr(), c_file.as_ptr()) }).map(SoundId)
    }

    /// Makes a file a music track called `name`, streamed while it plays, with no catalogue entry:
    /// [`Engine::music`] then plays it by that name (looping unless told otherwise; no tempo). Waits
    /// while it reads the file's header.
    pub fn load_music_file(&self, name: &str, path: &Path) -> Result<SoundId, Error> {
        let c_name = c_string("track name", name)?;
        let c_file = c_path("file", path)?;
        // SAFETY: valid NUL-terminated strings.
        check(unsafe { sys::ss_load_music_file(self.raw, c_name.as_ptr(), c_file.as_ptr()) }).map(SoundId)
    }

    /// The id of a loaded sound; an unknown or unloaded name is an error naming it.
    pub fn sound_id(&self, name: &str) -> Result<SoundId, Error> {
        let c_name = c_string("sound name", name)?;
        // SAFETY: a valid NUL-terminated string.
        check(unsafe { sys::ss_sound_id(self.raw, c_name.as_ptr()) }).map(SoundId)
    }

    /// Plays a loaded sound now, once: `volume` multiplies the catalogue's (0...16), `pitch` is the
    /// speed (0.0625...16), `pan` -1 (left) ... 1 (right). Never waits. Ok(true): handed to the
    /// mixer; Ok(false): dropped because the engine is thousands of triggers behind. To stop or
    /// change it while it plays, use [`Engine::play_voice`].
    pub fn play(&self, sound: SoundId, volume: f32, pitch: f32, pan: f32) -> Result<bool, Error> {
        // SAFETY: plain values; the engine handle is valid while self lives.
        check(unsafe { sys::ss_play(self.raw, sound.0, volume, pitch, pan) }).map(|code| code == sys::SS_OK)
    }

    /// Plays a loaded sound at `seconds` on the engine clock (offline: at frame round(seconds *
    /// rate), exactly), at pitch 1. Never waits. Returns as [`Engine::play`].
    pub fn play_at(&self, sound: SoundId, seconds: f64, volume: f32, pan: f32) -> Result<bool, Error> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_play_at(self.raw, sound.0, seconds, volume, pan) }).map(|code| code == sys::SS_OK)
    }

    /// Plays a loaded effect as `options` say and returns its [`Voice`], which stops, pauses or
    /// changes this one play while it lasts. Never waits. [`ErrorCode::Dropped`] when the engine is
    /// thousands of triggers behind; a start the instance limit or the voice pool refuses comes
    /// later as [`EventKind::Refused`] naming the voice.
    pub fn play_voice(&self, sound: SoundId, options: &PlayOptions) -> Result<Voice, Error> {
        let raw = options.raw()?;
        let mut voice: sys::ss_voice = 0;
        // SAFETY: `raw` and `voice` are valid for the call.
        let code = check(unsafe { sys::ss_play_voice(self.raw, sound.0, &raw, &mut voice) })?;
        if code == sys::SS_REFUSED || voice == 0 {
            return Err(Error {
                code: ErrorCode::Dropped,
                message: "Engine::play_voice: the engine has fallen 4096 triggers behind; this one was dropped"
                    .to_string(),
            });
        }
        Ok(Voice { raw: self.raw, id: voice })
    }

    /// Plays a loaded sound now at (`x`, `y`) in the game's units: its pan and loudness come from
    /// where it is against the listener ([`Engine::set_listener`]) by the layout
    /// ([`Engine::set_grid`]). Never waits. Returns as [`Engine::play`].
    pub fn play_position(&self, sound: SoundId, x: f32, y: f32, volume: f32, pitch: f32) -> Result<bool, Error> {
        // SAFETY: plain values.
        check(unsafe { sys::ss_play_position(self.raw, sound.0, x, y, volume, pitch) })
            .map(|code| code == sys::SS_OK)
    }

    /// Stops every effect (the music goes on), at once (0) or fading over `fade` seconds.
    pub fn stop_effects(&self, fade: f64) -> Result<(), Error> {
        // SAFETY: a plain value.
        done(unsafe { sys::ss_stop_effects(self.raw, fade) })
    }

    /// Switches the music to the preloaded track `name` (or a [`Engine::load_music_file`] track),
    /// cutting (0) or crossfading over `crossfade` seconds. Never waits.
    pub fn music(&self, name: &str, crossfade: f64) -> Result<(), Error> {
        let c_name = c_string("music", name)?;
        // SAFETY: a valid NUL-terminated string.
        done(unsafe { sys::ss_music(self.raw, c_name.as_ptr(), crossfade) })
    }

    /// Switches the music as `options` say: on the playing track's grid, with a crossfade, a loop
    /// count. Never waits.
    pub fn music_with(&self, name: &str, options: &MusicOptions) -> Result<(), Error> {
        let c_name = c_string("music", name)?;
        let marker = match &options.point {
            MusicPoint::Marker(marker) => Some(c_string("marker", marker)?),
            _ => None,
        };
        // SAFETY: all-zero is a valid ss_music_options; init fills it.
        let mut raw: sys::ss_music_options = unsafe { std::mem::zeroed() };
        // SAFETY: `raw` is a writable ss_music_options of the size passed.
        unsafe { sys::ss_music_options_init(&mut raw, std::mem::size_of::<sys::ss_music_options>()) };
        raw.point = match options.point {
            MusicPoint::Now => sys::SS_MUSIC_NOW,
            MusicPoint::Beat => sys::SS_MUSIC_BEAT,
            MusicPoint::Bar => sys::SS_MUSIC_BAR,
            MusicPoint::Bars(n) => {
                raw.bars = i32::try_from(n).map_err(|_| Error::invalid(format!("MusicPoint::Bars({n}) is too many")))?;
                sys::SS_MUSIC_BARS
            }
            MusicPoint::Marker(_) => sys::SS_MUSIC_MARKER,
        };
        raw.crossfade_seconds = options.crossfade;
        raw.loops = options.loops.raw()?;
        raw.marker = marker.as_ref().map_or(ptr::null(), |s| s.as_ptr());
        // SAFETY: `raw` and the strings live through the call.
        done(unsafe { sys::ss_music_with(self.raw, c_name.as_ptr(), &raw) })
    }

    /// Where the playing music is in its bars now, or None when no music with a tempo plays.
    pub fn music_position(&self) -> Result<Option<MusicPosition>, Error> {
        let mut raw = sys::ss_musical_position::default();
        // SAFETY: `raw` is writable for its size.
        let filled =
            check(unsafe { sys::ss_music_position(self.raw, &mut raw, std::mem::size_of::<sys::ss_musical_position>()) })?;
        Ok(if filled == 1 { Some(MusicPosition { bar: raw.bar, beat: raw.beat, fraction: raw.fraction }) } else { None })
    }

    /// Sets the intensity (0...1) of layered music, at once (0) or gliding over `seconds`.
    pub fn music_intensity(&self, intensity: f64, seconds: f64) -> Result<(), Error> {
        // SAFETY: plain values.
        done(unsafe { sys::ss_music_intensity(self.raw, intensity, seconds) })
    }

    /// Pauses the music alone where it is (effects play on).
    pub fn pause_music(&self) -> Result<(), Error> {
        // SAFETY: the handle is valid.
        done(unsafe { sys::ss_pause_music(self.raw) })
    }

    /// Resumes music paused by [`Engine::pause_music`] from the same place.
    pub fn resume_music(&self) -> Result<(), Error> {
        // SAFETY: the handle is valid.
        done(unsafe { sys::ss_resume_music(self.raw) })
    }

    /// Stops the music at once (0) or fading out over `fade` seconds. Never waits.
    pub fn stop_music(&self, fade: f64) -> Result<(), Error> {
        // SAFETY: a plain value.
        done(unsafe { sys::ss_stop_music(self.raw, fade) })
    }

    /// Sets a bus's volume (linear gain 0...16), gliding there over 20 ms. Never waits.
    pub fn set_volume(&self, bus: Bus, gain: f32) -> Result<(), Error> {
        // SAFETY: plain values.
        done(unsafe { sys::ss_set_volume(self.raw, bus.raw(), gain) })
    }

    /// Pauses every sound (a game's pause screen). Never waits.
    pub fn pause_all(&self) -> Result<(), Error> {
        // SAFETY: the handle is valid.
        done(unsafe { sys::ss_pause_all(self.raw) })
    }

    /// Resumes what [`Engine::pause_all`] paused. Never waits.
    pub fn resume_all(&self) -> Result<(), Error> {
        // SAFETY: the handle is valid.
        done(unsafe { sys::ss_resume_all(self.raw) })
    }

    /// Moves the listener to (`x`, `y`), gliding over `glide` seconds (0 jumps).
    pub fn set_listener(&self, x: f32, y: f32, glide: f64) -> Result<(), Error> {
        // SAFETY: plain values.
        done(unsafe { sys::ss_set_listener(self.raw, x, y, glide) })
    }

    /// Lays positions out for a grid of `columns` x `rows` cells (a terminal's).
    pub fn set_grid(&self, columns: u32, rows: u32) -> Result<(), Error> {
        let columns = c_int::try_from(columns).map_err(|_| Error::invalid(format!("{columns} columns is too many")))?;
        let rows = c_int::try_from(rows).map_err(|_| Error::invalid(format!("{rows} rows is too many")))?;
        // SAFETY: plain values.
        done(unsafe { sys::ss_set_grid(self.raw, columns, rows) })
    }

    /// Filters every sound on `bus` at `hertz` with resonance `q` (0.7071 is flat), or no filter
    /// ([`Filter::Off`]); the cutoff glides over `glide` seconds.
    pub fn set_filter(&self, bus: Bus, filter: Filter, hertz: f32, q: f32, glide: f64) -> Result<(), Error> {
        // SAFETY: plain values.
        done(unsafe { sys::ss_set_filter(self.raw, bus.raw(), filter.raw(), hertz, q, glide) })
    }

    /// Gives `bus` a reverb from OpenAL's EFX presets ("cave", "hall", "concert-hall", ...), or
    /// None for none.
    pub fn set_reverb(&self, bus: Bus, preset: Option<&str>) -> Result<(), Error> {
        let c_preset = preset.map(|name| c_string("preset", name)).transpose()?;
        // SAFETY: a valid NUL-terminated string or NULL.
        done(unsafe { sys::ss_set_reverb(self.raw, bus.raw(), c_preset.as_ref().map_or(ptr::null(), |s| s.as_ptr())) })
    }

    /// Mixes the next frames of an offline engine into `interleaved_stereo` (left, right, left...;
    /// its length must be even) and returns the frames written. Takes as long as mixing.
    pub fn render(&mut self, interleaved_stereo: &mut [f32]) -> Result<usize, Error> {
        if interleaved_stereo.len() % 2 != 0 {
            return Err(Error::invalid(format!(
                "Engine::render: a buffer of {} samples; interleaved stereo needs an even count",
                interleaved_stereo.len()
            )));
        }
        let frames = c_int::try_from(interleaved_stereo.len() / 2).map_err(|_| {
            Error::invalid(format!("Engine::render: {} frames is too many for one render", interleaved_stereo.len() / 2))
        })?;
        // SAFETY: the buffer holds 2 * frames floats.
        check(unsafe { sys::ss_render(self.raw, interleaved_stereo.as_mut_ptr(), frames) }).map(|n| n as usize)
    }

    /// The oldest event not yet taken, or None. Never waits.
    pub fn poll_event(&self) -> Result<Option<Event>, Error> {
        // SAFETY: all-zero is a valid ss_event.
        let mut raw: sys::ss_event = unsafe { std::mem::zeroed() };
        // SAFETY: `raw` is writable for the size passed; the library writes no byte past it.
        let got = check(unsafe { sys::ss_poll_event(self.raw, &mut raw, std::mem::size_of::<sys::ss_event>()) })?;
        Ok(if got == 1 { Some(Event::from_raw(&raw)) } else { None })
    }

    /// The events not yet taken, oldest first, as an iterator that ends when none is left (or the
    /// engine is closed): `for event in engine.events() { ... }` once per game frame.
    pub fn events(&self) -> Events<'_> {
        Events { engine: self }
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
        check(unsafe { sys::ss_sample_rate(self.raw) }).map(|rate| rate as u32)
    }

    /// The C handle, for calling a [`sys`] function this crate does not wrap. It stays valid as long
    /// as the engine (and, answering `SS_ERR_CLOSED`, after it is dropped); never pass it to
    /// `ss_close`.
    pub fn as_raw(&self) -> *mut sys::ss_engine {
        self.raw
    }

    /// A [`Trigger`] for this engine, to play sounds from a signal handler or any thread.
    pub fn trigger(&self) -> Trigger {
        Trigger { raw: self.raw }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // SAFETY: the handle came from ss_open; ss_close leaves it valid for later calls (which
        // return SS_ERR_CLOSED), so a Trigger or Voice that outlives the engine stays safe.
        unsafe { sys::ss_close(self.raw) }
    }
}

/// The events of an engine, oldest first ([`Engine::events`]).
pub struct Events<'a> {
    engine: &'a Engine,
}

impl Iterator for Events<'_> {
    type Item = Event;

    fn next(&mut self) -> Option<Event> {
        self.engine.poll_event().ok().flatten()
    }
}

/// One play of a sound, from [`Engine::play_voice`]: stop it, fade it, pause it or change its
/// volume, pitch or pan while it plays. A voice that has ended stays a valid handle: its calls do
/// nothing and return Ok, and [`Voice::is_playing`] answers false. `Copy + Send + Sync`; after the
/// engine is dropped its calls return [`ErrorCode::Closed`].
#[must_use = "a Voice is the only way to stop or change this play; use Engine::play for fire-and-forget"]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Voice {
    raw: *mut sys::ss_engine,
    id: sys::ss_voice,
}

// SAFETY: the voice calls may be made from any thread, and the engine handle stays valid after
// ss_close (soundstation.h, ss_close and ss_output).
unsafe impl Send for Voice {}
unsafe impl Sync for Voice {}

impl Voice {
    /// Its number, as events name it ([`Event::voice`]).
    pub fn id(&self) -> VoiceId {
        VoiceId(self.id)
    }

    /// Stops it at once (0) or fading out over `fade` seconds.
    pub fn stop(&self, fade: f64) -> Result<(), Error> {
        // SAFETY: plain values on a valid handle.
        done(unsafe { sys::ss_voice_stop(self.raw, self.id, fade) })
    }

    /// Sets its volume (0...16), at once (0) or gliding over `tween` seconds.
    pub fn set_volume(&self, volume: f32, tween: f64) -> Result<(), Error> {
        // SAFETY: plain values on a valid handle.
        done(unsafe { sys::ss_voice_set_volume(self.raw, self.id, volume, tween) })
    }

    /// Sets its pitch (0.0625...16), at once (0) or gliding over `tween` seconds.
    pub fn set_pitch(&self, pitch: f32, tween: f64) -> Result<(), Error> {
        // SAFETY: plain values on a valid handle.
        done(unsafe { sys::ss_voice_set_pitch(self.raw, self.id, pitch, tween) })
    }

    /// Sets its pan (-1...1), at once (0) or gliding over `tween` seconds.
    pub fn set_pan(&self, pan: f32, tween: f64) -> Result<(), Error> {
        // SAFETY: plain values on a valid handle.
        done(unsafe { sys::ss_voice_set_pan(self.raw, self.id, pan, tween) })
    }

    /// Pauses it where it is.
    pub fn pause(&self) -> Result<(), Error> {
        // SAFETY: plain values on a valid handle.
        done(unsafe { sys::ss_voice_pause(self.raw, self.id) })
    }

    /// Resumes it from where [`Voice::pause`] held it.
    pub fn resume(&self) -> Result<(), Error> {
        // SAFETY: plain values on a valid handle.
        done(unsafe { sys::ss_voice_resume(self.raw, self.id) })
    }

    /// Whether it still holds its sound: playing, paused, or waiting to start.
    pub fn is_playing(&self) -> Result<bool, Error> {
        // SAFETY: plain values on a valid handle.
        check(unsafe { sys::ss_voice_is_playing(self.raw, self.id) }).map(|playing| playing == 1)
    }
}

/// Plays an engine's sounds from anywhere, a signal handler included: `Copy + Send + Sync`, and
/// [`Trigger::play`] and [`Trigger::cancel_preload`] are async-signal-safe (no lock, no allocation:
/// they call the C `ss_play` and `ss_cancel_preload`). After the engine is dropped they return
/// [`ErrorCode::Closed`].
#[derive(Clone, Copy, Debug)]
pub struct Trigger {
    raw: *mut sys::ss_engine,
}

// SAFETY: ss_play and ss_cancel_preload may be called from any thread or a signal handler, and the
// handle stays valid after ss_close (soundstation.h, ss_close).
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
            sys::SS_OK => Ok(true),
            sys::SS_REFUSED => Ok(false),
            code => Err(ErrorCode::from_code(code)),
        }
    }

    /// Stops every [`Engine::preload`] running on the engine (a Ctrl-C during a loading screen);
    /// async-signal-safe.
    pub fn cancel_preload(&self) -> Result<(), ErrorCode> {
        // SAFETY: ss_cancel_preload is async-signal-safe and the handle stays valid.
        match unsafe { sys::ss_cancel_preload(self.raw) } {
            sys::SS_OK => Ok(()),
            code => Err(ErrorCode::from_code(code)),
        }
    }
}

/// The message of this thread's last failed call, as the library wrote it ("" when none failed).
pub fn last_error_message() -> String {
    // SAFETY: ss_last_error returns a valid NUL-terminated string.
    unsafe { CStr::from_ptr(sys::ss_last_error()) }.to_string_lossy().into_owned()
}

/// The library's version: major * 10000 + minor * 100 + patch (this crate needs 1.x with x >= 0:
/// [`sys::SS_API_VERSION`]).
pub fn library_version() -> i32 {
    // SAFETY: no arguments.
    unsafe { sys::ss_version() }
}

#[cfg(test)]
mod tests {
    use super::rust_terms;

    #[test]
    fn messages_name_rust_methods() {
        assert_eq!(rust_terms("ss_play: pan nan is not a number"), "Engine::play: pan nan is not a number");
        assert_eq!(
            rust_terms("sound \"jump\" is not loaded: preload it first with ss_preload"),
            "sound \"jump\" is not loaded: preload it first with Engine::preload"
        );
        assert_eq!(rust_terms("ss_play_at: x; ss_voice_stop"), "Engine::play_at: x; Voice::stop");
        assert_eq!(rust_terms("class_ss_play stays"), "class_ss_play stays");
        assert_eq!(rust_terms("ss_unknown stays"), "ss_unknown stays");
    }
}
