#!/usr/bin/env bash
# make dist: what a game author installs without a Swift toolchain, built into dist/:
#   soundstation-VERSION-py3-none-manylinux_2_36_x86_64.whl the Python package with libsoundstation.so.1 inside
#   libsoundstation1_VERSION-1_amd64.deb             the library (Depends from its shared libraries)
#   libsoundstation-dev_VERSION-1_amd64.deb          soundstation.h, soundstation.pc, the .so link
#   soundstation-tools_VERSION-1_amd64.deb           the CLIs and Starfall, with Starfall's sounds
#   soundstation-VERSION.tar.gz                      the source (git archive of HEAD)
# The packages are built with dpkg-deb from `make install-lib` / `make install-bin` into a staging
# folder; Depends come from dpkg-shlibdeps over the binaries; lintian checks each package and the
# build fails on any tag not overridden (the overrides, each with its reason, ship in the package).
# Usage: Scripts/dist.sh
#   DIST_TOOLS=0    leaves out soundstation-tools (no release build of the four programs: CI's
#                   make dist-test checks the library's packages and the wheel, in less time)
#   DIST_LINTIAN=0  skips lintian (CI; make dist runs it)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
version=$(sed -n 's/^SS_VERSION = //p' Makefile)
revision=1
arch=$(dpkg --print-architecture)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)
out="$root/dist"
stage="$root/.build/dist"
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct)}
maintainer="SoundStation authors <soundstation@users.noreply.github.com>"
homepage="https://github.com/soundstation/soundstation"

rm -rf "$stage" "$out"
mkdir -p "$stage" "$out"

echo "== build and stage (make install-lib, make install-bin)"
make -s install-lib PREFIX=/usr LIBDIR="/usr/lib/$multiarch" DESTDIR="$stage/lib" >/dev/null
tools=${DIST_TOOLS:-1}
[ "$tools" = 0 ] || make -s install-bin PREFIX=/usr DESTDIR="$stage/tools" >/dev/null
library="$stage/lib/usr/lib/$multiarch/libsoundstation.so.$version"

echo "== wheel"
"$root/Scripts/build-wheel.py" "$library" "$out"

# --- Debian packages -------------------------------------------------------------------------------

# doc_files PACKAGE TREE: copyright and changelog, as Debian policy asks of every package.
doc_files() {
    local doc="$2/usr/share/doc/$1"
    install -d "$doc"
    {
        echo "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
        echo "Upstream-Name: soundstation"
        echo "Source: $homepage"
        echo
        echo "Files: *"
        echo "Copyright: 2026 The SoundStation authors"
        echo "License: Expat"
        echo
        echo "License: Expat"
        sed -n '/^Permission/,$p' LICENSE | sed -e 's/^$/./' -e 's/^/ /'
    } >"$doc/copyright"
    {
        echo "soundstation ($version-$revision) unstable; urgency=medium"
        echo
        echo "  * Built by make dist from $(git rev-parse --short HEAD)."
        echo
        echo " -- $maintainer  $(date -R -u -d "@$SOURCE_DATE_EPOCH")"
    } | gzip -9n >"$doc/changelog.Debian.gz"
}

# overrides PACKAGE TREE LINES: lintian overrides, each line "tag [context] # why".
overrides() {
    [ -n "$3" ] || return 0
    install -d "$2/usr/share/lintian/overrides"
    printf '%s\n' "$3" | sed -e 's/^\(.*\) # \(.*\)$/# \2\n\1/' -e "/^#/!s/^/$1: /" >"$2/usr/share/lintian/overrides/$1"
}

# shlibs_depends FILE...: the Depends dpkg-shlibdeps computes from the files' NEEDED libraries and the
# shlibs/symbols files of the Debian packages that provide them.
shlibs_depends() {
    local scratch
    scratch=$(mktemp -d)
    mkdir -p "$scratch/debian"
    printf 'Source: soundstation\n\nPackage: soundstation\nArchitecture: any\n' >"$scratch/debian/control"
    (cd "$scratch" && dpkg-shlibdeps -O "$@" 2>"$scratch/err") | sed -n 's/^shlibs:Depends=//p' || { cat "$scratch/err" >&2; rm -rf "$scratch"; return 1; }
    # Not about the Depends: the binaries are staged outside a debian/PACKAGE tree, and the CLIs'
    # $ORIGIN rpath (SwiftPM's, unused: nothing is beside them) points nowhere dpkg knows.
    grep -v -e 'should already be installed in their package' -e 'ORIGIN is used in RPATH' "$scratch/err" >&2 || true
    rm -rf "$scratch"
}

