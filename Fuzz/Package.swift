// swift-tools-version: 6.0
// libFuzzer targets for the parsers that read untrusted bytes. Built by `make fuzz` with
// `-sanitize=fuzzer`; kept apart so the main build never needs the fuzzer runtime.
import PackageDescription

let package = Package(
    name: "SoundStationFuzz",
    dependencies: [.package(name: "SoundStation", path: "..")],
    targets: [
        .target(name: "FuzzDriver"),
        .executableTarget(
            name: "fuzz-wav",
            dependencies: ["FuzzDriver", .product(name: "SoundStation", package: "SoundStation")],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        .executableTarget(
            name: "fuzz-formats",
            dependencies: ["FuzzDriver", .product(name: "SoundStation", package: "SoundStation")],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        .executableTarget(
            name: "fuzz-remote",
            dependencies: ["FuzzDriver", .product(name: "SoundStation", package: "SoundStation")],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        .executableTarget(
            name: "fuzz-manifest",
            dependencies: ["FuzzDriver", .product(name: "SoundStation", package: "SoundStation")],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
    ],
    swiftLanguageModes: [.v6]
)
