//! Catch, a terminal game in Rust with std only: stars fall, move the basket with a/d (or the arrow
//! keys) to catch them; q quits. The terminal is put in raw mode with `stty`, the screen drawn with
//! ANSI escapes, and every catch, miss and level is a sound.
//!
//!     cargo run --example catch -- [--autoplay] [--frames N] [--output OUT] [--assets DIR]
use soundstation::{Engine, Error};
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

const WIDTH: i32 = 40;

extern "C" {
    fn isatty(fd: i32) -> i32;
}

/// Whether standard input is a terminal (std's IsTerminal needs Rust 1.70; Debian 12 has 1.63).
fn stdin_is_terminal() -> bool {
    // SAFETY: isatty only reads the descriptor's state.
    unsafe { isatty(0) == 1 }
}
const HEIGHT: i32 = 16;

struct Options {
    autoplay: bool,
    frames: Option<u64>,
    output: String,
    assets: PathBuf,
}

fn options() -> Result<Options, String> {
    let mut options = Options {
        autoplay: false,
        frames: None,
        output: "auto".into(),
        assets: std::env::var("SOUNDSTATION_ASSETS").unwrap_or_else(|_| "Assets".into()).into(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--autoplay" => options.autoplay = true,
            "--frames" => {
                let text = value("--frames")?;
                options.frames = Some(text.parse().map_err(|_| format!("--frames {text:?} is not a count"))?);
            }
            "--output" => options.output = value("--output")?,
            "--assets" => options.assets = value("--assets")?.into(),
            other => return Err(format!("unknown option {other:?} (see the top of examples/catch.rs)")),
        }
    }
    Ok(options)
}

/// Raw mode through `stty` while the game runs; the saved settings come back on drop.
struct RawTerminal(Option<String>);

impl RawTerminal {
    fn enter() -> RawTerminal {
        if !stdin_is_terminal() {
            return RawTerminal(None);
        }
        let saved = Command::new("stty").arg("-g").stdin(Stdio::inherit()).output().ok();
        let _ = Command::new("stty").args(["raw", "-echo"]).stdin(Stdio::inherit()).status();
        print!("\x1b[?25l\x1b[2J");
        RawTerminal(saved.map(|out| String::from_utf8_lossy(&out.stdout).trim().to_string()))
    }
}

impl Drop for RawTerminal {
    fn drop(&mut self) {
        if let Some(saved) = &self.0 {
            let _ = Command::new("stty").arg(saved).stdin(Stdio::inherit()).status();
            print!("\x1b[?25h\x1b[2J\x1b[H");
            let _ = std::io::stdout().flush();
        }
    }
}

fn play(options: Options) -> Result<(u32, u32), Error> {
    let engine = Engine::open_spec(&options.output, Some(&options.assets))?;
    engine.preload(None)?;
    let (coin, miss, level_up) = (engine.sound_id("coin")?, engine.sound_id("miss")?, engine.sound_id("level-up")?);
    engine.music("game", 0.0)?;

    let (keys, input) = mpsc::channel();
    if stdin_is_terminal() {
        std::thread::spawn(move || {
            for byte in std::io::stdin().bytes().map_while(Result::ok) {
                if keys.send(byte).is_err() {
                    break;
                }
            }
        });
    }
    let _terminal = RawTerminal::enter();
    let (mut basket, mut star_x, mut star_y) = (WIDTH / 2, 7, 0);
    let (mut score, mut missed, mut frame) = (0u32, 0u32, 0u64);
    let mut seed = 12345u32;
    let mut random = move |limit: i32| {
        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        ((seed >> 16) % limit as u32) as i32
    };
    loop {
        while let Ok(key) = input.try_recv() {
            match key {
                b'q' => return Ok((score, missed)),
                b'a' | b'D' => basket = (basket - 2).max(1),
                b'd' | b'C' => basket = (basket + 2).min(WIDTH - 2),
                _ => {}
            }
        }
        if options.autoplay {
            basket += (star_x - basket).signum();
        }
        star_y += 1;
        if star_y == HEIGHT - 1 {
            if (star_x - basket).abs() <= 1 {
                score += 1;
                engine.play(coin, 1.0, 1.0, (star_x as f32 / WIDTH as f32) * 2.0 - 1.0)?;
                if score % 10 == 0 {
                    engine.play(level_up, 1.0, 1.0, 0.0)?;
                }
            } else {
                missed += 1;
                engine.play(miss, 1.0, 1.0, 0.0)?;
            }
            star_x = 1 + random(WIDTH - 2);
            star_y = 0;
        }
        let mut screen = String::from("\x1b[H");
        screen += &format!("CATCH  score {score}  missed {missed}  (a/d move, q quits)\r\n");
        for y in 0..HEIGHT {
            let mut row: Vec<char> = vec![' '; WIDTH as usize];
            if y == star_y {
                row[star_x as usize] = '*';
            }
            if y == HEIGHT - 1 {
                for dx in -1..=1 {
                    row[(basket + dx) as usize] = if dx == 0 { '_' } else if dx < 0 { '\\' } else { '/' };
                }
            }
            screen += &format!("|{}|\r\n", row.into_iter().collect::<String>());
        }
        print!("{screen}");
        let _ = std::io::stdout().flush();
        frame += 1;
        if options.frames.map_or(false, |limit| frame >= limit) {
            return Ok((score, missed));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn main() {
    let options = match options() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("catch: {message}");
            std::process::exit(2);
        }
    };
    match play(options) {
        Ok((score, missed)) => println!("catch: score {score}, missed {missed}"),
        Err(error) => {
            eprintln!("catch: {error}");
            std::process::exit(1);
        }
    }
}
