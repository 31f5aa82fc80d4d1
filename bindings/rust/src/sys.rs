//! The C interface of libsoundstation 1.x (`soundstation.h`) as declared to Rust: the structs with
//! the header's layout (`tests/layout.rs` compares every size and offset with a C compiler's), the
//! constants with the header's values, and every function. The safe API is the crate root; this is
//! for what it does not wrap.
#![allow(non_camel_case_types, missing_docs)]

use std::os::raw::{c_char, c_double, c_float, c_int, c_void};

/// An open engine (opaque).
pub type ss_engine = c_void;
/// One play of a sound: 1, 2, 3... per engine, never reused; 0 is no voice.
pub type ss_voice = u64;
/// Called by `ss_preload` after each sound with the fraction done and `user`.
pub type ss_progress_fn = Option<extern "C" fn(fraction: c_double, user: *mut c_void)>;

pub const SS_VERSION_MAJOR: c_int = 1;
pub const SS_VERSION_MINOR: c_int = 0;
pub const SS_VERSION_PATCH: c_int = 0;
/// The header this crate was written against, as `ss_version()` counts.
pub const SS_API_VERSION: c_int = SS_VERSION_MAJOR * 10000 + SS_VERSION_MINOR * 100 + SS_VERSION_PATCH;

pub const SS_OK: c_int = 0;
pub const SS_REFUSED: c_int = 1;
pub const SS_ERR_INVALID_ARGUMENT: c_int = -1;
pub const SS_ERR_UNKNOWN_NAME: c_int = -2;
pub const SS_ERR_NOT_LOADED: c_int = -3;
pub const SS_ERR_DEVICE: c_int = -4;
pub const SS_ERR_CATALOGUE: c_int = -5;
pub const SS_ERR_DECODE: c_int = -6;
pub const SS_ERR_NOT_OFFLINE: c_int = -7;
pub const SS_ERR_CLOSED: c_int = -8;
pub const SS_ERR_CANCELLED: c_int = -9;

pub const SS_EVENT_STARTED: i32 = 1;
pub const SS_EVENT_FINISHED: i32 = 2;
pub const SS_EVENT_REFUSED: i32 = 3;
pub const SS_EVENT_DEVICE_LOST: i32 = 4;
pub const SS_EVENT_DEVICE_RESTORED: i32 = 5;
pub const SS_EVENT_NOTICE: i32 = 6;
pub const SS_EVENT_OVERFLOW: i32 = 7;
pub const SS_EVENT_COALESCED: i32 = 8;

pub const SS_FINISH_ENDED: i32 = 1;
pub const SS_FINISH_STOPPED: i32 = 2;
pub const SS_FINISH_STOLEN: i32 = 3;
pub const SS_FINISH_DEVICE_LOST: i32 = 4;

pub const SS_BUS_DEFAULT: i32 = -1;
pub const SS_BUS_MASTER: i32 = 0;
pub const SS_BUS_MUSIC: i32 = 1;
pub const SS_BUS_EFFECTS: i32 = 2;
pub const SS_BUS_VOICE: i32 = 3;

pub const SS_LOOPS_FOREVER: i32 = -1;
pub const SS_LOOPS_DEFAULT: i32 = -2;

pub const SS_OUTPUT_AUTO: i32 = 0;
pub const SS_OUTPUT_DEVICE: i32 = 1;
pub const SS_OUTPUT_SILENT: i32 = 2;
pub const SS_OUTPUT_OFFLINE: i32 = 3;

pub const SS_LATENCY_NORMAL: i32 = 0;
pub const SS_LATENCY_LOW: i32 = 1;

pub const SS_MUSIC_NOW: i32 = 0;
pub const SS_MUSIC_BEAT: i32 = 1;
pub const SS_MUSIC_BAR: i32 = 2;
pub const SS_MUSIC_BARS: i32 = 3;
pub const SS_MUSIC_MARKER: i32 = 4;

pub const SS_FILTER_OFF: i32 = 0;
pub const SS_FILTER_LOWPASS: i32 = 1;
pub const SS_FILTER_HIGHPASS: i32 = 2;
pub const SS_FILTER_BANDPASS: i32 = 3;

/// `ss_event`: passed to `ss_poll_event` with its size, so the library never writes past it.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ss_event {
    pub type_: i32,
    pub sound_id: i32,
    pub reason: i32,
    pub reserved: i32,
    pub time: c_double,
    pub voice: ss_voice,
    pub name: [c_char; 64],
    pub text: [c_char; 256],
}

