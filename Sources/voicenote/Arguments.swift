/// Reads `--name VALUE` options and positional words, removing each as it is taken.
struct Arguments {
    private var words: [String]

    init(_ words: [String]) {
        self.words = words
    }

    /// Removes `--name VALUE` (or `--name=VALUE`) and returns VALUE.
    mutating func value(_ name: String) throws(CLIError) -> String? {
        if let index = words.firstIndex(where: { $0.hasPrefix("--\(name)=") }) {
            return String(words.remove(at: index).dropFirst(name.count + 3))
        }
        guard let index = words.firstIndex(of: "--\(name)") else { return nil }
        guard index + 1 < words.count else { throw .usage("--\(name) needs a value") }
        let value = words[index + 1]
        words.removeSubrange(index...index + 1)
        return value
    }

    /// Removes `--name N` and reads it as a number in `range`.
    mutating func number(_ name: String, in range: ClosedRange<Double>) throws(CLIError) -> Double? {
        guard let text = try value(name) else { return nil }
        guard let number = Double(text), range.contains(number) else {
            throw .usage(
                "--\(name) \(text): expected a number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    /// Removes `--name N` and reads it as a whole number in `range`.
    mutating func integer(_ name: String, in range: ClosedRange<Int>) throws(CLIError) -> Int? {
        guard let text = try value(name) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw .usage(
                "--\(name) \(text): expected a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    /// The words left, refusing any unknown `--option`.
    func positional() throws(CLIError) -> [String] {
        if let unknown = words.first(where: { $0.hasPrefix("--") && $0 != "--" }) {
            throw .usage("unknown option \(unknown)")
        }
        return words.filter { $0 != "--" }
    }

    /// Exactly one positional word, named `what` in the error.
    func single(_ what: String) throws(CLIError) -> String {
        let rest = try positional()
        guard rest.count == 1 else {
            throw .usage(rest.isEmpty ? "missing \(what)" : "expected one \(what), got \(rest.count)")
        }
        return rest[0]
    }
}
