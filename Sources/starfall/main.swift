import Foundation

// Screens that other targets provide. Voice notes: set `openVoiceNotes` (see ExternalScreens.swift)
// and the menu offers the entry; left nil, the menu does not show it.
let screens = ExternalScreens(openVoiceNotes: nil)

let options: Options
do {
    options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    Console.report(error.description)
    exit(2)
}
if options.help {
    print(Options.usage)
    exit(0)
}
exit(await Launcher.run(options, screens: screens))
