import Foundation
import Testing

/// The README's program is the example target's source, so the README cannot go stale.
@Test func readmeShowsTheExampleProgramVerbatim() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let example = try String(
        contentsOf: root.appendingPathComponent("Examples/QuickStart/main.swift"), encoding: .utf8)
    #expect(example.hasPrefix("import SoundStation"))
    #expect(readme.contains("```swift\n" + example + "```"))
}
