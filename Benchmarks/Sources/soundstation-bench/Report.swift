import Foundation

/// One case's result from the engine side: a JSON object on its own line of standard output, which
/// `Scripts/bench.sh` pairs with the peers' lines of the same case.
struct CaseReport: Encodable {
    /// The case name (`preload`, `trigger`, `mix-16`, ...).
    var `case`: String
    /// `engine`, or `engine-variant` for another way of using the engine that a row compares with
    /// (its ``peer`` names it); the C peers write `peer`.
    var side = "engine"
    /// The name of an `engine-variant`.
    var peer: String?
    /// The unit of every sample.
    var unit: String
    /// What was measured, in a few words.
    var label: String
    /// One figure per counted run.
    var samples: [Double]
    /// Anything a reader of the table should know about this figure.
    var note: String?
    /// Further measured figures of the run (e.g. baseline memory).
    var extra: [String: Double]?

    /// Writes the report as one line of JSON to standard output, unbuffered.
    func emit() {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self), let line = String(data: data, encoding: .utf8) else {
            fail("cannot encode the report of \(self.case)")
        }
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}

/// Writes `message` to standard error and exits with status 1.
/// - Parameter message: What went wrong and where.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("soundstation-bench: \(message)\n".utf8))
    exit(1)
}

/// Writes a progress line to standard error, so standard output stays JSON only.
/// - Parameter message: The line.
func progress(_ message: String) {
    FileHandle.standardError.write(Data("soundstation-bench: \(message)\n".utf8))
}
