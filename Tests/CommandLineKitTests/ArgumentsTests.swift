import Testing

@testable import CommandLineKit

@Suite("Arguments")
struct ArgumentsTests {
    @Test("--flag value and --flag=value mean the same, wherever they stand")
    func valueForms() throws {
        var spaced = Arguments(["a", "--out", "x.wav", "b"])
        var joined = Arguments(["a", "--out=x.wav", "b"])
        #expect(try spaced.value("out") == "x.wav")
        #expect(try joined.value("out") == "x.wav")
        #expect(try spaced.positional() == ["a", "b"])
        #expect(try joined.positional() == ["a", "b"])
        #expect(try spaced.value("out") == nil, "taken once")
    }

    @Test("words after -- are positional even when they look like options")
    func separator() throws {
        var arguments = Arguments(["--dir", "d", "--", "--odd", "--dir", "x"])
        #expect(try arguments.value("dir") == "d")
        #expect(try arguments.positional() == ["--odd", "--dir", "x"])
        var flags = Arguments(["--", "--json"])
        #expect(try flags.flag("json") == false)
    }

    @Test("usage errors name the bad argument and exit 2")
    func usageErrors() {
        var missing = Arguments(["--out"])
        #expect(throws: CLIError.usage("--out needs a value")) { try missing.value("out") }
        var followed = Arguments(["--out", "--json"])
        #expect(throws: CLIError.usage("--out needs a value")) { try followed.value("out") }
        var twice = Arguments(["--seed", "1", "--seed=2"])
        #expect(throws: CLIError.usage("--seed is given more than once")) { try twice.value("seed") }
        var number = Arguments(["--seconds", "ten"])
        #expect(throws: CLIError.usage("--seconds \"ten\": expected a number from 0 to 60")) {
            try number.number("seconds", in: 0...60)
        }
        var integer = Arguments(["--channels=3"])
        #expect(throws: CLIError.usage("--channels \"3\": expected a whole number from 1 to 2")) {
            try integer.integer("channels", in: 1...2)
        }
        var flag = Arguments(["--json=yes"])
        #expect(throws: CLIError.usage("--json takes no value")) { try flag.flag("json") }
        #expect(throws: CLIError.usage("unknown option \"--dance\"")) {
            try Arguments(["x", "--dance=now"]).positional()
        }
        #expect(throws: CLIError.usage("unexpected argument \"extra\"")) { try Arguments(["extra"]).finish() }
        #expect(throws: CLIError.usage("unknown option \"--x\"")) {
            try Arguments(["--x", "extra"]).finish()
        }
        #expect(throws: Never.self) { try Arguments([]).finish() }
        #expect(throws: CLIError.usage("missing NAME")) { try Arguments([]).single("NAME") }
        #expect(throws: CLIError.usage("expected one NAME, got 2: \"a\" \"b\"")) {
            try Arguments(["a", "b"]).single("NAME")
        }
        #expect(CLIError.usage("x").exitCode == 2 && CLIError("x").exitCode == 1)
    }

    @Test("numbers in range are read; flags and help are seen")
    func values() throws {
        var arguments = Arguments(["--rate", "44100", "--seconds", "1.5", "--json", "-h"])
        #expect(try arguments.integer("rate", in: 8_000...192_000) == 44_100)
        #expect(try arguments.number("seconds", in: 0...60) == 1.5)
        #expect(try arguments.flag("json"))
        let help = arguments.help()
        #expect(help)
        #expect(try arguments.positional() == [])
        var separated = Arguments(["--", "--help"])
        let separatedHelp = separated.help()
        #expect(!separatedHelp)
        #expect(try separated.positional() == ["--help"])
    }
}
