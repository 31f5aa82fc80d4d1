// swift-tools-version: 6.0
import PackageDescription

/// `make tsan` and `make asan` set this: the sanitizer's runtime comes from the test program, so the C
/// library may not insist that every symbol resolves at link time.
let sanitizing = Context.environment["SOUNDSTATION_SANITIZE"] != nil

/// How libSoundStationC.so is linked: with the Swift runtime's static archives inside it (a shared
/// library's link does not pull those in by itself; --no-undefined makes a missing one fail the
/// build), its soname, and a version script exporting exactly the header's functions.
///
/// Small (issue 22; `make size`): the package imports no Foundation (not even FoundationEssentials;
/// Sources/SoundStation/Platform has the few things it used), so only the Swift runtime is inside.
/// lld with packed relative relocations (DT_RELR, glibc >= 2.36) drops what gold keeps: 7.4 MiB
/// stripped against 7.8 MiB with gold and 56 MiB with Foundation (Docs/Packages.md, "Sizes").
/// `-z now`: relocations resolved at load and then read-only (full RELRO), as Debian expects.
let cLibraryLinkFlags =
    [
        "-static-stdlib", "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
        "-Xlinker", "-z", "-Xlinker", "now",
        "-Xlinker", "-soname=libsoundstation.so.1",
        "-Xlinker", "--version-script=\(Context.packageDirectory)/Sources/SoundStationC/exports.map",
    ] + (sanitizing ? [] : ["-Xlinker", "--no-undefined"])

/// How the CLIs are linked: lld with packed relative relocations and `-z now`, as the C library (see
/// above), which keeps each a few megabytes smaller when `make install-bin` links the Swift runtime in.
let cliLinkerSettings: [LinkerSetting] = [
    .unsafeFlags([
        "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "-z", "-Xlinker",
        "now",
    ])
]

