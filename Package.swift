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
        .library(name: "SoundStationTesting", targets: ["SoundStationTesting"]),
        .library(name: "TerminalKit", targets: ["TerminalKit"]),
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
            name: "CSDL2",
            pkgConfig: "sdl2",
            providers: [.apt(["libsdl2-dev"])]
        ),
        .target(name: "CSoundStationRT"),
        .target(
            name: "SoundStation",
            dependencies: ["COpenAL", "CVorbis", "CSoundStationRT"]
        ),
        .target(name: "SoundStationTesting", dependencies: ["SoundStation"]),
        .target(name: "TerminalKit"),
        .target(name: "CommandLineKit"),
        .testTarget(name: "TerminalKitTests", dependencies: ["TerminalKit"]),
        .testTarget(name: "CommandLineKitTests", dependencies: ["CommandLineKit"]),
        .executableTarget(
            name: "soundstation",
            dependencies: ["SoundStation", "CommandLineKit"]
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
            dependencies: ["SoundStation", "SoundStationTesting"]
        ),
        .target(
            name: "StarfallCore",
            dependencies: ["SoundStation"]
        ),
        .executableTarget(
            name: "starfall",
            dependencies: [
                "StarfallCore", "SoundStation", "VoiceNotes", "CSDL2", "TerminalKit", "CommandLineKit",
            ]
        ),
        .testTarget(
            name: "StarfallTests",
            dependencies: ["StarfallCore", "SoundStation", "SoundStationTesting"]
        ),
        .target(name: "VoiceNotes", dependencies: ["SoundStation", "TerminalKit"]),
        .executableTarget(
            name: "voicenote", dependencies: ["VoiceNotes", "SoundStation", "TerminalKit", "CommandLineKit"]),
        .testTarget(
            name: "VoiceNotesTests", dependencies: ["VoiceNotes", "SoundStation", "SoundStationTesting"]),
    ],
    swiftLanguageModes: [.v6]
)