/// `ss_musical_position`.
#[repr(C)]
#[derive(Clone, Copy, Default)]
pub struct ss_musical_position {
    pub bar: i32,
    pub beat: i32,
    pub fraction: c_double,
}

/// `ss_open_options`: filled by `ss_open_options_init`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ss_open_options {
    pub size: u32,
    pub output: i32,
    pub device: *const c_char,
    pub sample_rate: i32,
    pub latency: i32,
    pub assets_dir: *const c_char,
}

/// `ss_play_options`: filled by `ss_play_options_init`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ss_play_options {
    pub size: u32,
    pub volume: c_float,
    pub pitch: c_float,
    pub pan: c_float,
    pub bus: i32,
    pub loops: i32,
    pub start_time: c_double,
    pub fade_in_seconds: c_double,
    pub priority: i32,
    pub pitch_shift: c_double,
}

/// `ss_music_options`: filled by `ss_music_options_init`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ss_music_options {
    pub size: u32,
    pub point: i32,
    pub crossfade_seconds: c_double,
    pub bars: i32,
    pub loops: i32,
    pub marker: *const c_char,
}

extern "C" {
    pub fn ss_version() -> c_int;
    pub fn ss_last_error() -> *const c_char;
    pub fn ss_result_name(code: c_int) -> *const c_char;

    pub fn ss_open_options_init(options: *mut ss_open_options, size: usize) -> c_int;
    pub fn ss_open_with(out: *mut *mut ss_engine, options: *const ss_open_options) -> c_int;
    pub fn ss_open(out: *mut *mut ss_engine, output: *const c_char, assets_dir: *const c_char) -> c_int;
    pub fn ss_close(engine: *mut ss_engine);

    pub fn ss_preload(
        engine: *mut ss_engine,
        names: *const *const c_char,
        count: c_int,
        progress: ss_progress_fn,
        user: *mut c_void,
    ) -> c_int;
    pub fn ss_cancel_preload(engine: *mut ss_engine) -> c_int;
    pub fn ss_load_file(engine: *mut ss_engine, name: *const c_char, path: *const c_char) -> c_int;
    pub fn ss_load_music_file(engine: *mut ss_engine, name: *const c_char, path: *const c_char) -> c_int;
    pub fn ss_sound_id(engine: *mut ss_engine, name: *const c_char) -> c_int;

    pub fn ss_play(engine: *mut ss_engine, sound_id: c_int, volume: c_float, pitch: c_float, pan: c_float) -> c_int;
    pub fn ss_play_at(engine: *mut ss_engine, sound_id: c_int, seconds: c_double, volume: c_float, pan: c_float)
        -> c_int;
    pub fn ss_play_options_init(options: *mut ss_play_options, size: usize) -> c_int;
    pub fn ss_play_voice(
        engine: *mut ss_engine,
        sound_id: c_int,
        options: *const ss_play_options,
        voice: *mut ss_voice,
    ) -> c_int;
    pub fn ss_voice_stop(engine: *mut ss_engine, voice: ss_voice, fade_seconds: c_double) -> c_int;
    pub fn ss_voice_set_volume(engine: *mut ss_engine, voice: ss_voice, volume: c_float, tween: c_double) -> c_int;
    pub fn ss_voice_set_pitch(engine: *mut ss_engine, voice: ss_voice, pitch: c_float, tween: c_double) -> c_int;
    pub fn ss_voice_set_pan(engine: *mut ss_engine, voice: ss_voice, pan: c_float, tween: c_double) -> c_int;
    pub fn ss_voice_pause(engine: *mut ss_engine, voice: ss_voice) -> c_int;
    pub fn ss_voice_resume(engine: *mut ss_engine, voice: ss_voice) -> c_int;
    pub fn ss_voice_is_playing(engine: *mut ss_engine, voice: ss_voice) -> c_int;
    pub fn ss_stop_effects(engine: *mut ss_engine, fade_seconds: c_double) -> c_int;

    pub fn ss_music(engine: *mut ss_engine, name: *const c_char, crossfade_seconds: c_double) -> c_int;
    pub fn ss_music_options_init(options: *mut ss_music_options, size: usize) -> c_int;
    pub fn ss_music_with(engine: *mut ss_engine, name: *const c_char, options: *const ss_music_options) -> c_int;
    pub fn ss_music_position(engine: *mut ss_engine, out: *mut ss_musical_position, size: usize) -> c_int;
    pub fn ss_music_intensity(engine: *mut ss_engine, intensity: c_double, seconds: c_double) -> c_int;
    pub fn ss_pause_music(engine: *mut ss_engine) -> c_int;
    pub fn ss_resume_music(engine: *mut ss_engine) -> c_int;
    pub fn ss_stop_music(engine: *mut ss_engine, fade_seconds: c_double) -> c_int;

    pub fn ss_set_volume(engine: *mut ss_engine, bus: i32, gain: c_float) -> c_int;
    pub fn ss_pause_all(engine: *mut ss_engine) -> c_int;
    pub fn ss_resume_all(engine: *mut ss_engine) -> c_int;

    pub fn ss_play_position(
        engine: *mut ss_engine,
        sound_id: c_int,
        x: c_float,
        y: c_float,
        volume: c_float,
        pitch: c_float,
    ) -> c_int;
    pub fn ss_set_listener(engine: *mut ss_engine, x: c_float, y: c_float, glide_seconds: c_double) -> c_int;
    pub fn ss_set_grid(engine: *mut ss_engine, columns: c_int, rows: c_int) -> c_int;
    pub fn ss_set_filter(
        engine: *mut ss_engine,
        bus: i32,
        type_: i32,
        hertz: c_float,
        q: c_float,
        glide_seconds: c_double,
    ) -> c_int;
    pub fn ss_set_reverb(engine: *mut ss_engine, bus: i32, preset: *const c_char) -> c_int;

    pub fn ss_render(engine: *mut ss_engine, interleaved_stereo: *mut c_float, frames: c_int) -> c_int;
    pub fn ss_poll_event(engine: *mut ss_engine, out: *mut ss_event, size: usize) -> c_int;
    pub fn ss_time(engine: *mut ss_engine) -> c_double;
    pub fn ss_sample_rate(engine: *mut ss_engine) -> c_int;
    pub fn ss_output(engine: *mut ss_engine) -> *const c_char;
}