let package = Package(
    name: "SoundStation",
    products: [
        .library(name: "SoundStation", targets: ["SoundStation"]),
        .executable(name: "soundstation", targets: ["soundstation"]),
        .executable(name: "soundstation-assets", targets: ["soundstation-assets"]),
        .executable(name: "starfall", targets: ["starfall"]),
        .library(name: "VoiceNotes", targets: ["VoiceNotes"]),
        .executable(name: "voicenote", targets: ["voicenote"]),
        .library(name: "SoundStationTesting", targets: ["SoundStationTesting"]),
        .library(name: "TerminalKit", targets: ["TerminalKit"]),
        // The C library: `make install` installs it as libsoundstation.so.1 (see the Makefile).
        .library(name: "SoundStationC", type: .dynamic, targets: ["SoundStationC"]),
    ],
    targets: [
        .systemLibrary(
            name: "COpenAL",
            pkgConfig: "openal",
            providers: [.apt(["libopenal-dev"])]
        ),
        .systemLibrary(
            name: "CVorbis",
            pkgConfig: "vorbisfile",
            providers: [.apt(["libvorbis-dev"])]
        ),
        .systemLibrary(
            name: "CSoundTouch",
            providers: [.apt(["libsoundtouch-dev"])]
        ),
        .systemLibrary(
            name: "COpus",
            pkgConfig: "opus",
            providers: [.apt(["libopus-dev"])]
        ),
        .systemLibrary(
            name: "CSndFile",
            pkgConfig: "sndfile",
            providers: [.apt(["libsndfile1-dev"])]
        ),
        .systemLibrary(
            name: "CXMP",
            pkgConfig: "libxmp",
            providers: [.apt(["libxmp-dev"])]
        ),
        // Chiptune rips (NSF, SPC, GBS, VGM, ...) through Game Music Emu.
        .systemLibrary(
            name: "CGME",
            pkgConfig: "libgme",
            providers: [.apt(["libgme-dev"])]
        ),
        // Starfall's window reaches SDL2 through a table of function pointers filled by dlopen when
        // a window opens (include/CSDL2.h): the binary does not link SDL2, so the autoplay and
        // terminal front ends start without loading it and its ~35 libraries. SDL's headers
        // (libsdl2-dev, Scripts/install-deps.sh) give the types; no pkgConfig, whose -D_REENTRANT
        // SwiftPM would warn about in every build of every game that depends on this package.
        .target(name: "CSDL2", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "CSoundStationRT"),
        // Standard MIDI files through FluidSynth and a SoundFont: loaded with dlopen when a MIDI file
        // opens (include/CFluidSynth.h says why); its header (libfluidsynth-dev) gives the types.
        .target(name: "CFluidSynth", linkerSettings: [.linkedLibrary("dl")]),
        .target(
            name: "SoundStation",
            dependencies: [
                "COpenAL", "CVorbis", "CSoundStationRT", "CSndFile", "CXMP", "CGME", "CFluidSynth",
                "CSoundTouch", "COpus",
            ]
        ),
        // The player's side of sound over SSH (`soundstation ssh`, `listen`, `render --session`): the
        // session's player, asset cache, clock mapping, speaker and stream decoder. Only the CLI
        // links it; the library every game loads (and libSoundStationC.so) keeps the game's side.
        .target(name: "SoundStationPlayer", dependencies: ["SoundStation", "COpenAL", "COpus"]),
        .target(name: "SoundStationTesting", dependencies: ["SoundStation"]),
        .target(name: "TerminalKit"),
        .target(name: "CommandLineKit", dependencies: ["SoundStation"]),
        .testTarget(name: "TerminalKitTests", dependencies: ["TerminalKit"]),
        .testTarget(name: "CommandLineKitTests", dependencies: ["CommandLineKit"]),
        .executableTarget(
            name: "soundstation",
            dependencies: ["SoundStation", "SoundStationPlayer", "CommandLineKit"],
            linkerSettings: cliLinkerSettings
        ),
        .executableTarget(
            name: "soundstation-assets",
            dependencies: ["SoundStation", "CommandLineKit"],
            linkerSettings: cliLinkerSettings
        ),
        .executableTarget(
            name: "soundstation-example",
            dependencies: ["SoundStation"],
            path: "Examples/QuickStart"
        ),
        .testTarget(
            name: "SoundStationTests",
            dependencies: ["SoundStation", "SoundStationPlayer", "CSndFile", "SoundStationTesting"],
            // Golden renders are read from the source tree (#filePath), never from a bundle.
            exclude: ["Golden"]
        ),
        .target(
            name: "StarfallCore",
            dependencies: ["SoundStation"]
        ),
        .executableTarget(
            name: "starfall",
            dependencies: [
                "StarfallCore", "SoundStation", "VoiceNotes", "CSDL2", "TerminalKit", "CommandLineKit",
            ],
            linkerSettings: cliLinkerSettings
        ),
        .testTarget(
            name: "StarfallTests",
            dependencies: ["StarfallCore", "SoundStation", "SoundStationTesting"]
        ),
        .target(name: "VoiceNotes", dependencies: ["SoundStation", "TerminalKit"]),
        .executableTarget(
            name: "voicenote", dependencies: ["VoiceNotes", "SoundStation", "TerminalKit", "CommandLineKit"],
            linkerSettings: cliLinkerSettings),
        .testTarget(
            name: "VoiceNotesTests", dependencies: ["VoiceNotes", "SoundStation", "SoundStationTesting"]),
        // The C API: the public header and the thread-local error message, in C.
        .target(name: "CSoundStation", dependencies: ["CSoundStationRT"]),
        // The C API's functions (`@_cdecl`), linked into libSoundStationC.so with the Swift runtime
        // inside it, so a game runs it on a machine without the Swift toolchain. The version
        // script exports exactly the header's functions and names the soname's version.
        .target(
            name: "SoundStationC",
            dependencies: ["SoundStation", "CSoundStation"],
            exclude: ["exports.map"],
            linkerSettings: [
                .unsafeFlags(cLibraryLinkFlags)
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
