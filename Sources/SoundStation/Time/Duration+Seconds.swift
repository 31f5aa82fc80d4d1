extension Duration {
    /// The duration in seconds as a `Double`, for arithmetic on the render clock.
    ///
    /// The public API speaks `Duration` for every span and every point on the engine clock; the
    /// engine turns them into frames (`round(seconds * rate)`) at its edge, through this one
    /// conversion, so a time given as `.milliseconds(250)` and one given as `.seconds(0.25)` land
    /// on the same frame.
    package var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}
