//! The crate's `sys` structs and constants against the C compiler's view of soundstation.h: a C
//! program, compiled here with `cc` and the flags `pkg-config --cflags soundstation` gives (the
//! header the library was installed with), prints every size, offset and value; each must equal
//! Rust's. A field added, moved or retyped in the header fails here by name.
use soundstation::sys;
use std::mem::{size_of, MaybeUninit};
use std::process::Command;

/// Offset of a field, from a pointer into an uninitialised value (no reference to it is made).
macro_rules! offset {
    ($type:ty, $field:ident) => {{
        let value = MaybeUninit::<$type>::uninit();
        let base = value.as_ptr();
        // SAFETY: addr_of! takes the field's address without reading or referencing it.
        let field = unsafe { std::ptr::addr_of!((*base).$field) };
        field as usize - base as usize
    }};
}

/// (C expression, Rust's value): every struct size and field offset, every constant.
fn rust_side() -> Vec<(&'static str, i64)> {
    let mut rows: Vec<(&'static str, i64)> = vec![
        ("sizeof(ss_event)", size_of::<sys::ss_event>() as i64),
        ("offsetof(ss_event, type)", offset!(sys::ss_event, type_) as i64),
        ("offsetof(ss_event, sound_id)", offset!(sys::ss_event, sound_id) as i64),
        ("offsetof(ss_event, reason)", offset!(sys::ss_event, reason) as i64),
        ("offsetof(ss_event, reserved)", offset!(sys::ss_event, reserved) as i64),
        ("offsetof(ss_event, time)", offset!(sys::ss_event, time) as i64),
        ("offsetof(ss_event, voice)", offset!(sys::ss_event, voice) as i64),
        ("offsetof(ss_event, name)", offset!(sys::ss_event, name) as i64),
        ("offsetof(ss_event, text)", offset!(sys::ss_event, text) as i64),
        ("sizeof(ss_musical_position)", size_of::<sys::ss_musical_position>() as i64),
        ("offsetof(ss_musical_position, bar)", offset!(sys::ss_musical_position, bar) as i64),
        ("offsetof(ss_musical_position, beat)", offset!(sys::ss_musical_position, beat) as i64),
        ("offsetof(ss_musical_position, fraction)", offset!(sys::ss_musical_position, fraction) as i64),
        ("sizeof(ss_open_options)", size_of::<sys::ss_open_options>() as i64),
        ("offsetof(ss_open_options, size)", offset!(sys::ss_open_options, size) as i64),
        ("offsetof(ss_open_options, output)", offset!(sys::ss_open_options, output) as i64),
        ("offsetof(ss_open_options, device)", offset!(sys::ss_open_options, device) as i64),
        ("offsetof(ss_open_options, sample_rate)", offset!(sys::ss_open_options, sample_rate) as i64),
        ("offsetof(ss_open_options, latency)", offset!(sys::ss_open_options, latency) as i64),
        ("offsetof(ss_open_options, assets_dir)", offset!(sys::ss_open_options, assets_dir) as i64),
        ("sizeof(ss_play_options)", size_of::<sys::ss_play_options>() as i64),
        ("offsetof(ss_play_options, size)", offset!(sys::ss_play_options, size) as i64),
        ("offsetof(ss_play_options, volume)", offset!(sys::ss_play_options, volume) as i64),
        ("offsetof(ss_play_options, pitch)", offset!(sys::ss_play_options, pitch) as i64),
        ("offsetof(ss_play_options, pan)", offset!(sys::ss_play_options, pan) as i64),
        ("offsetof(ss_play_options, bus)", offset!(sys::ss_play_options, bus) as i64),
        ("offsetof(ss_play_options, loops)", offset!(sys::ss_play_options, loops) as i64),
        ("offsetof(ss_play_options, start_time)", offset!(sys::ss_play_options, start_time) as i64),
        ("offsetof(ss_play_options, fade_in_seconds)", offset!(sys::ss_play_options, fade_in_seconds) as i64),
        ("offsetof(ss_play_options, priority)", offset!(sys::ss_play_options, priority) as i64),
        ("offsetof(ss_play_options, pitch_shift)", offset!(sys::ss_play_options, pitch_shift) as i64),
        ("sizeof(ss_music_options)", size_of::<sys::ss_music_options>() as i64),
        ("offsetof(ss_music_options, size)", offset!(sys::ss_music_options, size) as i64),
        ("offsetof(ss_music_options, point)", offset!(sys::ss_music_options, point) as i64),
        ("offsetof(ss_music_options, crossfade_seconds)", offset!(sys::ss_music_options, crossfade_seconds) as i64),
        ("offsetof(ss_music_options, bars)", offset!(sys::ss_music_options, bars) as i64),
        ("offsetof(ss_music_options, loops)", offset!(sys::ss_music_options, loops) as i64),
        ("offsetof(ss_music_options, marker)", offset!(sys::ss_music_options, marker) as i64),
        ("sizeof(ss_voice)", size_of::<sys::ss_voice>() as i64),
        ("sizeof(ss_stream_options)", size_of::<sys::ss_stream_options>() as i64),
        ("offsetof(ss_stream_options, size)", offset!(sys::ss_stream_options, size) as i64),
        ("offsetof(ss_stream_options, bus)", offset!(sys::ss_stream_options, bus) as i64),
        ("offsetof(ss_stream_options, volume)", offset!(sys::ss_stream_options, volume) as i64),
        ("offsetof(ss_stream_options, pan)", offset!(sys::ss_stream_options, pan) as i64),
        ("offsetof(ss_stream_options, queue_frames)", offset!(sys::ss_stream_options, queue_frames) as i64),
    ];
    macro_rules! constants {
        ($($name:ident),* $(,)?) => { $( rows.push((stringify!($name), sys::$name as i64)); )* };
    }
    constants!(
        SS_VERSION_MAJOR, SS_VERSION_MINOR, SS_VERSION_PATCH, SS_API_VERSION, SS_OK, SS_REFUSED,
        SS_ERR_INVALID_ARGUMENT, SS_ERR_UNKNOWN_NAME, SS_ERR_NOT_LOADED, SS_ERR_DEVICE, SS_ERR_CATALOGUE,
        SS_ERR_DECODE, SS_ERR_NOT_OFFLINE, SS_ERR_CLOSED, SS_ERR_CANCELLED, SS_EVENT_STARTED, SS_EVENT_FINISHED,
        SS_EVENT_REFUSED, SS_EVENT_DEVICE_LOST, SS_EVENT_DEVICE_RESTORED, SS_EVENT_NOTICE, SS_EVENT_OVERFLOW,
        SS_EVENT_COALESCED, SS_FINISH_ENDED, SS_FINISH_STOPPED, SS_FINISH_STOLEN, SS_FINISH_DEVICE_LOST,
        SS_BUS_DEFAULT, SS_BUS_MASTER, SS_BUS_MUSIC, SS_BUS_EFFECTS, SS_BUS_VOICE, SS_LOOPS_FOREVER,
        SS_LOOPS_DEFAULT, SS_OUTPUT_AUTO, SS_OUTPUT_DEVICE, SS_OUTPUT_SILENT, SS_OUTPUT_OFFLINE,
        SS_LATENCY_NORMAL, SS_LATENCY_LOW, SS_MUSIC_NOW, SS_MUSIC_BEAT, SS_MUSIC_BAR, SS_MUSIC_BARS,
        SS_MUSIC_MARKER, SS_FILTER_OFF, SS_FILTER_LOWPASS, SS_FILTER_HIGHPASS, SS_FILTER_BANDPASS,
        SS_SAMPLE_FLOAT32, SS_SAMPLE_INT16,
    );
    rows
}

