/// What the loading screen shows.
struct LoadingState {
    /// Sounds loaded (or failed) so far.
    var completed: Int
    /// Sounds in the preload.
    var total: Int
    /// The sound that just finished.
    var latest: String?

    /// How full the progress bar is, 0 to 1.
    var fraction: Double { total > 0 ? Double(completed) / Double(total) : 1 }
}
