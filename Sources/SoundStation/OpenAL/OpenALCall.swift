import COpenAL

/// The one place OpenAL errors are read: runs `body` on `device`'s context and turns a pending
/// `alGetError` into a typed error naming `call`.
///
/// Batching several `al*` calls under one check keeps the trigger path to a single error read.
@discardableResult
func withOpenAL<T>(
    _ device: OpenALDevice, _ call: @autoclosure () -> String, _ body: () -> T
) throws(AudioEngineError) -> T {
    let (result, code) = device.withContext { (body(), alGetError()) }
    if code != AL_NO_ERROR { throw .openAL(call: call(), code: code) }
    return result
}
