//! Music speed without pitch and pitch shift, measured on offline renders: a 440 Hz tone track at
//! speed 1.25 stays at 440 Hz and lasts 0.8 times as long, at 0.8 it lasts 1.25 times; an octave's
//! shift doubles an effect's frequency and keeps its length; bad values are errors naming them.
use soundstation::{Engine, ErrorCode, Loops, MusicOptions, Output, PlayOptions};
use std::path::PathBuf;

const RATE: usize = 48_000;

/// A mono 16-bit WAV of a 440 Hz sine at half scale, `seconds` long, in a folder of its own.
fn tone(tag: &str, seconds: f64) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ss-tempo-{}-{}", std::process::id(), tag));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let frames = (seconds * RATE as f64) as u32;
    let mut bytes = Vec::new();
    bytes.extend_from_slice(b"RIFF");
    bytes.extend_from_slice(&(36 + frames * 2).to_le_bytes());
    bytes.extend_from_slice(b"WAVEfmt ");
    for value in [16u32] {
        bytes.extend_from_slice(&value.to_le_bytes());
    }
    for value in [1u16, 1] {
        bytes.extend_from_slice(&value.to_le_bytes());
    }
    bytes.extend_from_slice(&(RATE as u32).to_le_bytes());
    bytes.extend_from_slice(&(RATE as u32 * 2).to_le_bytes());
    for value in [2u16, 16] {
        bytes.extend_from_slice(&value.to_le_bytes());
    }
    bytes.extend_from_slice(b"data");
    bytes.extend_from_slice(&(frames * 2).to_le_bytes());
    for i in 0..frames {
        let sample = (16383.0 * (2.0 * std::f64::consts::PI * 440.0 * f64::from(i) / RATE as f64).sin()).round();
        bytes.extend_from_slice(&(sample as i16).to_le_bytes());
    }
    let path = dir.join("tone.wav");
    std::fs::write(&path, bytes).expect("write the tone");
    path
}

fn render(engine: &mut Engine, seconds: f64) -> Vec<f32> {
    let mut buffer = vec![0.0f32; 2 * (seconds * RATE as f64) as usize];
    assert_eq!(engine.render(&mut buffer), Ok(buffer.len() / 2));
    buffer
}

/// The frame after the last left sample louder than 0.05.
fn heard_until(mix: &[f32]) -> usize {
    let mut end = mix.len() / 2;
    while end > 0 && mix[(end - 1) * 2].abs() < 0.05 {
        end -= 1;
    }
    end
}

/// The frequency from the left channel's rising zero crossings over frames `from..to`.
fn frequency(mix: &[f32], from: usize, to: usize) -> f64 {
    let crossings: Vec<usize> = (from + 1..to).filter(|&i| mix[(i - 1) * 2] < 0.0 && mix[i * 2] >= 0.0).collect();
    (crossings.len() - 1) as f64 * RATE as f64 / (crossings[crossings.len() - 1] - crossings[0]) as f64
}

#[test]
fn a_tone_keeps_its_pitch_and_the_track_its_new_length() {
    for (tag, speed) in [("fast", 1.25), ("slow", 0.8)] {
        let path = tone(tag, 2.0);
        let mut engine = Engine::open(Output::Offline { rate: RATE as u32 }, None).expect("offline engine");
        engine.load_music_file("tone", &path).expect("load the tone");
        engine.set_music_speed(speed, 0.0).expect("speed");
        engine.music_with("tone", &MusicOptions::new().loops(Loops::Repeat(0))).expect("play once");
        let mix = render(&mut engine, 4.0);
        let length = heard_until(&mix) as f64 / RATE as f64;
        assert!((length - 2.0 / speed).abs() < 0.02, "speed {speed}: lasted {length} s");
        let hz = frequency(&mix, RATE / 5, ((2.0 / speed - 0.2) * RATE as f64) as usize);
        assert!((hz - 440.0).abs() < 1.0, "speed {speed}: {hz} Hz");
    }
}

#[test]
fn an_octave_shift_doubles_the_frequency_and_keeps_the_length() {
    let path = tone("shift", 1.0);
    let mut engine = Engine::open(Output::Offline { rate: RATE as u32 }, None).expect("offline engine");
    let id = engine.load_file("beep", &path).expect("load");
    engine.play_voice(id, &PlayOptions::new().pitch_shift(12.0)).expect("play shifted");
    let mix = render(&mut engine, 2.0);
    let hz = frequency(&mix, RATE / 10, RATE * 9 / 10);
    assert!((hz - 880.0).abs() < 1.0, "{hz} Hz");
    assert!((heard_until(&mix) as f64 / RATE as f64 - 1.0).abs() < 0.02);
}

#[test]
fn bad_speeds_and_shifts_are_errors_naming_them() {
    let path = tone("bad", 0.5);
    let engine = Engine::open(Output::Offline { rate: RATE as u32 }, None).expect("offline engine");
    let error = engine.set_music_speed(3.0, 0.0).expect_err("speed 3");
    assert_eq!(error.code, ErrorCode::InvalidArgument);
    assert!(error.message.contains("music speed 3"), "{}", error.message);
    let id = engine.load_file("beep", &path).expect("load");
    let error = engine.play_voice(id, &PlayOptions::new().pitch_shift(30.0)).expect_err("shift 30");
    assert!(error.message.contains("pitch_shift"), "{}", error.message);
}
