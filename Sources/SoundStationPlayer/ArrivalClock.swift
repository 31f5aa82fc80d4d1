/// The time a message is taken to arrive at, on the render clock's scale but without its steps:
/// the wall clock plus the most the render clock has led it by lately.
///
/// The speaker renders in pieces as the device takes them, so the render clock stands still
/// between renders and then jumps by the 20-40 ms the sound server took at once. A message's lag read
/// off it carries those steps: on an idle link, arrivals 1 ms after their send were seen 13-50 ms
/// apart, half of the player's 80 ms jitter buffer gone before the link added any, and whether the
/// first message (the anchor) came just before or just after a step moved every later sound by up to
/// a step. Read off the upper envelope of the render's lead instead, equal link lags read equal, and
/// a command that comes within the delay of the fastest one is never behind what was rendered when it
/// comes (the render clock is never ahead of this clock), so the whole buffer is the link's.
///
/// Times are seconds passed in, so a test can drive it. The envelope is the largest lead over the
/// current and the previous ``window``: it follows a render that falls back (the device's clock runs
/// slower than the wall clock, a stall caught up) within two windows.
struct ArrivalClock: Sendable {
    /// The length of one window of leads (seconds).
    static let window = 1.0
    private var current: (start: Double, most: Double)?
    private var previous: Double?

    /// Records that the render clock read `render` seconds at wall time `wall`.
    mutating func rendered(_ render: Double, at wall: Double) {
        let lead = render - wall
        guard var now = current, wall - now.start < Self.window else {
            previous = current?.most
            current = (wall, lead)
            return
        }
        now.most = max(now.most, lead)
        current = now
    }

    /// The arrival time of a message read at wall time `wall`; `nil` before any render.
    func arrival(at wall: Double) -> Double? {
        guard let now = current else { return nil }
        return wall + max(now.most, previous ?? now.most)
    }
}
