//! The binding as a game uses it, on the library `make test` installs: offline renders measured on
//! their samples (onsets, voices stopped and paused, music paused and from a file), events with
//! their voice and text, the errors naming their values in the crate's names, and a trigger from a
//! SIGALRM handler.
use soundstation::{
    Bus, Engine, ErrorCode, Event, EventKind, Filter, FinishReason, Loops, MusicOptions, MusicPoint, OpenOptions,
    Output, PlayOptions, SoundId, Trigger,
};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI32, AtomicPtr, Ordering};
use std::time::{Duration, Instant};

const RATE: usize = 48_000;

fn assets() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../Assets")
}

fn offline_with(names: &[&str]) -> Engine {
    let engine = Engine::open(Output::Offline { rate: RATE as u32 }, Some(&assets())).expect("offline engine");
    engine.preload(Some(names)).expect("preload");
    engine
}

fn offline() -> Engine {
    offline_with(&["reward"])
}

fn render(engine: &mut Engine, seconds: f64) -> Vec<f32> {
    let mut buffer = vec![0.0f32; 2 * (seconds * RATE as f64) as usize];
    assert_eq!(engine.render(&mut buffer), Ok(buffer.len() / 2));
    buffer
}

/// The mean square of one channel (0 left, 1 right) of interleaved stereo.
fn energy(samples: &[f32], channel: usize) -> f64 {
    let sum: f64 = samples.iter().skip(channel).step_by(2).map(|s| f64::from(*s) * f64::from(*s)).sum();
    sum / (samples.len() / 2) as f64
}

fn both(samples: &[f32]) -> f64 {
    energy(samples, 0) + energy(samples, 1)
}

fn first_sound(samples: &[f32]) -> Option<usize> {
    samples.chunks(2).position(|frame| frame[0] != 0.0 || frame[1] != 0.0)
}

/// The first sounding frame of reward played at `at` seconds, in one second rendered offline.
fn onset(at: f64) -> Option<usize> {
    let mut engine = offline();
    let reward = engine.sound_id("reward").unwrap();
    assert_eq!(engine.play_at(reward, at, 1.0, 0.0), Ok(true));
    first_sound(&render(&mut engine, 1.0))
}

#[test]
fn reward_starts_at_its_exact_frame() {
    let lead = onset(0.0).expect("reward is heard");
    assert!(lead < 480, "reward at 0 starts within 10 ms, at frame {lead}");
    for at in [0.25, 0.3000104, 0.5] {
        let wanted = (at * RATE as f64).round() as usize + lead;
        assert_eq!(onset(at), Some(wanted), "reward at {at} s");
    }
}

#[test]
fn events_report_the_start_with_its_voice() {
    let mut engine = offline();
    let reward = engine.sound_id("reward").unwrap();
    let voice = engine.play_voice(reward, &PlayOptions::new().at(0.1)).unwrap();
    render(&mut engine, 0.2);
    let events: Vec<Event> = engine.events().collect();
    let event = events.first().expect("an event");
    assert_eq!(event.kind, EventKind::Started);
    assert_eq!(event.sound, Some(reward));
    assert_eq!(event.voice, Some(voice.id()));
    assert_eq!((event.name.as_str(), event.text.as_str()), ("reward", "reward"));
    assert!((event.time - 0.1).abs() < 1e-9, "started at {}", event.time);
    assert_eq!(engine.output(), "offline:48000");
    assert_eq!(engine.sample_rate(), Ok(48_000));
}

