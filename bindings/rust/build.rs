//! Links libsoundstation: the flags `pkg-config --libs soundstation` gives (its -L, -l and the
//! -Wl,-rpath that lets tests and games run without LD_LIBRARY_PATH), else
//! $SOUNDSTATION_LIB_DIR, else the linker's default search (a Debian package puts it there).
use std::env;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");
    println!("cargo:rerun-if-env-changed=SOUNDSTATION_LIB_DIR");
    if let Ok(dir) = env::var("SOUNDSTATION_LIB_DIR") {
        println!("cargo:rustc-link-search=native={dir}");
        println!("cargo:rustc-link-arg=-Wl,-rpath,{dir}");
        println!("cargo:rustc-link-lib=dylib=soundstation");
        return;
    }
    let output = Command::new("pkg-config").args(["--libs", "soundstation"]).output();
    let flags = match output {
        Ok(out) if out.status.success() => String::from_utf8_lossy(&out.stdout).into_owned(),
        _ => {
            println!(
                "cargo:warning=pkg-config does not know soundstation (install libsoundstation-dev or \
                 `make install-lib`, or set PKG_CONFIG_PATH or SOUNDSTATION_LIB_DIR); linking -lsoundstation"
            );
            println!("cargo:rustc-link-lib=dylib=soundstation");
            return;
        }
    };
    for flag in flags.split_whitespace() {
        if let Some(dir) = flag.strip_prefix("-L") {
            println!("cargo:rustc-link-search=native={dir}");
        } else if let Some(lib) = flag.strip_prefix("-l") {
            println!("cargo:rustc-link-lib=dylib={lib}");
        } else if flag.starts_with("-Wl,") {
            println!("cargo:rustc-link-arg={flag}");
        }
    }
}
