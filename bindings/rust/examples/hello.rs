use soundstation::Engine;
use std::{path::Path, thread, time::Duration};

fn main() -> Result<(), soundstation::Error> {
    let engine = Engine::open("auto", Some(Path::new("Assets")))?;
    engine.preload(None)?; // every sound, before the game loop
    let reward = engine.sound_id("reward")?; // look ids up once
    engine.music("main", 0.0)?;
    engine.play(reward, 1.0, 1.0, -0.5)?; // volume, pitch, pan
    thread::sleep(Duration::from_secs(1));
    while let Some(event) = engine.poll_event()? {
        println!("{:?} {}", event.kind, event.name);
    }
    Ok(())
}
