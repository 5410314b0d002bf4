// Runs one job per item on `jobs` threads, results in item order; shows progress on a
// terminal (done/total, current item, time left) and nothing otherwise.
import Dispatch
import Glibc
import Typeset

struct Batch<Item: Sendable> {
    let items: [Item]
    let jobs: Int
    /// What the progress line calls an item.
    let name: @Sendable (Item) -> String
    /// For a batch that is one part of a larger one: items done before it, and the whole count
    /// (progress shows the whole).
    var progress: (done: Int, total: Int)?

    init(items: [Item], jobs: Int, progress: (done: Int, total: Int)? = nil, name: @Sendable @escaping (Item) -> String) {
        self.items = items
        self.jobs = jobs
        self.progress = progress
        self.name = name
    }

    func run<Result>(_ body: @Sendable @escaping (Item) -> Result) -> [Result] {
        let total = progress?.total ?? items.count
        let state = Locked(BatchState<Result>(
            count: items.count, showProgress: isatty(STDERR_FILENO) == 1 && total > 1,
            progress: progress ?? (0, items.count)))
        let items = self.items
        let name = self.name
        let workers = max(1, min(jobs, items.count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let index = state.withLock({ $0.next() }) {
                let result = body(items[index])
                state.withLock { $0.finish(index, result, name: name(items[index])) }
            }
        }
        return state.withLock { state in
            state.endProgress()
            return state.results.compactMap { $0 }  // every index was filled
        }
    }
}

extension Batch where Item == String {
    /// A batch of input files, named by their file names in the progress line.
    init(inputs: [String], jobs: Int, progress: (done: Int, total: Int)? = nil) {
        self.init(items: inputs, jobs: jobs, progress: progress) { Path.lastComponent($0) }
    }
}

/// The batch's bookkeeping, shared by its threads inside a `Locked`.
private struct BatchState<Result> {
    private var nextIndex = 0
    private var done = 0
    var results: [Result?]
    private let showProgress: Bool
    private let start = DispatchTime.now().uptimeNanoseconds
    /// Items done before this batch, and the count progress is shown out of.
    private let before: Int
    private let total: Int

    init(count: Int, showProgress: Bool, progress: (done: Int, total: Int)) {
        results = Array(repeating: nil, count: count)
        self.showProgress = showProgress
        before = progress.done
        total = progress.total
    }

    mutating func next() -> Int? {
        guard nextIndex < results.count else { return nil }
        nextIndex += 1
        return nextIndex - 1
    }

    mutating func finish(_ index: Int, _ result: Result, name: String) {
        results[index] = result
        done += 1
        guard showProgress else { return }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let left = elapsed / Double(done) * Double(total - before - done)
        writeStandardError("\r\u{1B}[K[\(before + done)/\(total)] \(name)  \(Int(left.rounded()))s left")
    }

    func endProgress() {
        if showProgress { writeStandardError("\r\u{1B}[K") }
    }
}
