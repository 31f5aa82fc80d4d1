/// The library's version: the same numbers as the C header's `SS_VERSION_*`, the Python package's
/// `__version__` and what each command-line program prints for `--version` (a test keeps them equal).
public enum LibraryVersion {
    /// Changes that break source compatibility.
    public static let major = 1
    /// Additions.
    public static let minor = 0
    /// Fixes.
    public static let patch = 0
    /// `major.minor.patch`.
    public static var string: String { "\(major).\(minor).\(patch)" }
}
