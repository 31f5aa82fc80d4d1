#!/usr/bin/env bash
# Installs the Debian packages SoundStation needs that are missing, and says which.
# Usage: Scripts/install-deps.sh [build|test|bench|dist]
set -euo pipefail

build=(libopenal-dev libvorbis-dev libsdl2-dev libsndfile1-dev libxmp-dev libgme-dev libfluidsynth-dev libsoundtouch-dev libopus-dev)
# timgm6mb-soundfont: the General MIDI SoundFont MIDI songs play through when the catalogue names none.
test=(timgm6mb-soundfont valgrind pulseaudio pulseaudio-utils sox vorbis-tools espeak-ng tmux xvfb flac opus-tools
    lame mpg123 xmp openssh-server openssh-client procps python3-pytest python3-pytest-xdist)
bench=(libsdl2-mixer-dev)
# make dist and make dist-test: the package tools and the clean root's.
dist=(dpkg-dev lintian debootstrap zstd)
# The Rust and Go bindings' tests: Go from Debian; Rust from Debian unless a cargo (rustup's) is there.
test+=(golang-go pkg-config)
command -v cargo >/dev/null 2>&1 || test+=(cargo)

wanted=("${build[@]}")
case "${1:-build}" in
build) ;;
test) wanted+=("${test[@]}") ;;
bench) wanted+=("${test[@]}" "${bench[@]}") ;;
dist) wanted+=("${dist[@]}") ;;
*) echo "usage: $0 [build|test|bench|dist]" >&2; exit 2 ;;
esac

missing=()
for pkg in "${wanted[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "Installing missing Debian packages: ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then sudo=(); else sudo=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "Installed: ${missing[*]}"
