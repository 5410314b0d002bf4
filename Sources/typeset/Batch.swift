// Runs one job per input on `jobs` threads, results in input order; shows progress on a
// terminal (done/total, current file, time left) and nothing otherwise.
import Foundation

struct Batch {
    let inputs: [String]
    let jobs: Int
    /// For a batch that is one part of a larger one: inputs done before it, and the whole count
    /// (progress shows the whole).
    var progress: (done: Int, total: Int)? = nil

    func run<Result>(_ body: @Sendable @escaping (String) -> Result) -> [Result] {
        let state = BatchState<Result>(
            count: inputs.count, showProgress: isatty(STDERR_FILENO) == 1 && (progress?.total ?? inputs.count) > 1,
            progress: progress ?? (0, inputs.count))
        let inputs = self.inputs
        let workers = max(1, min(jobs, inputs.count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let index = state.next() {
                let result = body(inputs[index])
                state.finish(index, result, name: inputs[index])
            }
        }
        state.endProgress()
        return state.results.map { $0! }
    }
}

/// Shared between the batch's threads; every access holds the lock.
private final class BatchState<Result>: @unchecked Sendable {
    private let lock = NSLock()
    private var nextIndex = 0
    private var done = 0
    var results: [Result?]
    private let showProgress: Bool
    private let start = Date()
    /// Inputs done before this batch, and the count progress is shown out of.
    private let before: Int
    private let total: Int

    init(count: Int, showProgress: Bool, progress: (done: Int, total: Int)) {
        results = Array(repeating: nil, count: count)
        self.showProgress = showProgress
        before = progress.done
        total = progress.total
    }

    func next() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard nextIndex < results.count else { return nil }
        nextIndex += 1
        return nextIndex - 1
    }

    func finish(_ index: Int, _ result: Result, name: String) {
        lock.lock()
        defer { lock.unlock() }
        results[index] = result
        done += 1
        guard showProgress else { return }
        let elapsed = Date().timeIntervalSince(start)
        let left = elapsed / Double(done) * Double(total - before - done)
        let line = String(format: "\r\u{1B}[K[%d/%d] %@  %.0fs left", before + done, total, (name as NSString).lastPathComponent, left)
        FileHandle.standardError.write(Data(line.utf8))
    }

    func endProgress() {
        if showProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
