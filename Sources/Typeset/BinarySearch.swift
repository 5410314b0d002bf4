// Binary search over sorted arrays, shared by the stages that look up ranges (tables, fonts, lines).

extension Array {
    /// The first index whose element fails `isBefore`, for an array partitioned by it (all
    /// elements that pass come first): a binary search.
    func partitionPoint(_ isBefore: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if isBefore(self[middle]) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