/// Two loops, one on each side: the one stopped goes silent, the other plays on.
#[test]
fn a_voice_stops_while_another_loops_on() {
    let mut engine = offline_with(&["reward", "upgrade"]);
    let (reward, upgrade) = (engine.sound_id("reward").unwrap(), engine.sound_id("upgrade").unwrap());
    let left = engine.play_voice(reward, &PlayOptions::new().forever().pan(-1.0)).unwrap();
    let right = engine.play_voice(upgrade, &PlayOptions::new().loops(Loops::Forever).pan(1.0)).unwrap();
    let before = render(&mut engine, 1.0);
    assert!(energy(&before, 0) > 1e-5 && energy(&before, 1) > 1e-5, "both loops heard before the stop");
    left.stop(0.05).unwrap();
    render(&mut engine, 0.1); // the fade
    let after = render(&mut engine, 1.0);
    assert!(energy(&after, 0) < 1e-9, "the stopped voice is still heard: {}", energy(&after, 0));
    assert!(energy(&after, 1) > energy(&before, 1) / 4.0, "the other loop went quiet: {}", energy(&after, 1));
    assert_eq!(left.is_playing(), Ok(false));
    assert_eq!(right.is_playing(), Ok(true));
    assert_eq!(left.stop(0.0), Ok(()), "stopping an ended voice is a no-op");
    let finished: Vec<Event> = engine.events().filter(|e| e.voice == Some(left.id())).collect();
    assert!(
        finished.iter().any(|e| e.kind == EventKind::Finished(FinishReason::Stopped)),
        "the stopped voice's events: {finished:?}"
    );
    right.set_volume(0.5, 0.0).unwrap();
    right.set_pitch(2.0, 0.1).unwrap();
    right.set_pan(0.0, 0.0).unwrap();
    right.pause().unwrap();
    render(&mut engine, 0.1);
    assert!(both(&render(&mut engine, 0.5)) < 1e-9, "a paused voice is silent");
    right.resume().unwrap();
    assert!(both(&render(&mut engine, 0.5)) > 1e-6, "a resumed voice is heard");
}

/// The music pauses alone: an effect started while it is paused is heard, and the music stays
/// paused until resume_music.
#[test]
fn music_pauses_while_an_effect_plays() {
    let mut engine = offline_with(&["main", "reward"]);
    let reward = engine.sound_id("reward").unwrap();
    engine.music("main", 0.0).unwrap();
    assert!(both(&render(&mut engine, 0.5)) > 1e-5, "music heard");
    engine.pause_music().unwrap();
    render(&mut engine, 0.1);
    assert!(both(&render(&mut engine, 0.3)) < 1e-9, "paused music is silent");
    let effect = engine.play_voice(reward, &PlayOptions::new().forever()).unwrap();
    assert!(both(&render(&mut engine, 0.5)) > 1e-5, "the effect is heard while the music is paused");
    effect.stop(0.0).unwrap();
    render(&mut engine, 0.1);
    assert!(both(&render(&mut engine, 0.3)) < 1e-9, "the music stays paused");
    engine.resume_music().unwrap();
    assert!(both(&render(&mut engine, 0.5)) > 1e-5, "resumed music heard");
}

#[test]
fn music_from_a_file_path_with_no_catalogue() {
    let mut engine = Engine::open(Output::Offline { rate: 48_000 }, None).unwrap();
    let song = engine.load_music_file("song", &assets().join("Music/main.ogg")).unwrap();
    engine.music_with("song", &MusicOptions::new().loops(Loops::Repeat(0))).unwrap();
    assert!(both(&render(&mut engine, 0.5)) > 1e-5, "music from the file heard");
    let first = engine.events().next().expect("an event");
    assert_eq!((first.kind, first.sound, first.name.as_str()), (EventKind::Started, Some(song), "song"));
    let missing = engine.load_music_file("gone", Path::new("/nonexistent/song.ogg")).unwrap_err();
    assert_eq!(missing.code, ErrorCode::Decode);
    assert!(missing.message.contains("/nonexistent/song.ogg"), "{}", missing.message);
}

