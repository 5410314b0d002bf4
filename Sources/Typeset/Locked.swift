// A value guarded by a lock, for the caches shared by the threads of a batch (fonts, HarfBuzz
// fonts, shaping buffers, Cairo faces).
//
// Not `Synchronization.Mutex`: on Linux its futex-based lock is invisible to ThreadSanitizer,
// which then reports every access it guards as a data race (a two-thread program incrementing a
// counter under `Mutex.withLock` is enough to see it), so `make sanitize` could not tell real
// races from these. NSLock is a pthread mutex, which ThreadSanitizer understands; it costs the
// same here (taken a few times per paragraph, never per glyph).
import Foundation

final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched inside `withLock`, under `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
