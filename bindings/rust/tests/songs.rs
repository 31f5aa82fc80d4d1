//! MIDI and chiptune songs from a catalogue, rendered offline and measured: a MIDI file of quarter
//! notes at 120 bpm starts a note every 0.5 s at its pitch, and a VGM log plays its intro, then loops
//! at its loop offset. Both files are written here, byte by byte.
use soundstation::{Engine, ErrorCode, Output};
use std::path::{Path, PathBuf};

const RATE: usize = 48_000;
const BEAT: usize = 24_000;
const NOTES: [u8; 4] = [57, 64, 69, 72];

fn note_hertz(note: u8) -> f64 {
    440.0 * 2f64.powf((f64::from(note) - 69.0) / 12.0)
}

fn quantity(mut value: u32) -> Vec<u8> {
    let mut out = vec![(value & 0x7F) as u8];
    value >>= 7;
    while value > 0 {
        out.insert(0, 0x80 | (value & 0x7F) as u8);
        value >>= 7;
    }
    out
}

/// A format-0 MIDI file: 480 ticks a beat, 120 bpm, the piano; each note held 0.4 s of its 0.5 s.
fn midi_song() -> Vec<u8> {
    let mut events = vec![0x00, 0xFF, 0x51, 0x03, 0x07, 0xA1, 0x20, 0x00, 0xC0, 0x00];
    for (index, note) in NOTES.iter().enumerate() {
        events.extend([0x00, 0x90, *note, 100]);
        events.extend(quantity(384));
        events.extend([0x80, *note, 0]);
        if index < NOTES.len() - 1 {
            events.extend(quantity(96));
            events.extend([0xFF, 0x01, 0x00]);
        }
    }
    events.extend(quantity(96));
    events.extend([0xFF, 0x2F, 0x00]);
    let mut file = b"MThd\0\0\0\x06\0\0\0\x01\x01\xE0MTrk".to_vec();
    file.extend((events.len() as u32).to_be_bytes());
    file.extend(events);
    file
}

/// A VGM 1.50 log for the SN76489: 1 s at 440 Hz, then the loop: 660 Hz and 880 Hz, 0.5 s each.
fn vgm_song() -> Vec<u8> {
    fn tone(hertz: f64) -> [u8; 4] {
        let period = (3_579_545.0 / (32.0 * hertz)).round() as u32;
        [0x50, 0x80 | (period & 0x0F) as u8, 0x50, ((period >> 4) & 0x3F) as u8]
    }
    fn wait(seconds: f64) -> Vec<u8> {
        let mut out = vec![0x61];
        out.extend(((seconds * 44_100.0).round() as u16).to_le_bytes());
        out
    }
    let mut intro = vec![0x50, 0x90];
    intro.extend(tone(440.0));
    intro.extend(wait(1.0));
    let mut data = intro.clone();
    data.extend(tone(660.0));
    data.extend(wait(0.5));
    data.extend(tone(880.0));
    data.extend(wait(0.5));
    data.push(0x66);
    let mut header = vec![0u8; 0x40];
    let mut put = |at: usize, value: u32| header[at..at + 4].copy_from_slice(&value.to_le_bytes());
    put(0x04, (0x40 + data.len() - 4) as u32);
    put(0x08, 0x150);
    put(0x0C, 3_579_545);
    put(0x18, 2 * 44_100);
    put(0x1C, (0x40 + intro.len() - 0x1C) as u32);
    put(0x20, 44_100);
    put(0x24, 60);
    put(0x28, 9 | 16 << 16);
    put(0x34, 0x40 - 0x34);
    header[0..4].copy_from_slice(b"Vgm ");
    header.extend(data);
    header
}

/// A fresh folder with the two songs and a catalogue naming them.
fn songs(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("soundstation-songs-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("song.mid"), midi_song()).unwrap();
    std::fs::write(dir.join("song.vgm"), vgm_song()).unwrap();
    std::fs::write(
        dir.join("catalogue.json"),
        r#"{"sounds": [
            {"name": "tune", "path": "song.mid", "kind": "music", "stream": true, "loop": false},
            {"name": "chip", "path": "song.vgm", "kind": "music", "track": 1},
            {"name": "two", "path": "song.vgm", "kind": "music", "track": 2}]}"#,
    )
    .unwrap();
    dir
}

