// swift-tools-version: 6.0
import PackageDescription

// The benchmarks of issue 7: SoundStation against raw OpenAL Soft + libvorbis in C and against
// SDL_mixer 2. A package of its own so the main package never builds or needs the peers' libraries.
// Run it with `make bench` from the repository root (Scripts/bench.sh).
// The C peers include the Debian packages' headers directly and link their libraries by name;
// the Swift side reaches OpenAL through the CBenchOpenAL module map. DWARF 4, because Debian 12's
// valgrind 3.19 cannot read clang's default DWARF 5 (for `valgrind --tool=callgrind` profiles).
let warnings: [CSetting] = [.unsafeFlags(["-Wall", "-Wextra", "-gdwarf-4"])]

let package = Package(
    name: "SoundStationBenchmarks",
    dependencies: [
        .package(name: "SoundStation", path: "..")
    ],
    targets: [
        .systemLibrary(
            name: "CBenchOpenAL",
            pkgConfig: "openal",
            providers: [.apt(["libopenal-dev"])]
        ),
        .executableTarget(
            name: "soundstation-bench",
            dependencies: [.product(name: "SoundStation", package: "SoundStation"), "CBenchOpenAL"]
        ),
        .target(
            name: "BenchSupport",
            cSettings: warnings
        ),
        .executableTarget(
            name: "raw-openal-bench",
            dependencies: ["BenchSupport"],
            cSettings: warnings,
            linkerSettings: [
                .linkedLibrary("openal"), .linkedLibrary("vorbisenc"), .linkedLibrary("vorbisfile"),
                .linkedLibrary("vorbis"), .linkedLibrary("ogg"), .linkedLibrary("m"),
            ]
        ),
        .executableTarget(
            name: "sdl-mixer-bench",
            dependencies: ["BenchSupport"],
            // SDL_mixer.h includes SDL's headers by their bare names (Debian's libsdl2-mixer-dev).
            cSettings: warnings + [.unsafeFlags(["-I/usr/include/SDL2"])],
            linkerSettings: [.linkedLibrary("SDL2_mixer"), .linkedLibrary("SDL2")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
