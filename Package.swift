// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "SoundStation",
    products: [
        .library(name: "SoundStation", targets: ["SoundStation"]),
        .executable(name: "soundstation", targets: ["soundstation"]),
        .executable(name: "soundstation-assets", targets: ["soundstation-assets"]),
        .executable(name: "starfall", targets: ["starfall"]),
        .library(name: "VoiceNotes", targets: ["VoiceNotes"]),
        .executable(name: "voicenote", targets: ["voicenote"]),
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
            name: "CSndFile",
            pkgConfig: "sndfile",
            providers: [.apt(["libsndfile1-dev"])]
        ),
        .systemLibrary(
            name: "CXMP",
            pkgConfig: "libxmp",
            providers: [.apt(["libxmp-dev"])]
        ),
        .systemLibrary(
            name: "CSDL2",
            pkgConfig: "sdl2",
            providers: [.apt(["libsdl2-dev"])]
        ),
        .target(
            name: "SoundStation",
            dependencies: ["COpenAL", "CVorbis", "CSndFile", "CXMP"]
        ),
        .executableTarget(
            name: "soundstation",
            dependencies: ["SoundStation"]
        ),
        .executableTarget(
            name: "soundstation-assets",
            dependencies: ["SoundStation"]
        ),
        .executableTarget(
            name: "soundstation-example",
            dependencies: ["SoundStation"],
            path: "Examples/QuickStart"
        ),
        .testTarget(
            name: "SoundStationTests",
            dependencies: ["SoundStation", "CSndFile"]
        ),
        .target(
            name: "StarfallCore",
            dependencies: ["SoundStation"]
        ),
        .executableTarget(
            name: "starfall",
            dependencies: ["StarfallCore", "SoundStation", "VoiceNotes", "CSDL2"]
        ),
        .testTarget(
            name: "StarfallTests",
            dependencies: ["StarfallCore", "SoundStation"]
        ),
        .target(name: "VoiceNotes", dependencies: ["SoundStation"]),
        .executableTarget(name: "voicenote", dependencies: ["VoiceNotes", "SoundStation"]),
        .testTarget(name: "VoiceNotesTests", dependencies: ["VoiceNotes", "SoundStation"]),
    ],
    swiftLanguageModes: [.v6]
)
