import Glibc

extension Duration {
    /// `m:ss.t` (tenths, rounded down), as the voice-notes screen and the `voicenote` CLI show times.
    package var clockText: String {
        let tenths = Int((max(0, inSeconds) * 10).rounded(.down))
        return String(cFormat: "%d:%02d.%d", tenths / 600, tenths % 600 / 10, tenths % 10)
    }
}