/// A file cut short arrives as a notice with its whole line; two triggers at once as a coalesced
/// event with the sound's name.
#[test]
fn notices_and_coalesced_events_carry_their_text() {
    let coin = std::fs::read(assets().join("Effects/coin.wav")).unwrap();
    let dir = std::env::temp_dir().join(format!("soundstation-rust-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cut = dir.join("a-file-whose-name-is-long-enough-to-be-cut-in-the-name-field-cut.wav");
    std::fs::write(&cut, &coin[..coin.len() * 4 / 10]).unwrap();
    let mut engine = offline();
    engine.load_file("cut", &cut).unwrap();
    std::fs::remove_dir_all(&dir).ok();
    let notice = engine.events().find(|e| e.kind == EventKind::Notice).expect("a notice");
    assert!(notice.text.contains("cut short") && notice.text.contains(cut.to_str().unwrap()), "{notice:?}");
    assert!(notice.name.len() <= 63 && notice.text.starts_with(&notice.name), "{notice:?}");
    assert_eq!((notice.sound, notice.voice), (None, None));
    let reward = engine.sound_id("reward").unwrap();
    engine.play(reward, 1.0, 1.0, 0.0).unwrap();
    engine.play(reward, 1.0, 1.0, 0.0).unwrap();
    render(&mut engine, 0.1);
    let events: Vec<Event> = engine.events().collect();
    let count = |kind: EventKind| events.iter().filter(|e| e.kind == kind).count();
    assert_eq!((count(EventKind::Started), count(EventKind::Coalesced)), (1, 1), "two triggers at once: {events:?}");
    let coalesced = events.iter().find(|e| e.kind == EventKind::Coalesced).unwrap();
    assert_eq!((coalesced.name.as_str(), coalesced.text.as_str()), ("reward", "reward"));
    assert!(coalesced.voice.is_some(), "{coalesced:?}");
}

/// The crash this crate once had (a 344-byte event written into an 88-byte struct) cannot recur:
/// the library writes no byte past the size the caller states. An older, smaller struct gets its
/// leading fields; the bytes after it stay as they were.
#[test]
fn poll_event_writes_no_byte_past_the_stated_size() {
    let mut engine = offline();
    let reward = engine.sound_id("reward").unwrap();
    engine.play(reward, 1.0, 1.0, 0.0).unwrap();
    render(&mut engine, 0.1);
    let full = std::mem::size_of::<soundstation::sys::ss_event>();
    for stated in [88usize, 24, full] {
        let mut bytes = vec![0xA5u8; full + 64];
        // SAFETY: the buffer holds `full + 64` bytes, more than `stated`; the engine is open.
        let got = unsafe {
            soundstation::sys::ss_poll_event(engine.as_raw(), bytes.as_mut_ptr().cast(), stated)
        };
        assert!(got >= 0, "ss_poll_event with size {stated}: {got}");
        assert!(bytes[stated..].iter().all(|b| *b == 0xA5), "bytes past {stated} were written");
        if got == 1 {
            assert_eq!(i32::from_ne_bytes(bytes[0..4].try_into().unwrap()), soundstation::sys::SS_EVENT_STARTED);
        }
        engine.play(reward, 1.0, 1.0, 0.0).unwrap();
        render(&mut engine, 0.1);
    }
}

#[test]
fn errors_name_the_value_in_rust_terms() {
    let bad = Engine::open_spec("speakers", None).err().expect("speakers is not an output");
    assert_eq!(bad.code, ErrorCode::InvalidArgument);
    assert!(bad.message.contains("speakers"), "{}", bad.message);

    let missing = Engine::open(Output::Offline { rate: 48_000 }, Some(Path::new("/nonexistent/assets"))).err().unwrap();
    assert_eq!(missing.code, ErrorCode::Catalogue);
    assert!(missing.message.contains("/nonexistent/assets"), "{}", missing.message);
    let rate = Engine::open(Output::Offline { rate: 5 }, None).err().unwrap();
    assert!(rate.code == ErrorCode::InvalidArgument && rate.message.contains('5'), "{}", rate.message);

    let mut engine = offline();
    let unknown = engine.sound_id("rewrad").unwrap_err();
    assert_eq!(unknown.code, ErrorCode::UnknownName);
    assert!(unknown.message.contains("rewrad"), "{}", unknown.message);
    let not_loaded = engine.sound_id("jump").unwrap_err();
    assert_eq!(not_loaded.code, ErrorCode::NotLoaded);
    assert!(not_loaded.message.contains("jump") && !not_loaded.message.contains("ss_"), "{}", not_loaded.message);

    let reward = engine.sound_id("reward").unwrap();
    let nan = engine.play(reward, 1.0, 1.0, f32::NAN).unwrap_err();
    assert_eq!(nan.code, ErrorCode::InvalidArgument);
    assert!(nan.message.starts_with("Engine::play:") && !nan.message.contains("ss_"), "{}", nan.message);
    let pitch = engine.play_voice(reward, &PlayOptions::new().pitch(99.0)).unwrap_err();
    assert!(pitch.code == ErrorCode::InvalidArgument && pitch.message.contains("99"), "{}", pitch.message);
    let preset = engine.set_reverb(Bus::Effects, Some("carpark")).unwrap_err();
    assert!(preset.code == ErrorCode::UnknownName && preset.message.contains("carpark"), "{}", preset.message);
    let nul = engine.sound_id("re\0ward").unwrap_err();
    assert_eq!(nul.code, ErrorCode::InvalidArgument);
    let mut odd = [0.0f32; 3];
    assert_eq!(engine.render(&mut odd).unwrap_err().code, ErrorCode::InvalidArgument);
    assert_eq!(ErrorCode::UnknownName.c_name(), "SS_ERR_UNKNOWN_NAME");

    let mut live = Engine::open(Output::Silent, None).unwrap();
    assert_eq!(live.render(&mut [0.0; 2]).unwrap_err().code, ErrorCode::NotOffline);
    assert_eq!(live.output(), "silent");
}

#[test]
fn every_other_call_works() {
    let mut engine = offline_with(&["reward", "game"]);
    let reward = engine.sound_id("reward").unwrap();
    engine.set_grid(80, 24).unwrap();
    engine.set_listener(40.0, 12.0, 0.0).unwrap();
    assert_eq!(engine.play_position(reward, 0.0, 12.0, 1.0, 1.0), Ok(true));
    engine.set_filter(Bus::Effects, Filter::Lowpass, 1000.0, std::f32::consts::FRAC_1_SQRT_2, 0.0).unwrap();
    engine.set_reverb(Bus::Effects, Some("cave")).unwrap();
    engine.set_volume(Bus::Master, 0.8).unwrap();
    engine.music_with("game", &MusicOptions::new().at(MusicPoint::Bars(1)).crossfade(0.0)).unwrap();
    engine.music_intensity(0.5, 0.0).unwrap();
    engine.pause_all().unwrap();
    engine.resume_all().unwrap();
    engine.stop_effects(0.0).unwrap();
    engine.cancel_preload().unwrap();
    assert!(both(&render(&mut engine, 1.0)) > 1e-6);
    let position = engine.music_position().unwrap().expect("game has a tempo");
    assert!(position.bar >= 1 && position.beat >= 1, "{position:?}");
    assert!((engine.time().unwrap() - 1.0).abs() < 1e-9);
    engine.stop_music(0.1).unwrap();
    engine.set_filter(Bus::Effects, Filter::Off, 0.0, 0.0, 0.0).unwrap();
    engine.set_reverb(Bus::Effects, None).unwrap();
    assert_eq!(soundstation::library_version() / 10000, soundstation::sys::SS_API_VERSION / 10000);
}

#[test]
fn preload_reports_progress_and_is_cancelled_from_another_thread() {
    let engine = Engine::open_with(&OpenOptions::new(Output::Offline { rate: 48_000 }).assets(&assets())).unwrap();
    let mut fractions = Vec::new();
    engine.preload_with_progress(Some(&["reward", "jump"]), |f| fractions.push(f)).unwrap();
    assert_eq!(fractions.len(), 2);
    assert_eq!(fractions[1], 1.0);
    let trigger = engine.trigger();
    let cancelled = engine.preload_with_progress(None, |_| {
        trigger.cancel_preload().unwrap();
        std::thread::sleep(Duration::from_millis(50));
    });
    assert_eq!(cancelled.unwrap_err().code, ErrorCode::Cancelled);
}

#[test]
fn engines_voices_and_triggers_cross_threads() {
    fn send_sync<T: Send + Sync>() {}
    fn copy<T: Copy>() {}
    send_sync::<Engine>();
    send_sync::<Trigger>();
    send_sync::<soundstation::Voice>();
    copy::<Trigger>();
    let engine = offline();
    let trigger = engine.trigger();
    let reward = engine.sound_id("reward").unwrap();
    let voice = engine.play_voice(reward, &PlayOptions::new().forever()).unwrap();
    std::thread::spawn(move || assert_eq!(trigger.play(reward, 1.0, 1.0, 0.0), Ok(true))).join().unwrap();
    std::thread::spawn(move || voice.set_volume(0.5, 0.0)).join().unwrap().unwrap();
    drop(engine);
    assert_eq!(trigger.play(reward, 1.0, 1.0, 0.0), Err(ErrorCode::Closed));
    assert_eq!(voice.stop(0.0).unwrap_err().code, ErrorCode::Closed);
}

// A trigger from a SIGALRM handler: std only, so signal(2) and alarm(2) are declared here.
extern "C" {
    fn signal(signum: i32, handler: extern "C" fn(i32)) -> usize;
    fn alarm(seconds: u32) -> u32;
}
const SIGALRM: i32 = 14;
/// The trigger and sound the handler plays, set before the alarm (a leaked box: an atomic load is
/// all the handler does to reach it; OnceLock would need Rust 1.70).
static ARMED: AtomicPtr<(Trigger, SoundId)> = AtomicPtr::new(std::ptr::null_mut());
static HANDLED: AtomicI32 = AtomicI32::new(-100);

extern "C" fn on_alarm(_: i32) {
    // Async-signal-safe: an atomic load (set before the alarm), ss_play, an atomic store.
    // SAFETY: the pointer is null or a leaked Box that is never freed.
    if let Some((trigger, sound)) = unsafe { ARMED.load(Ordering::SeqCst).as_ref() } {
        let code = match trigger.play(*sound, 1.0, 1.0, 0.0) {
            Ok(true) => 0,
            Ok(false) => 1,
            Err(_) => -1,
        };
        HANDLED.store(code, Ordering::SeqCst);
    }
}

#[test]
fn a_trigger_plays_from_a_sigalrm_handler() {
    let mut engine = offline();
    let reward = engine.sound_id("reward").unwrap();
    ARMED.store(Box::into_raw(Box::new((engine.trigger(), reward))), Ordering::SeqCst);
    // SAFETY: installing a handler that only does async-signal-safe work.
    unsafe {
        signal(SIGALRM, on_alarm);
        alarm(1);
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    while HANDLED.load(Ordering::SeqCst) == -100 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(HANDLED.load(Ordering::SeqCst), 0, "the handler's ss_play was handed to the mixer");
    // Offline, a sound played "now" starts at the next frame rendered: the same onset as at 0.
    let buffer = render(&mut engine, 1.0);
    let lead = onset(0.0).unwrap();
    assert_eq!(first_sound(&buffer), Some(lead));
}

/// FNV-1a, 64-bit, of the floats' little-endian bytes (Tests/Synth/README.md).
fn fnv1a(samples: &[f32]) -> String {
    let mut value: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in samples.iter().flat_map(|s| s.to_le_bytes()) {
        value = (value ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
    }
    format!("{value:016x}")
}

#[test]
fn synth_renders_the_same_bytes_as_swift() {
    let golden = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../Tests/Synth/coin-seed7.fnv1a"),
    )
    .expect("the golden hash");
    let mut engine = Engine::open(Output::Offline { rate: RATE as u32 }, None).expect("offline engine");
    let coin = engine.synth("coin", r#"{"preset": "coin", "seed": 7}"#).expect("synth");
    assert!(engine.play(coin, 1.0, 1.0, 0.0).expect("play"));
    let samples = render(&mut engine, 0.5);
    assert!(energy(&samples, 0) > 1e-4);
    assert_eq!(fnv1a(&samples), golden.trim());
    // Another seed, other bytes; a bad preset is an error naming it.
    let other = engine.synth("coin2", r#"{"preset": "coin", "seed": 8}"#).expect("synth");
    assert!(engine.play(other, 1.0, 1.0, 0.0).expect("play"));
    assert_ne!(fnv1a(&render(&mut engine, 0.5)), golden.trim());
    let error = engine.synth("x", r#"{"preset": "kazoo"}"#).unwrap_err();
    assert_eq!(error.code, ErrorCode::InvalidArgument);
    assert!(error.message.contains("kazoo"), "{}", error.message);
    assert_eq!(engine.synth("coin", r#"{"preset": "coin"}"#).unwrap_err().code, ErrorCode::InvalidArgument);
}
