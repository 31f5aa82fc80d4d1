//! The binding as a game uses it, on the library `make test` installs: offline renders measured on
//! their samples, the errors naming their values, and a trigger from a SIGALRM handler.
use soundstation::{Engine, ErrorCode, EventKind, SoundId, Trigger};
use std::path::PathBuf;
use std::sync::atomic::{AtomicI32, AtomicPtr, Ordering};
use std::time::{Duration, Instant};

const RATE: usize = 48_000;

fn assets() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../Assets")
}

fn offline() -> Engine {
    let engine = Engine::open("offline:48000", Some(&assets())).expect("offline engine");
    engine.preload(Some(&["reward"])).expect("preload reward");
    engine
}

fn first_sound(samples: &[f32]) -> Option<usize> {
    samples.chunks(2).position(|frame| frame[0] != 0.0 || frame[1] != 0.0)
}

/// The first sounding frame of reward played at `at` seconds, in one second rendered offline.
fn onset(at: f64) -> Option<usize> {
    let mut engine = offline();
    let reward = engine.sound_id("reward").unwrap();
    assert_eq!(engine.play_at(reward, at, 1.0, 0.0), Ok(true));
    let mut buffer = vec![0.0f32; 2 * RATE];
    assert_eq!(engine.render(&mut buffer), Ok(RATE));
    first_sound(&buffer)
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
fn events_report_the_start() {
    let mut engine = offline();
    let reward = engine.sound_id("reward").unwrap();
    engine.play_at(reward, 0.1, 1.0, 0.0).unwrap();
    let mut buffer = vec![0.0f32; 2 * 9600];
    engine.render(&mut buffer).unwrap();
    let event = engine.poll_event().unwrap().expect("an event");
    assert_eq!(event.kind, EventKind::Started);
    assert_eq!(event.sound, Some(reward));
    assert_eq!(event.name, "reward");
    assert!((event.time - 0.1).abs() < 1e-9, "started at {}", event.time);
    assert_eq!(engine.output(), "offline:48000");
    assert_eq!(engine.sample_rate(), Ok(48_000));
}

#[test]
fn errors_name_the_value() {
    let bad = Engine::open("speakers", None).err().expect("speakers is not an output");
    assert_eq!(bad.code, ErrorCode::InvalidArgument);
    assert!(bad.message.contains("speakers"), "{}", bad.message);

    let missing = Engine::open("offline", Some(std::path::Path::new("/nonexistent/assets"))).err().unwrap();
    assert_eq!(missing.code, ErrorCode::Catalogue);
    assert!(missing.message.contains("/nonexistent/assets"), "{}", missing.message);

    let mut engine = offline();
    let unknown = engine.sound_id("rewrad").unwrap_err();
    assert_eq!(unknown.code, ErrorCode::UnknownName);
    assert!(unknown.message.contains("rewrad"), "{}", unknown.message);
    let not_loaded = engine.sound_id("jump").unwrap_err();
    assert_eq!(not_loaded.code, ErrorCode::NotLoaded);
    assert!(not_loaded.message.contains("jump"), "{}", not_loaded.message);

    let nan = engine.play_at(engine.sound_id("reward").unwrap(), f64::NAN, 1.0, 0.0).unwrap_err();
    assert_eq!(nan.code, ErrorCode::InvalidArgument);
    let bus = engine.set_volume("drums", 0.5).unwrap_err();
    assert!(bus.message.contains("drums"), "{}", bus.message);
    let nul = engine.sound_id("re\0ward").unwrap_err();
    assert_eq!(nul.code, ErrorCode::InvalidArgument);
    let mut odd = [0.0f32; 3];
    assert_eq!(engine.render(&mut odd).unwrap_err().code, ErrorCode::InvalidArgument);

    let mut live = Engine::open("silent", None).unwrap();
    assert_eq!(live.render(&mut [0.0; 2]).unwrap_err().code, ErrorCode::NotOffline);
}

#[test]
fn engines_and_triggers_cross_threads() {
    fn send_sync<T: Send + Sync>() {}
    fn copy<T: Copy>() {}
    send_sync::<Engine>();
    send_sync::<Trigger>();
    copy::<Trigger>();
    let engine = offline();
    let trigger = engine.trigger();
    let reward = engine.sound_id("reward").unwrap();
    std::thread::spawn(move || assert_eq!(trigger.play(reward, 1.0, 1.0, 0.0), Ok(true))).join().unwrap();
    drop(engine);
    assert_eq!(trigger.play(reward, 1.0, 1.0, 0.0), Err(ErrorCode::Closed));
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
    let mut buffer = vec![0.0f32; 2 * RATE];
    engine.render(&mut buffer).unwrap();
    let lead = onset(0.0).unwrap();
    assert_eq!(first_sound(&buffer), Some(lead));
}
