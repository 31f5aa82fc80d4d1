use soundstation::{Engine, Output, PlayOptions};
use std::{path::Path, thread, time::Duration};

fn main() -> Result<(), soundstation::Error> {
    let engine = Engine::open(Output::Auto, Some(Path::new("Assets")))?;
    engine.preload(None)?; // every sound, before the game loop
    let reward = engine.sound_id("reward")?; // look ids up once
    engine.music("main", 0.0)?;
    engine.play(reward, 1.0, 1.0, -0.5)?; // volume, pitch, pan
    let jump = engine.sound_id("jump")?;
    let hum = engine.play_voice(jump, &PlayOptions::new().forever())?; // a handle to this one play
    thread::sleep(Duration::from_secs(1));
    hum.stop(0.2)?; // that one sound, faded out
    println!("output: {}", engine.output()); // "silent" when there was no device
    for event in engine.events() {
        println!("{:?} {}", event.kind, event.text); // text: the name, or a notice's line
    }
    Ok(())
}
