// A value guarded by a lock, for the caches shared by the threads of a batch (fonts, HarfBuzz
// fonts, shaping buffers, Cairo faces) and the batch's own bookkeeping.
//
// Not `Synchronization.Mutex`: on Linux its futex-based lock is invisible to ThreadSanitizer,
// which then reports every access it guards as a data race (a two-thread program incrementing a
// counter under `Mutex.withLock` is enough to see it), so `make sanitize` could not tell real
// races from these. A pthread mutex is what ThreadSanitizer understands; it costs the same here
// (taken a few times per paragraph, never per glyph).
import Glibc

public final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched inside `withLock`, under `mutex`. For the same reason
    // its accesses need no run-time exclusivity check (SE-0176): the mutex already makes them
    // exclusive (a nested `withLock` would deadlock first). The checks cost 17 thousand
    // instructions a corpus PDF document, 1% of our code's.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    @exclusivity(unchecked) private var value: Value

    public init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
