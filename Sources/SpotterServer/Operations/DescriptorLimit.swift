#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's limit on open descriptors: every connection takes one, and the soft limit a shell hands out
/// (often 1,024) is far below what the system allows a server (the hard limit).
public enum DescriptorLimit {
    /// Raises the soft limit to the hard limit, and says what it was and what it is now; nil if the limit
    /// cannot be read. Where the hard limit is unlimited (macOS), 65,536 is asked for instead.
    public static func raiseToHard() -> (was: UInt64, now: UInt64)? {
        var limit = rlimit()
        guard getrlimit(Self.resource, &limit) == 0 else { return nil }
        let was = UInt64(limit.rlim_cur)
        let target = limit.rlim_max == rlim_t.max ? min(limit.rlim_max, 65_536) : limit.rlim_max
        guard limit.rlim_cur < target else { return (was, was) }
        limit.rlim_cur = target
        guard setrlimit(Self.resource, &limit) == 0 else { return (was, was) }
        return (was, UInt64(target))
    }

    /// The soft limit now, if it can be read.
    public static func current() -> UInt64? {
        var limit = rlimit()
        guard getrlimit(Self.resource, &limit) == 0 else { return nil }
        return UInt64(limit.rlim_cur)
    }

    /// How many connections the server may hold: the limit less a reserve of a tenth and 64 more, for the
    /// database's connections and files, logs, and outgoing pushes and mail.
    public static func connectionBudget() -> Int {
        let limit = Int(clamping: current() ?? 1024)
        return max(16, limit - limit / 10 - 64)
    }

    #if canImport(Glibc)
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resource = RLIMIT_NOFILE
    #endif
}
