extension String {
    /// Whether `other` occurs in the string, comparing characters as `==` does (canonical
    /// equivalence), as the standard library's `contains(_:)` for strings does.
    ///
    /// Why the package has its own: that one lives in `_StringProcessing`, the regex engine, and a
    /// single call links all of it (about 1 MB) into libsoundstation.so and every CLI. Being
    /// declared on `String` itself, this one is chosen for every `String.contains(String)` in the
    /// package, so a new call does not bring the regex engine back.
    package func contains(_ other: String) -> Bool {
        if other.isEmpty { return true }
        var start = startIndex
        while start != endIndex {
            if self[start...].starts(with: other) { return true }
            start = index(after: start)
        }
        return false
    }
}
