import Foundation

/// Whether the private PulseAudio server of `make test` is up, so tests on the real device path run.
enum PulseServer {
    static var isAvailable: Bool {
        ProcessInfo.processInfo.environment["PULSE_SERVER"] != nil
    }
}