# Every package: no Debian bug to close, as make dist is not an upload to the archive.
common_overrides="initial-upload-closes-no-bugs # built by make dist for installing by hand, not uploaded to Debian: there is no ITP bug to close"
# Every package with binaries: what lintian reads in the Swift runtime linked into them.
binary_overrides="spelling-error-in-binary # words of the Swift runtime linked in (its Unicode scalar-name tables store names cut into word pieces, such as THROUG and ADDRES), not text of ours
hardening-no-fortify-functions # the Swift runtime's static archives, linked in, are built without _FORTIFY_SOURCE; the package's own C files (Sources/CSoundStationRT, Sources/CSoundStation) are small and bounded"

# build_deb PACKAGE TREE SECTION DEPENDS DESCRIPTION...: writes DEBIAN/control and md5sums, builds.
build_deb() {
    local package=$1 tree=$2 section=$3 depends=$4 extra=$5 synopsis=$6 long=$7
    install -d "$tree/DEBIAN"
    (cd "$tree" && find . -type f ! -path './DEBIAN/*' -printf '%P\0' | sort -z | xargs -0 md5sum >DEBIAN/md5sums)
    {
        echo "Package: $package"
        echo "Source: soundstation"
        echo "Version: $version-$revision"
        echo "Architecture: $arch"
        echo "Maintainer: $maintainer"
        echo "Installed-Size: $(du -sk --exclude=DEBIAN "$tree" | cut -f1)"
        [ -z "$depends" ] || echo "Depends: $depends"
        [ -z "$extra" ] || echo "$extra"
        echo "Section: $section"
        echo "Priority: optional"
        echo "Homepage: $homepage"
        echo "Description: $synopsis"
        printf '%s\n' "$long" | fold -s -w 78 | sed -e 's/ *$//' -e 's/^/ /'
    } >"$tree/DEBIAN/control"
    find "$tree" -type d -exec chmod 755 {} +
    dpkg-deb --build --root-owner-group -Zxz "$tree" "$out/${package}_$version-${revision}_$arch.deb" >/dev/null
    echo "$out/${package}_$version-${revision}_$arch.deb: Depends: ${depends:-none}"
}

echo "== Debian packages"
lib_tree="$stage/deb/libsoundstation1"
install -d "$lib_tree/usr/lib/$multiarch"
cp -a "$library" "$lib_tree/usr/lib/$multiarch/"
ln -s "libsoundstation.so.$version" "$lib_tree/usr/lib/$multiarch/libsoundstation.so.1"
chmod 644 "$lib_tree/usr/lib/$multiarch/libsoundstation.so.$version"
doc_files libsoundstation1 "$lib_tree"
install -d "$lib_tree/DEBIAN"
echo "libsoundstation 1 libsoundstation1 (>= $version)" >"$lib_tree/DEBIAN/shlibs"
printf 'activate-noawait ldconfig\n' >"$lib_tree/DEBIAN/triggers"
overrides libsoundstation1 "$lib_tree" "$common_overrides
$binary_overrides
no-symbols-control-file usr/lib/$multiarch/libsoundstation.so.$version # the version script (SOUNDSTATION_1) exports exactly the header's functions and the shlibs file covers them; a symbols file adds nothing until a second version node"
# Depends (from dpkg-shlibdeps) name libgme0, which the library links. FluidSynth is loaded with
# dlopen when a MIDI file opens (linking it would map its audio drivers' ~40 libraries into every
# game), and a MIDI song needs a General MIDI SoundFont found at run time unless the game ships one:
# both recommended.
soundfont_recommends="Recommends: libfluidsynth3, timgm6mb-soundfont | fluid-soundfont-gm | musescore-general-soundfont"
build_deb libsoundstation1 "$lib_tree" libs "$(shlibs_depends "$lib_tree/usr/lib/$multiarch/libsoundstation.so.$version")" \
    "Multi-Arch: same
