/// What to do when a sound is asked to play while `maxInstances` copies are already playing.
public enum StealPolicy: String, Sendable, CaseIterable {
    /// Stop the instance that started first; the usual choice for rapid-fire effects.
    case oldest
    /// Stop the instance that is currently the least audible.
    case quietest
    /// Keep the playing instances and drop the new request.
    case refuse
}
