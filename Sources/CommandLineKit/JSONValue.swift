import SoundStation

/// A JSON value the CLIs print (`soundstation catalogue --json`), written as Foundation's
/// `JSONEncoder` with `[.prettyPrinted, .sortedKeys]` writes it: two-space indent, keys sorted.
///
/// Why not `JSONEncoder`: the CLIs import no Foundation, not even FoundationEssentials, so each
/// carries only the Swift runtime (see Docs/Packages.md, "Sizes").
public enum JSONValue: Sendable, Equatable {
    case string(String)
    case number(Double)
    case integer(Int)
    case bool(Bool)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The value as pretty-printed JSON text; a number that is not finite is written as null.
    /// - Parameter indent: The indentation of the line the value starts on.
    /// - Returns: The JSON text.
    public func text(indent: Int = 0) -> String {
        let inner = String(repeating: "  ", count: indent + 1)
        let outer = String(repeating: "  ", count: indent)
        switch self {
        case .string(let value): return JSONString.literal(value)
        case .number(let value): return value.isFinite ? Self.number(value) : "null"
        case .integer(let value): return String(value)
        case .bool(let value): return value ? "true" : "false"
        case .array(let values):
            if values.isEmpty { return "[\n\n\(outer)]" }
            return "[\n" + values.map { inner + $0.text(indent: indent + 1) }.joined(separator: ",\n")
                + "\n\(outer)]"
        case .object(let fields):
            if fields.isEmpty { return "{\n\n\(outer)}" }
            return "{\n"
                + fields.keys.sorted().map {
                    inner + JSONString.literal($0) + " : " + fields[$0]!.text(indent: indent + 1)
                }
                .joined(separator: ",\n") + "\n\(outer)}"
        }
    }

    /// A whole number without ".0" (as `JSONEncoder` writes 2.0), else Swift's shortest round-trip
    /// spelling.
    private static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return String(value)
    }
}
