import CommandLineKit
import Glibc
import SoundStation

/// `soundstation catalogue [--assets DIR] [--json]`: every sound, decoded to prove it plays, with its
/// format as found from the file's contents.
enum CatalogueCommand {
    struct Row {
        let name: String
        let kind: String
        let path: String
        let format: String
        let seconds: Double
        let sampleRate: Int
        let channels: Int
        let fileBytes: Int
        let pcmBytes: Int
        /// A music entry's tempo and markers, when it has them (left out of the JSON otherwise).
        var bpm: Double?
        var beatsPerBar: Int?
        var downbeat: Double?
        var markers: [String: Double]?
        /// An effect's dip of the music in decibels, when it has one.
        var duckMusic: Float?
        /// What is wrong with a file that decodes anyway (e.g. one cut short), when anything is.
        var warnings: [String]?

        /// The row as `--json` prints it; absent optionals are left out.
        var json: JSONValue {
            var fields: [String: JSONValue] = [
                "name": .string(name), "kind": .string(kind), "path": .string(path),
                "format": .string(format),
                "seconds": .number(seconds), "sampleRate": .integer(sampleRate),
                "channels": .integer(channels),
                "fileBytes": .integer(fileBytes), "pcmBytes": .integer(pcmBytes),
            ]
            if let bpm { fields["bpm"] = .number(bpm) }
            if let beatsPerBar { fields["beatsPerBar"] = .integer(beatsPerBar) }
            if let downbeat { fields["downbeat"] = .number(downbeat) }
            if let markers { fields["markers"] = .object(markers.mapValues { .number($0) }) }
            if let duckMusic { fields["duckMusic"] = .number(Double(duckMusic)) }
            if let warnings { fields["warnings"] = .array(warnings.map { .string($0) }) }
            return .object(fields)
        }
    }

    static func run(_ arguments: inout Arguments) throws {
        let json = try arguments.flag("json")
        let assets = try arguments.value("assets")
        try arguments.finish()
        let catalogue = try Command.loadCatalogue(assets)
        var rows: [Row] = []
        var problems: [String] = []
        var warnings: [SoundLoadWarning] = []
        for entry in catalogue.entries {
            if let synth = entry.synth {
                // Rendered, as loading it would: no file, the generator's 44.1 kHz mono.
                do {
                    let audio = try SynthGenerator.render(synth.parameters)
                    rows.append(
                        Row(
                            name: entry.name, kind: entry.kind.rawValue, path: "(synth)",
                            format: "sfxr synth",
                            seconds: audio.duration.inSeconds, sampleRate: audio.sampleRate,
                            channels: audio.channels, fileBytes: 0, pcmBytes: audio.byteCount, bpm: nil,
                            beatsPerBar: nil, downbeat: nil, markers: nil,
                            duckMusic: entry.duckMusic < 0 ? entry.duckMusic : nil))
                } catch {
                    problems.append("sound \"\(entry.name)\": \(error.description)")
                }
                continue
            }
            do {
                // Collected rather than printed by the decoder, so each names its sound.
                var (options, collected) = entry.decodingOptions.collectingWarnings()
                options.loopModules = false
                let info = try AudioDecoder.info(ofFileAt: entry.resolvedPath, options: options)
                let audio = try AudioDecoder.decode(fileAt: entry.resolvedPath, options: options)
                let size = ProcessEnvironment.fileSize(atPath: entry.resolvedPath) ?? 0
                rows.append(
                    Row(
                        name: entry.name, kind: entry.kind.rawValue, path: entry.path,
                        format: info.formatDescription,
                        seconds: audio.duration.inSeconds,
                        sampleRate: audio.sampleRate, channels: audio.channels, fileBytes: size,
                        pcmBytes: audio.byteCount, bpm: entry.tempo?.bpm,
                        beatsPerBar: entry.tempo?.beatsPerBar, downbeat: entry.tempo?.downbeat,
                        markers: entry.markers.isEmpty ? nil : entry.markers,
                        duckMusic: entry.duckMusic < 0 ? entry.duckMusic : nil))
                let found = collected().map { SoundLoadWarning(name: entry.name, warning: $0) }
                if !found.isEmpty { rows[rows.count - 1].warnings = found.map(\.warning.description) }
                warnings += found
            } catch {
                problems.append(
                    CatalogueError.undecodable(name: entry.name, path: entry.path, reason: error.description)
                        .description)
            }
        }
        if json {
            print(JSONValue.array(rows.map(\.json)).text())
        } else {
            printTable(rows, root: catalogue.root)
        }
        for warning in warnings {
            StandardStream.error.write("soundstation: warning: \(String(describing: warning).printable)\n")
        }
        for problem in problems {
            StandardStream.error.write("soundstation: \(problem.printable)\n")
        }
        if !problems.isEmpty {
            throw CLIError("\(problems.count) of \(catalogue.entries.count) sounds do not decode")
        }
    }

    private static func printTable(_ rows: [Row], root: String) {
        print("assets: \(root.printable)")
        let header = ["NAME", "KIND", "FORMAT", "SECONDS", "RATE", "CH", "FILE", "PCM", "PATH"]
        var table = [header]
        for row in rows {
            table.append([
                // Names, paths and formats come from the catalogue and the files: printable first.
                row.name.printable, row.kind, row.format.printable, String(cFormat: "%.3f", row.seconds),
                "\(row.sampleRate)",
                "\(row.channels)",
                "\(row.fileBytes)", "\(row.pcmBytes)", row.path.printable,
            ])
        }
        let widths = header.indices.map { column in table.map { $0[column].count }.max() ?? 0 }
        for line in table {
            let cells = line.enumerated().map { index, cell in
                cell.padded(toLength: widths[index])
            }
            print(cells.joined(separator: "  ").trimmingSpaces)
        }
    }
}
