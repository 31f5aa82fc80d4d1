/// The words of a command line, read the one way the project's programs share.
///
/// Options are taken by name wherever they stand, and each is removed as it is read, so what is left
/// at the end are the positional words: ``positional()`` refuses any `--option` nobody took.
/// `--flag value` and `--flag=value` mean the same; a lone `--` ends the options, so every word after
/// it is positional even when it starts with `--`.
///
/// ```swift
/// var arguments = Arguments(["--seconds=2", "--out", "mix.wav", "--", "--odd-name"])
/// let seconds = try arguments.number("seconds", in: 0...60)  // 2
/// let out = try arguments.value("out")  // "mix.wav"
/// let rest = try arguments.positional()  // ["--odd-name"]
/// ```
public struct Arguments: Sendable, Equatable {
    /// Words before `--`, not yet taken.
    private var options: [String]
    /// Words after `--`: positional whatever they look like.
    private let afterSeparator: [String]

    /// Splits `words` at the first `--`.
    /// - Parameter words: The arguments after the program (and subcommand) name.
    public init(_ words: [String]) {
        if let separator = words.firstIndex(of: "--") {
            options = Array(words[..<separator])
            afterSeparator = Array(words[(separator + 1)...])
        } else {
            options = words
            afterSeparator = []
        }
    }

    /// Removes `--help` and `-h` and says whether either was among the options.
    /// - Returns: Whether help was asked for.
    public mutating func help() -> Bool {
        let count = options.count
        options.removeAll { $0 == "--help" || $0 == "-h" }
        return options.count < count
    }

    /// Removes `--name VALUE` (or `--name=VALUE`) and returns VALUE.
    /// - Parameter name: The option without its dashes.
    /// - Returns: The value, or nil when the option is absent.
    /// - Throws: A usage ``CLIError`` when the value is missing (nothing follows, or another option
    ///   does) or the option is given twice.
    public mutating func value(_ name: String) throws(CLIError) -> String? {
        guard let value = try take(name) else { return nil }
        if try take(name) != nil { throw .usage("--\(name) is given more than once") }
        return value
    }

    /// Removes `--name VALUE` and reads it as a number in `range`.
    /// - Parameters:
    ///   - name: The option without its dashes.
    ///   - range: The values allowed.
    /// - Returns: The number, or nil when the option is absent.
    /// - Throws: A usage ``CLIError`` naming the option and value when it is not such a number.
    public mutating func number(_ name: String, in range: ClosedRange<Double>) throws(CLIError) -> Double? {
        try value(name, in: range, kind: "a number", bounds: Self.plain, parse: Double.init)
    }

    /// Removes `--name N` and reads it as a whole number in `range`.
    /// - Parameters:
    ///   - name: The option without its dashes.
    ///   - range: The values allowed.
    /// - Returns: The number, or nil when the option is absent.
    /// - Throws: A usage ``CLIError`` naming the option and value when it is not such a number.
    public mutating func integer(_ name: String, in range: ClosedRange<Int>) throws(CLIError) -> Int? {
        try value(name, in: range, kind: "a whole number", bounds: String.init, parse: { Int($0) })
    }

    /// Removes `--name VALUE` and reads it with `parse`, refusing values outside `range`.
    private mutating func value<Number: Comparable>(
        _ name: String, in range: ClosedRange<Number>, kind: String, bounds: (Number) -> String,
        parse: (String) -> Number?
    ) throws(CLIError) -> Number? {
        guard let text = try value(name) else { return nil }
        guard let number = parse(text), range.contains(number) else {
            throw .usage(
                "--\(name) \"\(text)\": expected \(kind) from \(bounds(range.lowerBound)) to \(bounds(range.upperBound))"
            )
        }
        return number
    }

    /// Removes every `--name` and says whether it was there.
    /// - Parameter name: The flag without its dashes.
    /// - Returns: Whether the flag was given.
    /// - Throws: A usage ``CLIError`` when it is given a value (`--name=VALUE`).
    public mutating func flag(_ name: String) throws(CLIError) -> Bool {
        if options.contains(where: { $0.hasPrefix("--\(name)=") }) {
            throw .usage("--\(name) takes no value")
        }
        let count = options.count
        options.removeAll { $0 == "--\(name)" }
        return options.count < count
    }

    /// The words left once every option has been taken, in order.
    /// - Returns: The positional words, those after `--` last.
    /// - Throws: A usage ``CLIError`` naming the first option nobody took.
    public func positional() throws(CLIError) -> [String] {
        if let unknown = options.first(where: { $0.hasPrefix("--") || $0 == "-h" }) {
            let name = unknown.split(separator: "=", maxSplits: 1).first.map(String.init) ?? unknown
            throw .usage("unknown option \"\(name)\"")
        }
        return options + afterSeparator
    }

    /// Checks that every word was taken, for commands that take only options.
    /// - Throws: A usage ``CLIError`` naming the first option nobody took or the first positional word.
    public func finish() throws(CLIError) {
        if let extra = try positional().first { throw .usage("unexpected argument \"\(extra)\"") }
    }

    /// Exactly one positional word.
    /// - Parameter what: How the error names the word, e.g. `FILE or NAME`.
    /// - Returns: The word.
    /// - Throws: A usage ``CLIError`` when there is none, more than one, or an unknown option.
    public func single(_ what: String) throws(CLIError) -> String {
        let rest = try positional()
        guard rest.count == 1 else {
            throw .usage(
                rest.isEmpty
                    ? "missing \(what)"
                    : "expected one \(what), got \(rest.count): "
                        + rest.map { "\"\($0)\"" }.joined(separator: " "))
        }
        return rest[0]
    }

    /// Removes one `--name VALUE` or `--name=VALUE` and returns VALUE.
    private mutating func take(_ name: String) throws(CLIError) -> String? {
        let option = "--\(name)"
        guard let index = options.firstIndex(where: { $0 == option || $0.hasPrefix(option + "=") }) else {
            return nil
        }
        let word = options.remove(at: index)
        if word != option { return String(word.dropFirst(option.count + 1)) }
        guard index < options.count, !options[index].hasPrefix("--") else {
            throw .usage("\(option) needs a value")
        }
        return options.remove(at: index)
    }

    /// `60` rather than `60.0` in messages.
    private static func plain(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }
}
