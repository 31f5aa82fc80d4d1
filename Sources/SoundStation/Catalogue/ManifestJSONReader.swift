extension ManifestJSON {
    /// A recursive-descent reader over UTF-8 bytes, following RFC 8259.
    struct Reader {
        /// Nesting deeper than this is refused so a hostile file cannot overflow the stack.
        static let maximumDepth = 64

        let bytes: [UInt8]
        var index = 0
        var depth = 0

        init(bytes: [UInt8]) {
            self.bytes = bytes
            // Editors on some platforms write a byte-order mark; it carries no meaning here.
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        }

        mutating func document() throws(SyntaxError) -> Value {
            skipSpace()
            let value = try self.value()
            skipSpace()
            if index < bytes.count { throw failure("unexpected text after the end of the document") }
            return value
        }

        private mutating func value() throws(SyntaxError) -> Value {
            guard index < bytes.count else { throw failure("unexpected end of file, expected a value") }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try object()
            case UInt8(ascii: "["): return try array()
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "n"): return try literal("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default: throw failure("unexpected character \(shown(bytes[index])), expected a value")
            }
        }

        private mutating func object() throws(SyntaxError) -> Value {
            try enter()
            index += 1
            var object = Object()
            skipSpace()
            if peek(UInt8(ascii: "}")) {
                index += 1
                depth -= 1
                return .object(object)
            }
            while true {
                skipSpace()
                guard peek(UInt8(ascii: "\"")) else { throw failure("expected a quoted key") }
                let keyStart = index
                let key = try string()
                if object[key] != nil {
                    index = keyStart
                    throw failure("duplicate key \"\(key)\"; each key may appear only once per object")
                }
                skipSpace()
                try expect(UInt8(ascii: ":"), "expected ':' after key \"\(key)\"")
                skipSpace()
                object.members.append((key, try value()))
                skipSpace()
                if peek(UInt8(ascii: ",")) {
                    index += 1
                    continue
                }
                try expect(UInt8(ascii: "}"), "expected ',' or '}' in object")
                depth -= 1
                return .object(object)
            }
        }

        private mutating func array() throws(SyntaxError) -> Value {
            try enter()
            index += 1
            var elements: [Value] = []
            skipSpace()
            if peek(UInt8(ascii: "]")) {
                index += 1
                depth -= 1
                return .array(elements)
            }
            while true {
                skipSpace()
                elements.append(try value())
                skipSpace()
                if peek(UInt8(ascii: ",")) {
                    index += 1
                    continue
                }
                try expect(UInt8(ascii: "]"), "expected ',' or ']' in array")
                depth -= 1
                return .array(elements)
            }
        }

        private mutating func string() throws(SyntaxError) -> String {
            index += 1
            var utf8: [UInt8] = []
            while true {
                guard index < bytes.count else { throw failure("unterminated string") }
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    guard let text = String(validating: utf8, as: UTF8.self) else {
                        throw failure("string is not valid UTF-8")
                    }
                    return text
                case UInt8(ascii: "\\"):
                    index += 1
                    utf8.append(contentsOf: try escape())
                case 0..<0x20:
                    throw failure("control character in string; write it as an escape such as \\n")
                default:
                    utf8.append(byte)
                    index += 1
                }
            }
        }

        /// Decodes the escape after a backslash into UTF-8 bytes.
        private mutating func escape() throws(SyntaxError) -> [UInt8] {
            guard index < bytes.count else { throw failure("unterminated string") }
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return [byte]
            case UInt8(ascii: "b"): return [0x08]
            case UInt8(ascii: "f"): return [0x0C]
            case UInt8(ascii: "n"): return [0x0A]
            case UInt8(ascii: "r"): return [0x0D]
            case UInt8(ascii: "t"): return [0x09]
            case UInt8(ascii: "u"):
                var scalar = try hexQuad()
                if (0xD800..<0xDC00).contains(scalar) {
                    // Characters outside the BMP arrive as a surrogate pair of two \u escapes.
                    guard peek(UInt8(ascii: "\\")), index + 1 < bytes.count,
                        bytes[index + 1] == UInt8(ascii: "u")
                    else { throw failure("unpaired surrogate in \\u escape") }
                    index += 2
                    let low = try hexQuad()
                    guard (0xDC00..<0xE000).contains(low) else {
                        throw failure("unpaired surrogate in \\u escape")
                    }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let unicode = Unicode.Scalar(scalar) else {
                    throw failure("unpaired surrogate in \\u escape")
                }
                return Array(String(Character(unicode)).utf8)
            default:
                index -= 1
                throw failure("unknown escape \\\(shown(byte))")
            }
        }

        private mutating func hexQuad() throws(SyntaxError) -> UInt32 {
            guard index + 4 <= bytes.count else { throw failure("\\u needs four hex digits") }
            var result: UInt32 = 0
            for byte in bytes[index..<index + 4] {
                guard let digit = hexDigit(byte) else { throw failure("\\u needs four hex digits") }
                result = result << 4 | digit
            }
            index += 4
            return result
        }

        private func hexDigit(_ byte: UInt8) -> UInt32? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
        }

        private mutating func number() throws(SyntaxError) -> Value {
            let start = index
            var isInteger = true
            if peek(UInt8(ascii: "-")) { index += 1 }
            if peek(UInt8(ascii: "0")) {
                index += 1
                if peekDigit() { throw failure("numbers may not have leading zeros") }
            } else {
                guard peekDigit() else { throw failure("expected a digit") }
                skipDigits()
            }
            if peek(UInt8(ascii: ".")) {
                isInteger = false
                index += 1
                guard peekDigit() else { throw failure("expected a digit after '.'") }
                skipDigits()
            }
            if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
                isInteger = false
                index += 1
                if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
                guard peekDigit() else { throw failure("expected a digit in the exponent") }
                skipDigits()
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            // An integer too large for Int is still a valid number; range checks reject it later.
            if isInteger, let integer = Int(text) { return .integer(integer) }
            guard let number = Double(text), number.isFinite else {
                index = start
                throw failure("number \(text) is out of range")
            }
            return .number(number)
        }

        private mutating func literal(_ word: String, _ value: Value) throws(SyntaxError) -> Value {
            let expected = Array(word.utf8)
            guard bytes[index...].starts(with: expected) else {
                throw failure("unexpected character \(shown(bytes[index])), expected a value")
            }
            index += expected.count
            return value
        }

        private mutating func enter() throws(SyntaxError) {
            depth += 1
            if depth > Self.maximumDepth {
                throw failure("nested more than \(Self.maximumDepth) levels deep")
            }
        }

        private mutating func expect(_ byte: UInt8, _ message: String) throws(SyntaxError) {
            guard peek(byte) else {
                if index >= bytes.count { throw failure("unexpected end of file, \(message)") }
                throw failure(message)
            }
            index += 1
        }

        private func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }

        private func peekDigit() -> Bool {
            index < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index])
        }

        private mutating func skipDigits() {
            while peekDigit() { index += 1 }
        }

        private mutating func skipSpace() {
            while index < bytes.count,
                [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")]
                    .contains(bytes[index])
            {
                index += 1
            }
        }

        private func shown(_ byte: UInt8) -> String {
            (0x21..<0x7F).contains(byte)
                ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x" + String(byte, radix: 16)
        }

        /// Builds an error at the current position, counting lines so editors can jump there.
        private func failure(_ message: String) -> SyntaxError {
            var line = 1
            var lineStart = 0
            for position in 0..<min(index, bytes.count) where bytes[position] == UInt8(ascii: "\n") {
                line += 1
                lineStart = position + 1
            }
            return SyntaxError(line: line, column: index - lineStart + 1, message: message)
        }
    }
}
