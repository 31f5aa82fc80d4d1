import CSoundStation
import SoundStation

/// A failed C API call: the code it returns and the message `ss_last_error()` then gives.
struct CError: Error {
    /// A negative `SS_ERR_*` code.
    let code: Int32
    /// One line naming the bad value and saying what to do.
    let message: String

    static func invalid(_ message: String) -> CError {
        CError(code: SS_ERR_INVALID_ARGUMENT.rawValue, message: message)
    }

    static func unknown(_ message: String) -> CError {
        CError(code: SS_ERR_UNKNOWN_NAME.rawValue, message: message)
    }

    static let closed = CError(
        code: SS_ERR_CLOSED.rawValue,
        message: "the engine was closed with ss_close: open a new one with ss_open")

    /// The code and message for an engine error.
    init(_ error: AudioEngineError) {
        switch error {
        case .notOffline: code = SS_ERR_NOT_OFFLINE.rawValue
        case .invalidArgument: code = SS_ERR_INVALID_ARGUMENT.rawValue
        default: code = SS_ERR_DEVICE.rawValue
        }
        message = error.description
    }

    /// The code and message for a catalogue error.
    init(_ error: CatalogueError) {
        switch error {
        case .unknownSound, .unknownMarker: code = SS_ERR_UNKNOWN_NAME.rawValue
        case .fileMissing, .undecodable: code = SS_ERR_DECODE.rawValue
        default: code = SS_ERR_CATALOGUE.rawValue
        }
        message = error.description
    }

    /// The code and message for a load error, in the C interface's terms (never the Swift API's
    /// names: a C or Python game has no `SoundBank.preload` or `effects.play`).
    init(_ error: SoundLoadError) {
        switch error {
        case .catalogue(let error): self.init(error)
        case .engine(_, let error): self.init(code: CError(error).code, message: error.description)
        case .notLoaded(let name):
            self.init(
                code: SS_ERR_NOT_LOADED.rawValue,
                message: "sound \"\(name)\" is not loaded: preload it first with ss_preload")
        case .someFailed(let failures):
            self.init(
                code: SS_ERR_DECODE.rawValue,
                message: "\(failures.count) sound(s) failed to load: "
                    + failures.map { CError($0).message }.joined(separator: "; "))
        case .wrongKind(let name, let kind, let expected):
            self.init(
                code: SS_ERR_INVALID_ARGUMENT.rawValue,
                message:
                    "sound \"\(name)\" is \(kind.rawValue == "effect" ? "an effect" : "a \(kind.rawValue)") entry, "
                    + "not \(expected.rawValue == "effect" ? "an effect" : "a \(expected.rawValue)"): play it with "
                    + (kind == .music ? "ss_music" : "ss_play"))
        case .notSingleSound:
            self.init(code: SS_ERR_INVALID_ARGUMENT.rawValue, message: error.description)
        }
    }

    init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    /// Makes this the calling thread's `ss_last_error()` and returns the code.
    @discardableResult
    func report() -> Int32 {
        ss_internal_set_error(message)
        return code
    }
}

/// Runs the body of an exported function: a thrown ``CError`` becomes its code and message.
/// - Parameter body: The function's work, returning its success value.
/// - Returns: The body's result, or the error's negative code.
func cCall(_ body: () throws(CError) -> Int32) -> Int32 {
    do { return try body() } catch { return error.report() }
}

/// A C string argument as a Swift string.
/// - Parameters:
///   - pointer: The argument.
///   - what: Its name in the message when it is NULL or not UTF-8.
/// - Returns: The string.
/// - Throws: ``CError`` (invalid argument) for NULL, or for bytes that are not UTF-8 (which would
///   otherwise become U+FFFD, so that "\xff" and "\xfe" named the same sound).
func string(_ pointer: UnsafePointer<CChar>?, _ what: String) throws(CError) -> String {
    guard let pointer else { throw .invalid("\(what) is NULL") }
    guard let text = String(validatingCString: pointer) else {
        throw .invalid(
            "\(what) \"\(escaped(pointer))\" is not UTF-8: names and other strings must be UTF-8 text")
    }
    return text
}

/// A C string's bytes with everything outside printable ASCII written as `\xHH`, cut at 64 bytes:
/// for naming a value that is not UTF-8 in a message.
func escaped(_ pointer: UnsafePointer<CChar>) -> String {
    var out = ""
    var index = 0
    while pointer[index] != 0 {
        if index == 64 {
            out += "..."
            break
        }
        let byte = UInt8(bitPattern: pointer[index])
        if byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\\") {
            out.unicodeScalars.append(Unicode.Scalar(byte))
        } else {
            out += "\\x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
        }
        index += 1
    }
    return out
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}

/// Checks that a number is finite and in range.
/// - Parameters:
///   - value: The argument.
///   - what: Its name in the message.
///   - range: The values allowed.
/// - Returns: The value.
/// - Throws: ``CError`` (invalid argument) naming the value.
@discardableResult
func checked<T: BinaryFloatingPoint>(_ value: T, _ what: String, in range: ClosedRange<T>) throws(CError) -> T
{
    guard value.isFinite, range.contains(value) else {
        throw .invalid(
            "invalid \(what) \(value): expected a number in \(range.lowerBound)...\(range.upperBound)")
    }
    return value
}
