/// A small JSON reader for the manifest.
///
/// Foundation's JSONSerialization turns `true`, `1` and `1.0` into look-alike NSNumbers on
/// Linux and silently keeps the last of two equal keys; the manifest checker needs to tell
/// those apart, so it reads JSON itself and reports positions as line and column.
package enum ManifestJSON {
    /// A parsed JSON value; integers are kept apart from fractional numbers.
    package enum Value: Equatable, Sendable {
        case null
        case bool(Bool)
        case integer(Int)
        case number(Double)
        case string(String)
        case array([Value])
        case object(Object)

        /// A short rendering for error messages, so they show what the manifest actually says.
        var brief: String {
            switch self {
            case .null: return "null"
            case .bool(let flag): return flag ? "true" : "false"
            case .integer(let number): return String(number)
            case .number(let number): return String(number)
            case .string(let text):
                let shown = text.count > 40 ? String(text.prefix(40)) + "..." : text
                return "\"\(shown)\""
            case .array: return "an array"
            case .object: return "an object"
            }
        }
    }

    /// A JSON object that remembers key order, so errors point at the first bad key written.
    package struct Object: Equatable, Sendable {
        /// Members in the order they appear in the text.
        var members: [(key: String, value: Value)] = []

        /// The value stored under `key`, if any.
        subscript(key: String) -> Value? {
            members.first { $0.key == key }?.value
        }

        package static func == (lhs: Object, rhs: Object) -> Bool {
            lhs.members.elementsEqual(rhs.members) { $0.key == $1.key && $0.value == $1.value }
        }
    }

    /// Why the text is not JSON, with a 1-based line and column.
    struct SyntaxError: Error, Equatable {
        let line: Int
        let column: Int
        let message: String

        var description: String { "line \(line), column \(column): \(message)" }
    }

    /// Parses one JSON document; trailing non-space text is an error.
    static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> Value {
        var reader = Reader(bytes: bytes)
        return try reader.document()
    }
}
