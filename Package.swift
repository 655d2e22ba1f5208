// swift-tools-version: 6.1
import PackageDescription

// Dependencies point inward: Models ← Core ← adapters ← Server ← spotter (see docs/architecture.md).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

/// Where glib's headers are, which libvips' headers include: `pkg-config --cflags vips` less what libvips'
/// own headers do not need. Both Debian architectures' folders; the one that isn't there is ignored.
let vipsHeaders: [SwiftSetting] = [
    .unsafeFlags([
        "-Xcc", "-I/usr/include/glib-2.0",
        "-Xcc", "-I/usr/lib/x86_64-linux-gnu/glib-2.0/include",
        "-Xcc", "-I/usr/lib/aarch64-linux-gnu/glib-2.0/include",
    ])
]

let package = Package(
    name: "Spotter",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "spotter", targets: ["spotter"]),
        .library(name: "SpotterModels", targets: ["SpotterModels"]),
        .library(name: "SpotterKit", targets: ["SpotterKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.46.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
    ],
    targets: [
        .target(
            name: "SpotterModels",
            swiftSettings: swiftSettings
        ),
        // libsecp256k1 (Debian's libsecp256k1-dev, which scripts/serve and scripts/test install): BIP-340 Schnorr.
        .systemLibrary(
            name: "CSecp256k1", path: "Sources/CSecp256k1", pkgConfig: "libsecp256k1",
            providers: [.apt(["libsecp256k1-dev"])]),
        // Nostr's wire: events, keys, NIP-19, filters, messages and the NIP-101e workout mapping. Below
        // SpotterCore and SpotterKit alike, so the server and the devices compute ids and check signatures the
        // same way.
        .target(
            name: "SpotterNostr",
            dependencies: [
                "CSecp256k1",
                "SpotterModels",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        // End-to-end encrypted groups (docs/encryption.md): HPKE-wrapped epoch keys, content keys, post bodies,
        // STREAM-chunked blobs, signed device and group chains, safety numbers and recovery keys. Only
        // swift-crypto's primitives, composed; below SpotterCore and SpotterKit like SpotterNostr.
        .target(
            name: "SpotterE2E",
            dependencies: [
                "SpotterModels",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            // BIP-39's English words, from PyPI's `mnemonic` 0.21 (MIT), read once for recovery keys.
            resources: [.copy("Resources/bip39-english.txt")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "SpotterCore",
            dependencies: [
                "SpotterModels",
                "SpotterNostr",
                "SpotterE2E",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // SQL both storage adapters say the same, written once with its binds named (`SQL`) and rendered in
        // each database's placeholders. It knows no driver and nothing of SpotterCore's types.
        .target(
            name: "SpotterSQL",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "SpotterSQLite",
            dependencies: [
                "SpotterCore",
                "SpotterSQL",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "SpotterPostgres",
            dependencies: [
                "SpotterCore",
                "SpotterSQL",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // libvips (Debian's libvips-dev, which scripts/serve and scripts/test install); its C-variadic calls are
        // wrapped in the module's shim header. Not through pkg-config: glib's flags there carry `-pthread`, which
        // SwiftPM refuses with a warning on every build; the headers need only glib's two folders
        // (`vipsHeaders`), and the module map names the libraries to link.
        .systemLibrary(name: "CVips", path: "Sources/CVips", providers: [.apt(["libvips-dev"])]),
        .target(
            name: "SpotterImaging",
            dependencies: ["CVips", "SpotterCore"],
            swiftSettings: swiftSettings + vipsHeaders
        ),
        .target(
            name: "SpotterServer",
            dependencies: [
                "SpotterE2E",
                "SpotterCore",
                "SpotterImaging",
                "SpotterSQLite",
                "SpotterPostgres",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            // The web app's templates and static assets travel as one folder, read once at start-up.
            resources: [.copy("Resources/openapi.yaml"), .copy("Resources/web")],
            swiftSettings: swiftSettings + vipsHeaders
        ),
        // The client SDK: Foundation, the wire types, GRDB for the outbox and caches, and a WebSocket client
        // that runs on Linux and Apple platforms alike, so it builds for iOS as for Linux.
        .target(
            name: "SpotterKit",
            dependencies: [
                "SpotterModels",
                "SpotterNostr",
                "SpotterE2E",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "spotter",
            dependencies: [
                "SpotterServer",
                "SpotterKit",
                "SpotterCore",
                "SpotterE2E",
                "SpotterImaging",
                "SpotterModels",
                "SpotterNostr",
                "SpotterPostgres",
                "SpotterSQLite",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings + vipsHeaders
        ),
        .testTarget(
            name: "SpotterModelsTests",
            dependencies: ["SpotterModels"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SpotterNostrTests",
            dependencies: ["SpotterNostr"],
            // Read from the source tree (BIP-340's CSV, NIP-19's and rust-nostr's vectors), not shipped.
            exclude: ["Vectors"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SpotterE2ETests",
            dependencies: ["SpotterE2E", "SpotterModels", .product(name: "Crypto", package: "swift-crypto")],
            // pyhpke and mnemonic's check of our keys and words, run from the source tree by InteropTests.
            exclude: ["independent_check.py"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SpotterSQLTests",
            dependencies: ["SpotterSQL"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SpotterCoreTests",
            dependencies: ["SpotterCore", "SpotterTestSupport"],
            swiftSettings: swiftSettings + vipsHeaders
        ),
        .target(
            name: "SpotterTestSupport",
            dependencies: [
                "SpotterCore", "SpotterSQLite", "SpotterPostgres", "SpotterImaging", "CVips",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/SpotterTestSupport",
            swiftSettings: swiftSettings + vipsHeaders
        ),
        .testTarget(
            name: "SpotterServerTests",
            dependencies: [
                "SpotterServer",
                "SpotterE2E",
                "SpotterTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // Read from the source tree: botocore's presigned URLs (SigV4Tests), and rust-nostr's client, which
            // the relay's interoperability tests run.
            exclude: ["Media/sigv4-botocore.json", "Nostr/rust_nostr_client.py"],
            swiftSettings: swiftSettings + vipsHeaders
        ),
        .testTarget(
            name: "SpotterImagingTests",
            dependencies: ["SpotterImaging", "CVips", "SpotterCore", "SpotterTestSupport"],
            // Read from the source tree by BlurHashTests (PyPI blurhash's hashes), not shipped as a resource.
            exclude: ["blurhash-vectors.json"],
            swiftSettings: swiftSettings + vipsHeaders
        ),
        .testTarget(
            name: "SpotterKitTests",
            dependencies: [
                "SpotterKit",
                "SpotterServer",
                "SpotterTestSupport",
                // To write an outbox file as an earlier version left it.
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            // rust-nostr's LocalRelay, which the publishing tests start and stop, read from the source tree.
            exclude: ["Nostr/local_relay.py"],
            swiftSettings: swiftSettings + vipsHeaders
        ),
    ]
)