// ---- Synthesised effects ----
extern "C" {
    pub fn ss_synth(engine: *mut ss_engine, name: *const c_char, params: *const c_char) -> c_int;
}

// ---- Sounds from memory ----

pub const SS_SAMPLE_FLOAT32: i32 = 0;
pub const SS_SAMPLE_INT16: i32 = 1;

extern "C" {
    pub fn ss_load_memory(engine: *mut ss_engine, name: *const c_char, bytes: *const c_void, size: usize) -> c_int;
    pub fn ss_load_pcm(
        engine: *mut ss_engine,
        name: *const c_char,
        samples: *const c_void,
        format: i32,
        frames: c_int,
        channels: c_int,
        rate: c_int,
    ) -> c_int;
}

// ---- Streams a game feeds ----

/// A stream the game feeds (opaque).
pub type ss_stream = c_void;

/// `ss_stream_options`: filled by `ss_stream_options_init`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ss_stream_options {
    pub size: u32,
    pub bus: i32,
    pub volume: c_float,
    pub pan: c_float,
    pub queue_frames: i32,
}

extern "C" {
    pub fn ss_stream_options_init(options: *mut ss_stream_options, size: usize) -> c_int;
    pub fn ss_stream_open(
        engine: *mut ss_engine,
        channels: c_int,
        rate: c_int,
        options: *const ss_stream_options,
        stream: *mut *mut ss_stream,
    ) -> c_int;
    pub fn ss_stream_write(stream: *mut ss_stream, interleaved: *const c_float, frames: c_int) -> c_int;
    pub fn ss_stream_queued(stream: *mut ss_stream) -> c_int;
    pub fn ss_stream_underruns(stream: *mut ss_stream) -> c_int;
    pub fn ss_stream_refused(stream: *mut ss_stream) -> c_int;
    pub fn ss_stream_voice(stream: *mut ss_stream) -> ss_voice;
    pub fn ss_stream_close(stream: *mut ss_stream);
}

// ---- Music speed ----
extern "C" {
    pub fn ss_set_music_speed(engine: *mut ss_engine, speed: c_double, tween_seconds: c_double) -> c_int;
}
