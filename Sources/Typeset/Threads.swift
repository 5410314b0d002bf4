// Whether this process can start threads. Where it cannot (a CI container at its pids limit, a
// user at RLIMIT_NPROC), libdispatch's concurrentPerform waits for a worker thread for ever,
// sleeping and retrying: `render a.xml b.xml` hung, printing nothing. The batch and the page
// drawing then work on the calling thread alone, as with --jobs 1.
import Glibc

public enum Threads {
    /// Nil when a thread could be started; else why not (strerror of pthread_create's error).
    /// Tried once per process, when jobs are first shared out.
    public static let shortage: String? = {
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { _ in nil }, nil)
        guard status == 0 else { return String(cString: strerror(status)) }
        pthread_join(thread, nil)
        return nil
    }()

    /// Told the shortage the first time work falls to one job (the command line warns).
    public static let onFallback = Locked<(@Sendable (String) -> Void)?>(nil)
    private static let fellBack = Locked(false)

    /// `jobs`, or 1 where no thread can be started.
    public static func usable(_ jobs: Int) -> Int {
        guard jobs > 1, let shortage else { return jobs }
        let first = fellBack.withLock { said in
            defer { said = true }
            return !said
        }
        if first { onFallback.withLock { $0 }?(shortage) }
        return 1
    }
}
