// Runs one job per item on `jobs` threads, results in item order, each reported as soon as the
// items before it are done; shows progress on a terminal (done/total, current item, time left)
// and nothing otherwise.
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
    /// No progress line (a preparatory pass, before the batch's own).
    var quiet = false

    init(
        items: [Item], jobs: Int, progress: (done: Int, total: Int)? = nil, quiet: Bool = false,
        name: @Sendable @escaping (Item) -> String
    ) {
        self.items = items
        self.jobs = jobs
        self.progress = progress
        self.quiet = quiet
        self.name = name
    }

    /// `report` is called with each result in item order, as soon as the items before it are
    /// done (one at a time): an error in the first of 1,000 inputs is printed when it is found,
    /// not when the batch ends.
    func run<Result>(
        _ body: @Sendable @escaping (Item) -> Result, report: @escaping (Result) -> Void = { _ in }
    ) -> [Result] {
        run(body, report: report, keep: { $0 })
    }

    /// The same, keeping of each result, once reported, only what `keep` takes from it: the
    /// diagnostics of 10,000 inputs, kept to the end with two copies of their array, took
    /// 640 KB.
    func run<Result, Kept>(
        _ body: @Sendable @escaping (Item) -> Result, report: @escaping (Result) -> Void,
        keep: @escaping (Result) -> Kept
    ) -> [Kept] {
        let total = progress?.total ?? items.count
        let state = Locked(
            BatchState<Result, Kept>(
                count: items.count,
                showProgress: !quiet && total > 1 && ProgressLine.isShown,
                progress: progress ?? (0, items.count), report: report, keep: keep))
        let items = self.items
        let name = self.name
        let workers = Threads.usable(max(1, min(jobs, items.count)))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let index = state.withLock({ $0.next() }) {
                let result = body(items[index])
                state.withLock { $0.finish(index, result, name: name(items[index])) }
            }
        }
        return state.withLock { state in
            state.endProgress()
            return state.kept  // every item was reported
        }
    }
}

extension Batch where Item == String {
    /// A batch of input files, named by their file names in the progress line.
    init(inputs: [String], jobs: Int, progress: (done: Int, total: Int)? = nil, quiet: Bool = false) {
        self.init(items: inputs, jobs: jobs, progress: progress, quiet: quiet) { Path.lastComponent($0) }
    }
}

/// The batch's bookkeeping, shared by its threads inside a `Locked`.
private struct BatchState<Result, Kept> {
    private let count: Int
    private var nextIndex = 0
    private var done = 0
    /// Results done but not yet reported (an item before them is not done), by index.
    private var waiting: [Int: Result] = [:]
    /// What is kept of the results reported, in item order.
    private(set) var kept: [Kept] = []
    private let report: (Result) -> Void
    private let keep: (Result) -> Kept
    private let showProgress: Bool
    private let start = DispatchTime.now().uptimeNanoseconds
    /// Items done before this batch, and the count progress is shown out of.
    private let before: Int
    private let total: Int

    init(
        count: Int, showProgress: Bool, progress: (done: Int, total: Int), report: @escaping (Result) -> Void,
        keep: @escaping (Result) -> Kept
    ) {
        self.count = count
        kept.reserveCapacity(count)
        self.report = report
        self.keep = keep
        self.showProgress = showProgress
        before = progress.done
        total = progress.total
    }

    mutating func next() -> Int? {
        guard nextIndex < count else { return nil }
        nextIndex += 1
        return nextIndex - 1
    }

    mutating func finish(_ index: Int, _ result: Result, name: String) {
        waiting[index] = result
        done += 1
        if waiting[kept.count] != nil {
            endProgress()  // what the reports print starts on a line of its own
            while let next = waiting.removeValue(forKey: kept.count) {
                report(next)
                kept.append(keep(next))
            }
        }
        guard showProgress else { return }
        ProgressLine.draw(count: "[\(before + done)/\(total)] ", name: name, done: done, of: total - before, since: start)
    }

    func endProgress() {
        if showProgress { ProgressLine.clear() }
    }
}

/// The progress line on a terminal, `[3/1000] name  12s left`, drawn over itself.
enum ProgressLine {
    /// Whether standard error is a terminal that can take it: a terminal that cannot move its
    /// cursor (TERM=dumb: Emacs's shell) showed the line's escapes as text.
    static var isShown: Bool {
        isatty(STDERR_FILENO) == 1 && getenv("TERM").map { String(cString: $0) != "dumb" } ?? true
    }

    /// Draws the line: `count`, `name`, and the time left if the rest (`of` − `done`) takes as
    /// long each as the `done` since `start` (nanoseconds of uptime) did.
    static func draw(count: String, name: String, done: Int, of total: Int, since start: UInt64) {
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let left = elapsed / Double(max(done, 1)) * Double(total - done)
        writeRawStandardError(
            "\r\u{1B}[K"
                + terminalSafe(progressLine(count: count, name: name, left: "  \(Int(left.rounded()))s left", columns: terminalColumns())))
    }

    static func clear() {
        writeRawStandardError("\r\u{1B}[K")
    }

    /// The progress line cut to the terminal's width (a name in the middle, else left out): a
    /// line that wraps leaves its first row behind at every update. Widths are in columns (a
    /// CJK character or an emoji takes two).
    static func progressLine(count: String, name: String, left: String, columns: Int) -> String {
        let room = columns - 1 - width(count) - width(left)  // the last column would wrap on some terminals
        if width(name) <= room { return count + name + left }
        if room < 9 { return String((count + left).prefix(max(0, columns - 1))) }
        let characters = Array(name)
        var head = 0
        var used = 1  // the ellipsis
        while used + width(characters[head]) <= (room - 1) / 2 + 1 {
            used += width(characters[head])
            head += 1
        }
        var tail = characters.count
        while tail > head, used + width(characters[tail - 1]) <= room {
            used += width(characters[tail - 1])
            tail -= 1
        }
        return count + String(characters[..<head]) + "…" + String(characters[tail...]) + left
    }

    /// Terminal columns: two for wide and fullwidth characters, none for marks and format
    /// characters, one for the rest.
    static func width<Text: StringProtocol>(_ text: Text) -> Int { text.reduce(0) { $0 + width($1) } }

    static func width(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        switch first.generalCategory {
        case .Mn, .Me, .Cf: return 0
        default: return first.eastAsianWidth == .wide || first.eastAsianWidth == .fullwidth ? 2 : 1
        }
    }

    /// The width of the terminal standard error goes to (80 if it does not say).
    private static func terminalColumns() -> Int {
        var size = winsize()
        guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    /// For the pages of one output, on a terminal (nil elsewhere): `[page 3/462] name  9s
    /// left` as they are drawn. A lone input of many pages at a large scale took seconds with
    /// nothing shown. `clear()` when the render returns.
    static func pages(of name: String) -> (@Sendable (Int, Int) -> Void)? {
        guard isShown else { return nil }
        let start = DispatchTime.now().uptimeNanoseconds
        // One line at a time, whichever thread drew the page, and never a count below the last.
        let shown = Locked(0)
        return { drawn, total in
            guard total > 1 else { return }
            shown.withLock { shown in
                guard drawn > shown else { return }
                shown = drawn
                draw(count: "[page \(drawn)/\(total)] ", name: name, done: drawn, of: total, since: start)
            }
        }
    }
}
