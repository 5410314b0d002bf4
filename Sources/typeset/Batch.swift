// Runs one job per input on `jobs` threads, results in input order; shows progress on a
// terminal (done/total, current file, time left) and nothing otherwise.
import Foundation

struct Batch<Item: Sendable> {
    let items: [Item]
    let jobs: Int
    /// What the progress line calls an item.
    let name: @Sendable (Item) -> String

    init(items: [Item], jobs: Int, name: @Sendable @escaping (Item) -> String) {
        self.items = items
        self.jobs = jobs
        self.name = name
    }

    func run<Result>(_ body: @Sendable @escaping (Item) -> Result) -> [Result] {
        let state = BatchState<Result>(count: items.count, showProgress: isatty(STDERR_FILENO) == 1 && items.count > 1)
        let items = self.items
        let name = self.name
        let workers = max(1, min(jobs, items.count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let index = state.next() {
                let result = body(items[index])
                state.finish(index, result, name: name(items[index]))
            }
        }
        state.endProgress()
        return state.results.map { $0! }
    }
}

extension Batch where Item == String {
    /// A batch of input files, named by their file names in the progress line.
    init(inputs: [String], jobs: Int) {
        self.init(items: inputs, jobs: jobs) { ($0 as NSString).lastPathComponent }
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

    init(count: Int, showProgress: Bool) {
        results = Array(repeating: nil, count: count)
        self.showProgress = showProgress
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
        let left = elapsed / Double(done) * Double(results.count - done)
        let line = "\r\u{1B}[K[\(done)/\(results.count)] \(name)  \(Int(left.rounded()))s left"
        FileHandle.standardError.write(Data(line.utf8))
    }

    func endProgress() {
        if showProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
