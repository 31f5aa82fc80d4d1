import Foundation
import Testing

@testable import SoundStation

/// The command-line tools the format tests make files with and check against: sox, flac, opusenc,
/// opusdec, lame, mpg123 and xmp (installed by `Scripts/install-deps.sh test`).
enum FormatTools {
    /// The path of `tool` on PATH, or nil.
    static func find(_ tool: String) -> String? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return paths.map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Whether every tool is installed; tests that need them are skipped otherwise.
    static func have(_ tools: String...) -> Bool { tools.allSatisfy { find($0) != nil } }

    /// Runs `tool` and returns its standard output; a failure is an error carrying its standard error.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> Data {
        guard let path = find(tool) else { throw ToolError(message: "\(tool) is not installed") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Read stdout and stderr together so neither pipe fills and stalls the tool.
        let group = DispatchGroup()
        nonisolated(unsafe) var errorData = Data()
        group.enter()
        DispatchQueue.global().async {
            errorData = errors.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ToolError(
                message:
                    "\(tool) \(arguments.joined(separator: " ")): \(String(decoding: errorData, as: UTF8.self))"
            )
        }
        return data
    }

    /// Little-endian 32-bit floats from a tool's raw output.
    static func floats(_ data: Data) -> [Float] {
        data.withUnsafeBytes { raw in
            (0..<raw.count / 4).map {
                Float(
                    bitPattern: UInt32(
                        littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self)))
            }
        }
    }

    /// Little-endian 16-bit integers from a tool's raw output, as floats over 32768.
    static func int16s(_ data: Data) -> [Float] {
        data.withUnsafeBytes { raw in
            (0..<raw.count / 2).map {
                Float(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 2, as: Int16.self))) / 32_768
            }
        }
    }

    /// sox's own decoding of `path` (its WAV, AIFF and FLAC readers do not use libsndfile), as float.
    static func soxDecode(_ path: String) throws -> [Float] {
        floats(try run("sox", [path, "-t", "raw", "-e", "floating-point", "-b", "32", "-L", "-"]))
    }

    struct ToolError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}

/// The largest difference between two decodings, and whether their lengths agree.
func largestDifference(_ a: [Float], _ b: [Float]) -> Float {
    guard a.count == b.count else { return .infinity }
    return zip(a, b).reduce(0) { max($0, abs($1.0 - $1.1)) }
}

/// One least significant bit of 16-bit audio, with room for float rounding.
let oneLSB16: Float = 1.0 / 32_768 + 1e-7
