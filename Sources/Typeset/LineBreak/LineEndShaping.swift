// What a line's ends do to its width. A line that ends or starts inside an item, where HarfBuzz
// marks the cut unsafe (a kerned pair, a contextual form), shows that piece shaped again
// (`ParagraphLayouter.buildLine`), and the piece can be wider than the paragraph's advances
// say: "AV" cut from "AV&#xAD;AT" loses the kern of V before A, and its line stood 1.2 pt past
// its box. The line filler asks this for the difference, so
// that what it measures is what is drawn.

final class LineEndShaping {
    private let items: [TextItem]
    private let advances: AdvanceTable
    /// Where a cut keeps HarfBuzz's clusters whole (`AdvanceTable.clusterEdges`): those the
    /// paragraph has, else made at the first unsafe cut a line asks about.
    private let knownEdges: [Bool]?
    private lazy var edges = knownEdges ?? advances.clusterEdges()
    /// An item's piece shaped alone: (item index, range) → its glyphs.
    private let shape: (Int, Range<Int>) -> [ShapedGlyph]
    /// By a cut's offset: what the piece beside it gains, measured from `reach`, the far end of
    /// that piece (the measure holds for every line that reaches at least that far).
    private var ends: [Int: (reach: Int, gain: Double)] = [:]
    private var starts: [Int: (reach: Int, gain: Double)] = [:]

    /// How many clusters from a cut a safe cut is looked for. Past them (a word of joined
    /// Arabic letters has none), the cut is measured in a stretch of that many clusters on each
    /// side. Shaping the line from its start for each of its possible ends was quadratic: 23 s
    /// for a word of 20,000 letters in a wide box. `most` leaves few ends to measure in a line,
    /// but a line of zero-width clusters has as many within it as it has clusters.
    static let reach = 8

    /// The most a line's two ends can change its width: a kern or a contextual form is well
    /// under half an em at each end (0.07 em at most over 139,000 cut ends of Latin, Arabic and
    /// Hebrew in Noto, 0.26 em for a Devanagari conjunct). A line whose advances are further
    /// than that from its limit fits or not whatever its ends do, and is not shaped again (most
    /// of the possible ends in a long word).
    let most: Double

    /// Nil when no cut inside the items is unsafe (`AdvanceTable.unsafeCuts`): the advances are
    /// then exact. `edges`: `advances.clusterEdges()` when made already. `largestSize`: of the
    /// items, in points.
    init?(
        items: [TextItem], advances: AdvanceTable, edges: [Bool]?, largestSize: @autoclosure () -> Double,
        shape: @escaping (Int, Range<Int>) -> [ShapedGlyph]
    ) {
        guard !advances.unsafeCuts.isEmpty else { return nil }
        self.items = items
        self.advances = advances
        knownEdges = edges
        self.shape = shape
        most = largestSize()
    }

    /// `width`, the advances of `start..<visibleEnd` and what else the line shows, with the
    /// line's `gain` when it could decide whether the line fits in `limit`.
    func width(_ width: Double, start: Int, visibleEnd end: Int, limit: Double) -> Double {
        abs(width - limit) > most ? width : width + gain(start: start, visibleEnd: end)
    }

    /// The width the line `start..<visibleEnd` shows beyond `advances.width(start..<visibleEnd)`.
    func gain(start: Int, visibleEnd end: Int) -> Double {
        guard start < end else { return 0 }
        let startCut = advances.unsafeCuts[start]
        let endCut = advances.unsafeCuts[end]
        guard startCut || endCut else { return 0 }
        let first = startCut ? cutFromStart(start, before: end) : (start, 0)
        let last = endCut ? cutFromEnd(end, after: start) : (end, 0)
        // A short line (its ends' pieces meet or overlap) is shaped whole.
        guard let first, let last, first.reach <= last.reach else {
            let item = items.partitionPoint { $0.scalarRange.upperBound <= start }
            return width(shape(item, start..<end)) - advances.width(start..<end)
        }
        return first.gain + last.gain
    }

    private func width(_ glyphs: [ShapedGlyph], where included: (Int) -> Bool = { _ in true }) -> Double {
        glyphs.reduce(0) { included($1.cluster) ? $0 + $1.advance : $0 }
    }

    private func isSafe(_ offset: Int) -> Bool { edges[offset] && !advances.unsafeCuts[offset] }

    /// A line that ends at the unsafe cut `end`: the piece back to the safe cut before it, in
    /// its item and not before `start`; nil when it would reach `start`, itself unsafe.
    private func cutFromEnd(_ end: Int, after start: Int) -> (reach: Int, gain: Double)? {
        if let known = ends[end], known.reach >= start { return known }
        let index = items.partitionPoint { $0.scalarRange.upperBound < end }
        let item = items[index].scalarRange
        var from = end - 1
        var clusters = 0
        while from > max(item.lowerBound, start) && !isSafe(from) {
            if edges[from] { clusters += 1 }
            if clusters == Self.reach { break }
            from -= 1
        }
        let found: (reach: Int, gain: Double)
        if isSafe(from) || from == item.lowerBound {
            found = (from, width(shape(index, from..<end)) - advances.width(from..<end))
        } else if from == start {
            return nil
        } else {
            // No safe cut near: the piece from..<end against the same piece running on past
            // `end`, both cut alike at `from`.
            let after = edge(from: end, clusters: Self.reach, within: item)
            let cut = width(shape(index, from..<end))
            found = (from, cut - width(shape(index, from..<after), where: { $0 < end }))
        }
        ends[end] = found
        return found
    }

    /// A line that starts at the unsafe cut `start`: the piece up to the safe cut after it, in
    /// its item and not after `end`; nil when it would reach `end`, itself unsafe.
    private func cutFromStart(_ start: Int, before end: Int) -> (reach: Int, gain: Double)? {
        if let known = starts[start], known.reach <= end { return known }
        let index = items.partitionPoint { $0.scalarRange.upperBound <= start }
        let item = items[index].scalarRange
        var to = start + 1
        var clusters = 0
        while to < min(item.upperBound, end) && !isSafe(to) {
            if edges[to] { clusters += 1 }
            if clusters == Self.reach { break }
            to += 1
        }
        let found: (reach: Int, gain: Double)
        if isSafe(to) || to == item.upperBound {
            found = (to, width(shape(index, start..<to)) - advances.width(start..<to))
        } else if to == end {
            return nil
        } else {
            let before = edge(from: start, clusters: -Self.reach, within: item)
            let cut = width(shape(index, start..<to))
            found = (to, cut - width(shape(index, before..<to), where: { $0 >= start }))
        }
        starts[start] = found
        return found
    }

    /// The cluster edge `clusters` edges after `offset` (before it, when negative), or the
    /// item's end that comes first.
    private func edge(from offset: Int, clusters: Int, within item: Range<Int>) -> Int {
        var offset = offset
        var left = abs(clusters)
        let step = clusters < 0 ? -1 : 1
        while left > 0 && offset + step >= item.lowerBound && offset + step <= item.upperBound {
            offset += step
            if edges[offset] { left -= 1 }
        }
        return offset
    }
}
