import CVips
import Foundation

/// How many heaps glibc's malloc may keep.
///
/// By default glibc gives threads that allocate at the same time heaps (arenas) of their own, up to eight per
/// core, and memory freed in one is not reused by another. libvips works a photo on several threads at once,
/// so a lone photo left 107 MB behind in its arenas, over the 100 MB a photo may cost; with two arenas, 44 MB
/// (`scripts/bench-media`, docs/performance.md "Photos"). `spotter serve` holds the arenas to the number of
/// cores, at least two, before its threads start; `MALLOC_ARENA_MAX` in the environment still wins.
public enum MallocArenas {
    /// Limits the arenas, unless the environment sets `MALLOC_ARENA_MAX`; returns the limit set, if any.
    @discardableResult
    public static func limit(to arenas: Int = max(2, ProcessInfo.processInfo.activeProcessorCount)) -> Int? {
        guard ProcessInfo.processInfo.environment["MALLOC_ARENA_MAX"] == nil else { return nil }
        return spotter_malloc_arena_max(Int32(arenas)) == 1 ? arenas : nil
    }
}
