extension Duration {
    /// The duration in seconds as a `Double`, for arithmetic on the render clock.
    ///
    /// The public API speaks `Duration` for every span and every point on the engine clock; the
    /// engine turns them into frames (`round(seconds * rate)`) at its edge, through this one
    /// conversion, so a time given as `.milliseconds(250)` and one given as `.seconds(0.25)` land
    /// on the same frame.
    package var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

extension Duration {
    /// The time of `frame` on a clock of `rate` frames per second, exact to the attosecond, so a time
    /// the engine reports turns back into the same frame.
    package static func frames(_ frame: Int64, rate: Int) -> Duration {
        let rate = Int64(max(rate, 1))
        let whole = frame / rate
        let rest = frame % rate
        return Duration(
            secondsComponent: whole,
            attosecondsComponent: Int64((Double(rest) * 1e18 / Double(rate)).rounded()))
    }
}