fn render(engine: &mut Engine, frames: usize) -> Vec<f32> {
    let mut buffer = vec![0.0f32; 2 * frames];
    assert_eq!(engine.render(&mut buffer), Ok(frames));
    buffer
}

/// The magnitude of `hertz` on the left channel over `count` frames from `start`.
fn magnitude(samples: &[f32], start: usize, count: usize, hertz: f64) -> f64 {
    let (mut re, mut im) = (0.0, 0.0);
    for i in 0..count {
        let phase = 2.0 * std::f64::consts::PI * hertz * i as f64 / RATE as f64;
        let sample = f64::from(samples[2 * (start + i)]);
        re += sample * phase.cos();
        im -= sample * phase.sin();
    }
    (re * re + im * im).sqrt() / count as f64
}

/// The first 1 ms step from 50 ms before `beat` louder than a third of the loudest 2 ms window in
/// the 0.1 s after it.
fn onset(samples: &[f32], beat: usize) -> Option<usize> {
    let window = |start: usize| {
        let sum: f64 = (start..start + 96).map(|i| f64::from(samples[2 * i]).powi(2)).sum();
        (sum / 96.0).sqrt()
    };
    let loudest = (beat..beat + 4_800).step_by(48).map(window).fold(0.0, f64::max);
    (beat.saturating_sub(2_400)..beat + 4_800).step_by(48).find(|&at| window(at) > loudest / 3.0)
}

fn has_soundfont() -> bool {
    ["/usr/share/sounds/sf2/default-GM.sf2", "/usr/share/sounds/sf2/TimGM6mb.sf2"].iter().any(|p| Path::new(p).exists())
}

#[test]
fn midi_quarter_notes_start_every_half_second_at_their_pitch() {
    if !has_soundfont() {
        eprintln!("skipped: no General MIDI SoundFont (Debian's timgm6mb-soundfont)");
        return;
    }
    let dir = songs("midi");
    let mut engine = Engine::open(Output::Offline { rate: RATE as u32 }, Some(&dir)).expect("offline engine");
    engine.preload(Some(&["tune"])).expect("the MIDI song loads");
    engine.music("tune", 0.0).expect("it plays");
    let samples = render(&mut engine, RATE * 5 / 2);
    let starts: Vec<usize> = (0..NOTES.len()).map(|beat| onset(&samples, beat * BEAT).expect("an onset")).collect();
    assert!(starts[0] <= 240, "the first note starts at frame {}", starts[0]);
    for pair in starts.windows(2) {
        assert!((pair[1] as i64 - pair[0] as i64 - BEAT as i64).abs() <= 240, "onsets {starts:?}");
    }
    for (beat, note) in NOTES.iter().enumerate() {
        let start = beat * BEAT + 2_400;
        let wanted = magnitude(&samples, start, 9_600, note_hertz(*note));
        for other in [note - 1, note + 1] {
            let beside = magnitude(&samples, start, 9_600, note_hertz(other));
            assert!(wanted > 3.0 * beside, "note {note}: {wanted} against {beside} a semitone away");
        }
    }
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn vgm_loops_at_its_loop_offset_and_a_missing_track_is_named() {
    let dir = songs("vgm");
    let mut engine = Engine::open(Output::Offline { rate: RATE as u32 }, Some(&dir)).expect("offline engine");
    let error = engine.preload(Some(&["two"])).expect_err("track 2 of 1");
    assert_eq!(error.code, ErrorCode::Decode);
    assert!(error.message.contains("not track 2"), "{}", error.message);
    engine.preload(Some(&["chip"])).expect("the VGM loads");
    engine.music("chip", 0.0).expect("it plays");
    let samples = render(&mut engine, RATE * 4);
    let strongest = |seconds: f64| {
        let start = (seconds * RATE as f64) as usize;
        [440.0, 660.0, 880.0]
            .into_iter()
            .max_by(|a, b| magnitude(&samples, start, 4_800, *a).total_cmp(&magnitude(&samples, start, 4_800, *b)))
            .unwrap()
    };
    let heard: Vec<f64> = [0.3, 1.2, 1.7, 2.2, 2.7, 3.2, 3.7].into_iter().map(strongest).collect();
    // After the loop point (2 s) the loop plays again, never the intro.
    assert_eq!(heard, [440.0, 660.0, 880.0, 660.0, 880.0, 660.0, 880.0]);
    std::fs::remove_dir_all(dir).ok();
}