/// Compiles and runs a C program printing each expression's value, one a line.
fn c_side(expressions: &[&str]) -> Vec<i64> {
    let dir = std::env::temp_dir().join(format!("soundstation-layout-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut program = String::from("#include <stddef.h>\n#include <stdio.h>\n#include <soundstation.h>\nint main(void) {\n");
    for expression in expressions {
        program.push_str(&format!("    printf(\"%lld\\n\", (long long)({expression}));\n"));
    }
    program.push_str("    return 0;\n}\n");
    let source = dir.join("layout.c");
    std::fs::write(&source, program).unwrap();
    let flags = Command::new("pkg-config").args(["--cflags", "soundstation"]).output().expect("pkg-config runs");
    assert!(flags.status.success(), "pkg-config --cflags soundstation: {}", String::from_utf8_lossy(&flags.stderr));
    let binary = dir.join("layout");
    let compiled = Command::new(std::env::var("CC").unwrap_or_else(|_| "cc".into()))
        .args(String::from_utf8_lossy(&flags.stdout).split_whitespace())
        .arg("-std=c99")
        .arg("-o")
        .arg(&binary)
        .arg(&source)
        .output()
        .expect("cc runs");
    assert!(compiled.status.success(), "cc: {}", String::from_utf8_lossy(&compiled.stderr));
    let out = Command::new(&binary).output().expect("the layout program runs");
    std::fs::remove_dir_all(&dir).ok();
    String::from_utf8_lossy(&out.stdout).lines().map(|line| line.parse().unwrap()).collect()
}

#[test]
fn sys_structs_and_constants_are_the_headers() {
    let rows = rust_side();
    let expressions: Vec<&str> = rows.iter().map(|(expression, _)| *expression).collect();
    let c = c_side(&expressions);
    assert_eq!(c.len(), rows.len());
    let wrong: Vec<String> = rows
        .iter()
        .zip(&c)
        .filter(|((_, rust), c)| rust != *c)
        .map(|((expression, rust), c)| format!("{expression}: C {c}, Rust {rust}"))
        .collect();
    assert!(wrong.is_empty(), "sys differs from soundstation.h: {wrong:#?}");
    assert_eq!(size_of::<sys::ss_event>(), 352, "1.0's ss_event");
}
