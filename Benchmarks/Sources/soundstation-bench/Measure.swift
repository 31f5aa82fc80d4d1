import Glibc

/// The clocks the cases read.
enum BenchClock {
    /// Monotonic wall-clock time in seconds.
    static func wall() -> Double { read(CLOCK_MONOTONIC) }

    /// CPU time of the whole process (every thread) in seconds.
    static func processCPU() -> Double { read(CLOCK_PROCESS_CPUTIME_ID) }

    private static func read(_ clock: clockid_t) -> Double {
        var now = timespec()
        clock_gettime(clock, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) * 1e-9
    }
}

/// Runs `body` once as a warm-up and then `runs` times, returning the figure of each counted run.
/// - Parameters:
///   - runs: Counted runs, after the warm-up.
///   - body: One run; gets the run's index (-1 for the warm-up) and returns its figure.
/// - Returns: The counted runs' figures, in order.
func repeated(runs: Int, _ body: (Int) throws -> Double) rethrows -> [Double] {
    var figures: [Double] = []
    for run in -1..<runs {
        let figure = try body(run)
        if run >= 0 { figures.append(figure) }
    }
    return figures
}

/// ``repeated(runs:_:)`` for work that awaits.
/// - Parameters:
///   - runs: Counted runs, after the warm-up.
///   - body: One run; gets the run's index (-1 for the warm-up) and returns its figure.
/// - Returns: The counted runs' figures, in order.
func repeated(runs: Int, _ body: (Int) async throws -> Double) async rethrows -> [Double] {
    var figures: [Double] = []
    for run in -1..<runs {
        let figure = try await body(run)
        if run >= 0 { figures.append(figure) }
    }
    return figures
}

/// Which cases `--only` asks for: a comma-separated list of case names (`preload-1thread`) or groups
/// (`mix` for every `mix-N`, `preload` for every `preload...` case); everything without `--only`.
/// The cases that run for seconds (``separate``) run only when named in full (or without `--only`),
/// so `--only trigger` is `trigger` and `trigger-drained`, not `trigger-under-load`.
struct CaseFilter {
    static let separate = ["trigger-under-load", "idle-music", "latency-device-low-underruns"]
    private let tokens: [String]?

    init(_ list: String?) {
        tokens = list.map { $0.split(separator: ",").map(String.init) }
    }

    /// Whether the case called `name` runs.
    func wants(_ name: String) -> Bool {
        guard let tokens else { return true }
        if Self.separate.contains(name) { return tokens.contains(name) }
        return tokens.contains { name == $0 || name.hasPrefix($0 + "-") }
    }

    /// Whether any of `names` runs.
    func any(of names: [String]) -> Bool { names.contains { wants($0) } }
}
