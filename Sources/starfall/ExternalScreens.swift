/// Screens that other targets provide, injected into the front ends by `main.swift`.
///
/// The menu shows "voice notes" only when ``openVoiceNotes`` is set. Both front ends call it on the
/// main thread with the game's screen handed over: the terminal front end leaves its alternate
/// screen and raw mode first (the closure gets the terminal as the shell left it), the window stays
/// open but is not drawn, and all of the game's sound is paused so a recording does not pick up the
/// music. When the closure returns, the game's screen, keyboard and sound come back as they were.
///
/// Wiring it in `main.swift` (the screen gets an engine of its own, since the game's is paused):
///
/// ```swift
/// let screens = ExternalScreens(openVoiceNotes: {
///     do {
///         let engine = try AudioEngine.openWithFallback(.fromEnvironment()) { print("notice:", $0) }
///         defer { engine.shutdown() }
///         try VoiceNotesScreen(engine: engine).run()
///     } catch {
///         print("voice notes: \(error)")
///     }
/// })
/// ```
struct ExternalScreens {
    /// Runs the voice-notes screen until the user leaves it; nil hides the menu entry.
    var openVoiceNotes: (@MainActor () -> Void)?
}
