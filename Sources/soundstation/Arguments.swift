/// A small reader for `--flag VALUE` options and positional words.
struct Arguments {
    private var words: [String]

    init(_ words: [String]) {
        self.words = words
    }

    /// Removes `--name VALUE` (or `--name=VALUE`) and returns VALUE.
    mutating func value(_ name: String) throws -> String? {
        if let index = words.firstIndex(where: { $0.hasPrefix("--\(name)=") }) {
            let word = words.remove(at: index)
            return String(word.dropFirst(name.count + 3))
        }
        guard let index = words.firstIndex(of: "--\(name)") else { return nil }
        guard index + 1 < words.count else { throw CLIError.usage("--\(name) needs a value") }
        let value = words[index + 1]
        words.removeSubrange(index...index + 1)
        return value
    }

    /// Removes `--name VALUE` and reads it as a number in `range`.
    mutating func number(_ name: String, in range: ClosedRange<Double>) throws -> Double? {
        guard let text = try value(name) else { return nil }
        guard let number = Double(text), range.contains(number) else {
            throw CLIError.usage(
                "--\(name) \(text): expected a number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    /// Removes `--name` and says whether it was there.
    mutating func flag(_ name: String) -> Bool {
        guard let index = words.firstIndex(of: "--\(name)") else { return false }
        words.remove(at: index)
        return true
    }

    /// The words left, refusing any unknown `--option`.
    func positional() throws -> [String] {
        if let unknown = words.first(where: { $0.hasPrefix("--") }) {
            throw CLIError.usage("unknown option \(unknown)")
        }
        return words
    }
}