$soundfont_recommends" \
    "game sound engine for terminal games (shared library)" \
    "SoundStation plays music and sound effects for games: preloading, effects started from any thread or a signal handler, music with tempo, stems and transitions, positions, filters and reverb, and offline rendering at an exact frame. This package holds libsoundstation.so.1, the C library (OpenAL Soft, Ogg Vorbis, libsndfile, libxmp, Game Music Emu for chiptunes, FluidSynth for MIDI, SoundTouch for tempo), with the Swift runtime linked in: no Swift toolchain is needed."

dev_tree="$stage/deb/libsoundstation-dev"
install -d "$dev_tree/usr/lib/$multiarch/pkgconfig" "$dev_tree/usr/include"
ln -s libsoundstation.so.1 "$dev_tree/usr/lib/$multiarch/libsoundstation.so"
install -m 644 "$stage/lib/usr/include/soundstation.h" "$dev_tree/usr/include/"
install -m 644 "$stage/lib/usr/lib/$multiarch/pkgconfig/soundstation.pc" "$dev_tree/usr/lib/$multiarch/pkgconfig/"
doc_files libsoundstation-dev "$dev_tree"
overrides libsoundstation-dev "$dev_tree" "$common_overrides"
build_deb libsoundstation-dev "$dev_tree" libdevel "libsoundstation1 (= $version-$revision)" "Multi-Arch: same" \
    "game sound engine for terminal games (development files)" \
    "SoundStation plays music and sound effects for games. This package holds what a C, C++, Rust or Go game builds against: soundstation.h, the pkg-config file soundstation.pc and the libsoundstation.so link."

if [ "$tools" != 0 ]; then
tools_tree="$stage/deb/soundstation-tools"
install -d "$tools_tree/usr"
cp -a "$stage/tools/usr/bin" "$stage/tools/usr/share" "$tools_tree/usr/"
install -d "$tools_tree/usr/share/man/man1"
for p in $(ls "$tools_tree/usr/bin"); do
    "$root/Scripts/manpage.sh" "$tools_tree/usr/bin/$p" "$version" | gzip -9n >"$tools_tree/usr/share/man/man1/$p.1.gz"
done
doc_files soundstation-tools "$tools_tree"
overrides soundstation-tools "$tools_tree" "$common_overrides
$binary_overrides"
build_deb soundstation-tools "$tools_tree" sound "$(shlibs_depends "$tools_tree"/usr/bin/*)" "$soundfont_recommends" \
    "game sound engine for terminal games (command-line tools and demo)" \
    "SoundStation plays music and sound effects for games. This package holds its command-line tools: soundstation (play, render and check a catalogue of sounds), soundstation-assets (synthesise the demo's sounds from code), voicenote (record and play voice notes) and starfall, the demo game, with its sounds. Each carries the Swift runtime: no Swift toolchain is needed."
fi

echo "== lintian"
lintian_status=0
[ "${DIST_LINTIAN:-1}" = 0 ] && echo "  skipped (DIST_LINTIAN=0)"
for deb in "$out"/*.deb; do
    [ "${DIST_LINTIAN:-1}" = 0 ] && break
    # Info tags shown too (-I); overridden tags listed with their reasons (--show-overrides).
    if ! lintian -I --show-overrides --fail-on error,warning "$deb" 2>&1 | grep -v 'running with root privileges' >"$stage/lintian.txt"; then
        :
    fi
    grep -q '^[EW]: ' "$stage/lintian.txt" && lintian_status=1
    # Tags left are shown; overridden ones are counted (their reasons are in the override file).
    grep -v '^[ON]: ' "$stage/lintian.txt" | sed "s|^|  |" || true
    echo "  $(basename "$deb"): $(grep -c '^[EW]: ' "$stage/lintian.txt") errors or warnings," \
        "$(grep -c '^O: ' "$stage/lintian.txt") tags overridden (usr/share/lintian/overrides: $(grep -o '^O: [^ ]* [^ ]*' "$stage/lintian.txt" | cut -d' ' -f3 | sort -u | tr '\n' ' '))"
done

echo "== source"
git archive --format=tar.gz --prefix="soundstation-$version/" -o "$out/soundstation-$version.tar.gz" HEAD
echo "$out/soundstation-$version.tar.gz"

(cd "$out" && ls -l | sed 1d)
[ "$lintian_status" -eq 0 ] || { echo "dist: lintian found errors or warnings (above)" >&2; exit 1; }
