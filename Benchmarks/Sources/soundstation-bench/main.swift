import Foundation

// soundstation-bench: the engine's side of each benchmark case; Scripts/bench.sh runs it with the
// C peers and combines the JSON lines they print into .build/bench/results.json.
//
//     soundstation-bench prepare --assets DIR --work DIR     make the workspace (tracks, catalogues)
//     soundstation-bench all --work DIR [--runs N] [--only CASES]   CASES: names or groups, by commas
//         [--load-seconds S] [--idle-seconds S]   trigger-under-load (10 s) and idle-music (20 s) runs
//         [--quiet-seconds S]   idle-device and idle-device-active (10 s) runs
//         [--soak-seconds S]   latency-device-low-underruns (60 s)
//     soundstation-bench stream-memory --work DIR --mode streamed|preloaded
//     soundstation-bench session --work DIR --assets DIR [--seconds S]   a game's sound alone (30 s)

let arguments = Array(CommandLine.arguments.dropFirst())

/// The value after `--name`, if given.
func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: "--" + name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

guard let command = arguments.first, let workPath = option("work") else {
    fail(
        "usage: soundstation-bench prepare|all|stream-memory --work DIR [--assets DIR] [--runs N] [--mode M]")
}
let work = Workspace(root: workPath)
DecodedCache.off()
let runs = option("runs").map { Int($0) ?? 0 } ?? 5
guard runs > 0 else { fail("--runs needs a positive whole number") }

do {
    switch command {
    case "prepare":
        guard let assets = option("assets") else { fail("prepare needs --assets DIR") }
        try work.prepare(assets: assets)
    case "all":
        let cases = CaseFilter(option("only"))
        if cases.any(of: PreloadCases.parallelNames) {
            try await PreloadCases.run(work, runs: runs, cases: cases)
        }
        if cases.wants("preload-1thread") { try PreloadCases.runSingleThread(work, runs: runs) }
        if cases.any(of: TriggerCase.names) { try TriggerCase.run(work, runs: runs, cases: cases) }
        if cases.any(of: MixCase.names) { try MixCase.run(runs: runs, cases: cases) }
        if cases.any(of: FilterCase.names) { try FilterCase.run(runs: runs, cases: cases) }
        if cases.any(of: TempoCase.names) { try await TempoCase.run(runs: runs) }
        if cases.wants("voice-encode") { try EncodeCase.run(work, runs: runs) }
        if cases.any(of: LatencyCase.names) { try LatencyCase.run(work, runs: runs, cases: cases) }
        if cases.any(of: LoadCases.names) { try await LoadCases.run(work, runs: runs, cases: cases) }
    case "stream-memory":
        switch option("mode") {
        case "streamed": try await MemoryCase.run(work, streamed: true)
        case "preloaded": try await MemoryCase.run(work, streamed: false)
        default: fail("stream-memory needs --mode streamed or --mode preloaded")
        }
    case "session":
        guard let assets = option("assets") else { fail("session needs --assets DIR") }
        try await SessionCase.run(assets: assets, seconds: option("seconds").flatMap(Double.init) ?? 30)
    default:
        fail("unknown command \(command)")
    }
} catch let error as CustomStringConvertible {
    fail(error.description)
} catch {
    fail("\(error)")
}
