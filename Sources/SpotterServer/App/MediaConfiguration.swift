import Foundation
import SpotterCore

/// How photos are processed: limits, and the processing loop's pace.
public struct MediaConfiguration: Sendable {
    /// Whether this process processes uploads and sweeps unused ones (every node may; tools need not).
    public var runsProcessing = true
    /// How often an idle processing loop looks for uploads another node queued or a dead node left.
    public var pollInterval: Duration = .seconds(2)
    /// How often unused uploads and discarded photos are swept.
    public var sweepInterval: Duration = .seconds(600)
    /// File size, pixel count and rendition sizes.
    public var limits = ImageLimits()
    /// Replaces the libvips processor: a test's own, say, that fails on purpose.
    public var processor: (any ImageProcessor)?

    public init() {}
}
