// What a line's ends do to its width. A line that ends or starts inside an item, where HarfBuzz
// marks the cut unsafe (a kerned pair, a contextual form), shows that piece shaped again
// (`ParagraphLayouter.buildLine`), and the piece can be wider than the paragraph's advances
// say: "AV" cut from "AV&#xAD;AT" loses the kern of V before A, and its line stood 1.2 pt past
// its box. The line filler asks this for the difference, so that what it measures is what is
// drawn.

final class LineEndShaping {
    private let items: [TextItem]
    private let advances: AdvanceTable
    /// Where a cut keeps HarfBuzz's clusters whole (`AdvanceTable.clusterEdges`), made at the
    /// first unsafe cut a line asks about.
    private lazy var edges = advances.clusterEdges()
    /// The width of an item's piece shaped alone: (item index, range) → points.
    private let shapedWidth: (Int, Range<Int>) -> Double
    /// By a cut's offset: the safe cut beside it, and the width the piece between them gains.
    private var ends: [Int: (safe: Int, gain: Double)] = [:]
    private var starts: [Int: (safe: Int, gain: Double)] = [:]

    /// Nil when no cut inside the items is unsafe (`AdvanceTable.unsafeCuts`): the advances are
    /// then exact.
    init?(items: [TextItem], advances: AdvanceTable, shapedWidth: @escaping (Int, Range<Int>) -> Double) {
        guard !advances.unsafeCuts.isEmpty else { return nil }
        self.items = items
        self.advances = advances
        self.shapedWidth = shapedWidth
    }

    private func isUnsafe(_ offset: Int) -> Bool { advances.unsafeCuts[offset] }
    private func isSafe(_ offset: Int) -> Bool { edges[offset] && !advances.unsafeCuts[offset] }

    /// The width the line `start..<visibleEnd` shows beyond `advances.width(start..<visibleEnd)`.
    func gain(start: Int, visibleEnd end: Int) -> Double {
        let startCut = start < end && isUnsafe(start)
        let endCut = start < end && isUnsafe(end)
        guard startCut || endCut else { return 0 }
        var gain = 0.0
        if startCut {
            guard let first = cutFromStart(start, before: end) else { return whole(start, end) }
            gain += first.gain
        }
        if endCut {
            guard let last = cutFromEnd(end, after: start) else { return whole(start, end) }
            gain += last.gain
        }
        return gain
    }

    /// A line with no safe cut inside: its piece is shaped whole.
    private func whole(_ start: Int, _ end: Int) -> Double {
        let item = items.partitionPoint { $0.scalarRange.upperBound <= start }
        return shapedWidth(item, start..<end) - advances.width(start..<end)
    }

    /// A line that ends at the unsafe cut `end`: the piece from the safe cut before it, in its
    /// item and not before `start`; nil when the line's start is itself an unsafe cut. (Only
    /// within the line: a word of 20,000 joined Arabic letters has no safe cut, and shaping it
    /// from its start for each of its pieces was quadratic.)
    private func cutFromEnd(_ end: Int, after start: Int) -> (safe: Int, gain: Double)? {
        if let known = ends[end], known.safe >= start { return known }
        let index = items.partitionPoint { $0.scalarRange.upperBound < end }
        let lower = max(items[index].scalarRange.lowerBound, start)
        var safe = end - 1
        while safe > lower && !isSafe(safe) { safe -= 1 }
        if isUnsafe(safe) { return nil }
        let found = (safe, shapedWidth(index, safe..<end) - advances.width(safe..<end))
        ends[end] = found
        return found
    }

    /// A line that starts at the unsafe cut `start`: the piece up to the safe cut after it, in
    /// its item and not after `end`; nil when the line's end is itself an unsafe cut.
    private func cutFromStart(_ start: Int, before end: Int) -> (safe: Int, gain: Double)? {
        if let known = starts[start], known.safe <= end { return known }
        let index = items.partitionPoint { $0.scalarRange.upperBound <= start }
        let upper = min(items[index].scalarRange.upperBound, end)
        var safe = start + 1
        while safe < upper && !isSafe(safe) { safe += 1 }
        if isUnsafe(safe) { return nil }
        let found = (safe, shapedWidth(index, start..<safe) - advances.width(start..<safe))
        starts[start] = found
        return found
    }
}
