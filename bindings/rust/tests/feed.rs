//! Sounds from memory and streams a game feeds, rendered offline: `include_bytes!` renders the same
//! samples as the file, `&[f32]` and `&[i16]` PCM render, a fed stream renders sample-exactly, a
//! full queue refuses and counts, bad arguments are errors naming their values.
use soundstation::{Bus, Engine, ErrorCode, Output, StreamOptions};
use std::path::PathBuf;

const RATE: usize = 48_000;
static COIN: &[u8] = include_bytes!("../../../Assets/Effects/coin.wav");
static EXPLOSION: &[u8] = include_bytes!("../../../Assets/Effects/explosion.ogg");

fn offline() -> Engine {
    Engine::open(Output::Offline { rate: RATE as u32 }, None).expect("offline engine")
}

fn render(engine: &mut Engine, frames: usize) -> Vec<f32> {
    let mut buffer = vec![0.0f32; 2 * frames];
    assert_eq!(engine.render(&mut buffer), Ok(frames));
    buffer
}

fn sine(hertz: f64, i: usize) -> f32 {
    (0.5 * (2.0 * std::f64::consts::PI * hertz * i as f64 / RATE as f64).sin()) as f32
}

#[test]
fn included_bytes_render_what_the_file_renders() {
    let assets = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../Assets/Effects");
    for (bytes, file) in [(COIN, "coin.wav"), (EXPLOSION, "explosion.ogg")] {
        let mut disk = offline();
        let id = disk.load_file("s", &assets.join(file)).unwrap();
        disk.play(id, 1.0, 1.0, 0.0).unwrap();
        let a = render(&mut disk, RATE / 2);
        let mut memory = offline();
        let id = memory.load_memory("s", bytes).unwrap();
        memory.play(id, 1.0, 1.0, 0.0).unwrap();
        let b = render(&mut memory, RATE / 2);
        assert!(a.iter().any(|s| s.abs() > 0.01), "{file} is heard");
        assert_eq!(a, b, "{file}: memory and disk differ");
    }
}

#[test]
fn pcm_float_and_int16_render() {
    let mut engine = offline();
    let stereo: Vec<f32> = (0..4800).flat_map(|i| [sine(440.0, i), 0.5 * sine(660.0, i)]).collect();
    let id = engine.load_pcm("float", &stereo, 2, RATE as u32).unwrap();
    engine.play(id, 1.0, 1.0, 0.0).unwrap();
    let out = render(&mut engine, 4800);
    let worst = out.iter().zip(&stereo).map(|(a, b)| (a - b).abs()).fold(0.0f32, f32::max);
    assert!(worst < 1e-6, "float stereo renders as written: worst {worst}");
    let ints: Vec<i16> = (0..24_000).map(|i| (sine(1000.0, i) * 32000.0) as i16).collect();
    let id = engine.load_pcm("ints", &ints, 1, 24_000).unwrap();
    engine.play(id, 1.0, 1.0, 0.0).unwrap();
    let out = render(&mut engine, RATE / 2);
    let left: Vec<f32> = out.iter().step_by(2).copied().collect();
    let crossings = left.windows(2).filter(|w| w[0] < 0.0 && w[1] >= 0.0).count();
    assert!((crossings as i64 - 250).abs() <= 2, "1 kHz at 24 kHz for 0.25 s: {crossings} crossings");
}

#[test]
fn stream_renders_sample_exactly_and_refuses_what_does_not_fit() {
    let mut engine = offline();
    let stream = engine.open_stream(1, RATE as u32, &StreamOptions { pan: 1.0, ..Default::default() }).unwrap();
    let piece = RATE / 100;
    let mut out = Vec::new();
    let mut written = 0;
    for rendered in (0..RATE).step_by(piece) {
        while written < rendered + 3 * piece {
            let samples: Vec<f32> = (written..written + piece).map(|i| sine(440.0, i)).collect();
            assert_eq!(stream.write(&samples), Ok(piece));
            written += piece;
        }
        out.extend(render(&mut engine, piece));
    }
    for i in 0..RATE {
        assert!((out[2 * i + 1] - sine(440.0, i)).abs() < 1e-6, "frame {i} differs");
        assert!(out[2 * i].abs() < 1e-6, "panned right");
    }
    assert_eq!((stream.underruns(), stream.refused()), (0, 0));
    drop(stream);
    assert!(render(&mut engine, 4800).iter().all(|s| *s == 0.0), "dropped: silent");

    let small = engine.open_stream(2, RATE as u32, &StreamOptions { queue_frames: 100, bus: Bus::Voice, ..Default::default() }).unwrap();
    assert_eq!(small.write(&[0.25; 300]), Ok(100));
    assert_eq!(small.refused(), 50);
    assert_eq!(small.queued(), 100);
    assert!(small.voice().id().0 > 0);
}

#[test]
fn bad_arguments_are_errors() {
    let engine = offline();
    let junk = engine.load_memory("junk", b"not audio at all, only text").unwrap_err();
    assert_eq!(junk.code, ErrorCode::Decode);
    assert!(junk.message.contains("junk"), "{}", junk.message);
    assert_eq!(engine.load_memory("empty", &[]).unwrap_err().code, ErrorCode::InvalidArgument);
    assert!(engine.load_pcm("odd", &[0.0f32; 3], 2, 48_000).unwrap_err().message.contains("whole number"));
    assert!(engine.load_pcm("wide", &[0.0f32; 40], 40, 48_000).unwrap_err().message.contains("channels 40"));
    assert!(engine.load_pcm("slow", &[0i16; 4], 1, 10).unwrap_err().message.contains("rate 10"));
    assert!(engine.open_stream(3, 48_000, &StreamOptions::default()).unwrap_err().message.contains("channels 3"));
    assert!(engine.open_stream(1, 100, &StreamOptions::default()).unwrap_err().message.contains("rate 100"));
    let bad = StreamOptions { volume: f32::NAN, ..Default::default() };
    assert_eq!(engine.open_stream(1, 48_000, &bad).unwrap_err().code, ErrorCode::InvalidArgument);
    let stream = engine.open_stream(2, 48_000, &StreamOptions::default()).unwrap();
    assert!(stream.write(&[0.0; 3]).unwrap_err().message.contains("whole number"));
    drop(engine);
    assert_eq!(stream.write(&[0.0; 2]).unwrap_err().code, ErrorCode::Closed);
}
