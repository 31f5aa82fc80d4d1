#!/usr/bin/env bash
# make dist-test: dist/'s packages installed where no Swift toolchain has ever been, as a game author
# installs them. A minimal Debian 12 root (debootstrap --variant=minbase from the package mirror, plus
# a C compiler, pkg-config and python3-venv: a game author's tools, not ours) is made once and cached
# as a tarball; each run unpacks a fresh copy, chroots into it and:
#   - apt-get installs ./libsoundstation1_*.deb ./libsoundstation-dev_*.deb, which pulls the runtime
#     packages their Depends name (OpenAL Soft, libvorbis, libsndfile, libxmp) from the mirror;
#   - builds Tests/Dist/onset.c with `pkg-config --cflags --libs soundstation` and runs it: the reward
#     effect rendered offline starts at its exact frame, a bad name is refused with its name;
#   - pip installs the wheel into a venv (nothing else: no library, no pkg-config file) and runs
#     Tests/Dist/onset.py, which checks the same;
#   - apt-get installs ./soundstation-tools_*.deb: `soundstation render` and Starfall's autoplay run,
#     Starfall finding its sounds in /usr/share/soundstation/Assets.
# Downloaded .debs are kept in the cache too, so a second run needs the mirror only for its index.
# Needs root (chroot, mounts) and the mirror (DEBIAN_MIRROR, default deb.debian.org). Builds dist/
# first when it is missing (make dist).
# Usage: Scripts/dist-test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
suite=bookworm
cache=${SOUNDSTATION_CACHE:-$HOME/.cache/soundstation}/debootstrap
base="$cache/$suite-minbase.tar.zst"
archives="$cache/$suite-archives"
tools="build-essential pkg-config python3-venv ca-certificates"

[ "$(id -u)" -eq 0 ] || { echo "dist-test: needs root (debootstrap, chroot)" >&2; exit 1; }
command -v debootstrap >/dev/null || apt-get install -y -qq debootstrap zstd >/dev/null
ls dist/libsoundstation-dev_*.deb dist/soundstation-*.whl >/dev/null 2>&1 || Scripts/dist.sh

work=$(mktemp -d /tmp/soundstation-dist-test.XXXXXX)
chroot_dir="$work/root"
mounted=()
cleanup() {
    local m
    for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[i]}" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

if [ ! -f "$base" ]; then
    echo "== debootstrap $suite (minbase + $tools) from $mirror, once; cached in $base"
    mkdir -p "$cache"
    debootstrap --variant=minbase --include="${tools// /,}" "$suite" "$chroot_dir" "$mirror" >"$work/debootstrap.log" 2>&1 ||
        { tail -20 "$work/debootstrap.log"; exit 1; }
    rm -f "$chroot_dir"/var/cache/apt/archives/*.deb
    tar -C "$chroot_dir" --zstd -cf "$base.partial" . && mv "$base.partial" "$base"
    rm -rf "$chroot_dir"
fi

echo "== a fresh Debian $suite root"
mkdir -p "$chroot_dir"
tar -C "$chroot_dir" --zstd -xf "$base"
mkdir -p "$archives"
cp -a "$archives"/. "$chroot_dir/var/cache/apt/archives/" 2>/dev/null || true
cp /etc/resolv.conf "$chroot_dir/etc/resolv.conf"
echo "deb $mirror $suite main" >"$chroot_dir/etc/apt/sources.list"
for m in proc sys dev; do
    mount --bind "/$m" "$chroot_dir/$m"
    mounted+=("$chroot_dir/$m")
done
mkdir -p "$chroot_dir/root/game"
cp dist/*.deb dist/*.whl Tests/Dist/onset.c Tests/Dist/onset.py "$chroot_dir/root/game/"
cp -R Assets "$chroot_dir/root/game/Assets"

in_root() { chroot "$chroot_dir" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin \
    DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 /bin/sh -ec "cd /root/game; $1"; }

status=0
check() { # check NAME COMMAND: runs COMMAND in the root, shows its output, counts a failure
    local started=$SECONDS
    if in_root "$2" >"$work/out" 2>&1; then
        echo "ok   $1 ($((SECONDS - started)) s)"
        sed 's/^/     /' "$work/out"
    else
        echo "FAIL $1"
        sed 's/^/     /' "$work/out"
        status=1
    fi
}

check "no Swift toolchain in the root" \
    '! command -v swift && ! command -v swiftc && test -z "$(find / -xdev -name "libswiftCore*" -print -quit)" && echo "no swift, no libswiftCore"'
check "apt-get install ./libsoundstation-dev_*.deb pulls its dependencies" \
    'apt-get update -qq >/dev/null 2>&1 || true
     apt-get install -y -qq --no-install-recommends ./libsoundstation1_*.deb ./libsoundstation-dev_*.deb >/tmp/apt.log 2>&1 || { tail -20 /tmp/apt.log; exit 1; }
     dpkg-query -W -f="\${Package} \${Version}\n" libsoundstation1 libsoundstation-dev libopenal1 libvorbisfile3 libsndfile1 libxmp4 libsoundtouch1'
check "a C game builds with pkg-config and renders reward at its exact frame" \
    'cc -std=c99 -Wall -Wextra -Werror -o onset onset.c $(pkg-config --cflags --libs soundstation) -lm
     ldd ./onset | grep soundstation
     ./onset Assets'
check "the wheel installs into a venv; a Python game renders reward at its exact frame" \
    'apt-get remove -y -qq libsoundstation-dev libsoundstation1 >/dev/null 2>&1
     python3 -m venv /root/venv
     /root/venv/bin/pip install -q --no-index ./soundstation-*.whl
     /root/venv/bin/python onset.py Assets'
ls "$chroot_dir"/root/game/soundstation-tools_*.deb >/dev/null 2>&1 || { echo "skip soundstation-tools (not built: DIST_TOOLS=0)"; tools_skipped=1; }
[ -n "${tools_skipped:-}" ] || check "soundstation-tools installs; soundstation renders, Starfall finds its sounds" \
    'apt-get install -y -qq --no-install-recommends ./soundstation-tools_*.deb >/tmp/apt.log 2>&1 || { tail -20 /tmp/apt.log; exit 1; }
     cd /tmp && soundstation --version && soundstation render --seconds 1 --out /tmp/r.wav --assets /root/game/Assets 0.25:effect:reward
     starfall --autoplay 2 --seed 1 --audio-out /tmp/starfall.wav >/tmp/starfall.log 2>&1 || { cat /tmp/starfall.log; exit 1; }
     grep "starfall: autoplay" /tmp/starfall.log; ls -l /tmp/starfall.wav'

cp -an "$chroot_dir"/var/cache/apt/archives/*.deb "$archives/" 2>/dev/null || true
[ "$status" -eq 0 ] && echo "dist-test: all passed" || echo "dist-test: FAILED" >&2
exit "$status"
