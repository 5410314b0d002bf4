// How a batch process treats the memory it frees. glibc gives memory back to the kernel as soon
// as 128 KB are free at the top of the heap, and serves blocks over 128 KB with mmap: a render
// of many documents then faults the same pages in again for every document (zlib's state, page
// buffers, PNG surfaces), about 70 page faults a document, and the faults of two jobs contend
// for the process's memory map (issue 8).
import CCairo

/// Keeps freed memory for reuse instead of returning it to the kernel; for command-line runs,
/// whose peak memory is what they hold anyway. Call once, before any work.
public func keepFreedMemory() {
    _ = mallopt(M_TRIM_THRESHOLD, 256 << 20)
    _ = mallopt(M_MMAP_THRESHOLD, 32 << 20)
}
