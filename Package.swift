// swift-tools-version:6.2
import PackageDescription

let package = Package(
  name: "ctfo",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "ctfo", targets: ["ctfo"]),
    .executable(name: "ctfo-server", targets: ["ctfo-server"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    // One trait, not the default two: SwiftPM passes several traits' defines in a random order
    // each run, which changed Hummingbird's compile commands and rebuilt the server every time.
    // ConfigurationSupport (swift-configuration) is not used.
    .package(
      url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1",
      traits: ["FullFoundation"]),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    // Hummingbird's own lifecycle, named to give the server's shutdown a deadline.
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
  ],
  targets: [
    // Linked by name (module.modulemap) rather than through pkg-config, whose flags SwiftPM
    // rejects with a warning on every build (-D_XOPEN_SOURCE...; shim.h sets what is needed).
    // `make` installs libncursesw5-dev and libsqlite3-dev when they are missing.
    .systemLibrary(name: "CNcursesw", path: "Sources/C/CNcursesw"),
    .systemLibrary(name: "CSQLite", path: "Sources/C/CSQLite"),
    // Background work that yields to the user: nice-10 threads, yield points, pauses while
    // keys come (DECISIONS.md, "Background work yields to the user").
    .target(name: "CCourtesy", path: "Sources/C/CCourtesy"),
    .target(name: "CSQLiteExtras", dependencies: ["CCourtesy"], path: "Sources/C/CSQLiteExtras"),
    // The SQLite layer the state database and the server's store share: connections with
    // cached statements, WAL handling, one lane per connection.
    .target(
      name: "SQL", dependencies: ["CSQLite", "CSQLiteExtras", "CCourtesy"],
      path: "Sources/Shared/SQL"),
    // TLS for the HTTP client: OpenSSL (libssl-dev), linked statically into `ctfo`; its macros
    // are wrapped in C (Sources/CTLS/tls.c).
    .target(
      name: "CTLS", path: "Sources/C/CTLS",
      linkerSettings: [.linkedLibrary("ssl"), .linkedLibrary("crypto")]),

    // Pure: no I/O, no clock, no terminal; width, height, time and randomness come in.
    .target(
      name: "FeedCore",
      dependencies: [
        .product(name: "HeapModule", package: "swift-collections"),
        .product(name: "DequeModule", package: "swift-collections"),
      ], path: "Sources/Core/FeedCore"
    ),
    .target(name: "CardText", path: "Sources/Core/CardText"),
    .target(
      name: "FeedPipeline",
      dependencies: [
        "FeedCore", "CardText", "CCourtesy",
        .product(name: "DequeModule", package: "swift-collections"),
      ], path: "Sources/Core/FeedPipeline"
    ),
    .target(
      name: "App", dependencies: ["FeedCore", "CardText", "FeedPipeline"], path: "Sources/Core/App"),
    .target(
      name: "Screens", dependencies: ["App", "FeedCore", "CardText", "FeedPipeline"],
      path: "Sources/Core/Screens"),

    // The outer ring: the state database, the terminal, the command line.
    .target(
      name: "Store",
      dependencies: [
        "FeedCore", "CardText", "FeedPipeline", "SQL", "ServerAPI",
      ], path: "Sources/Client/Store"),
    .target(
      name: "Terminal", dependencies: ["CNcursesw", "CardText", "App"],
      path: "Sources/Client/Terminal"),
    // The HTTP/1.1 client of the CTFO server: sockets and TLS, no Foundation (DECISIONS.md,
    // 2026-11-24, "An HTTP client of our own").
    .target(name: "HTTP", dependencies: ["CTLS", "CCourtesy"], path: "Sources/Client/HTTP"),
    // The CTFO API's client: auth, pull, card bodies (openapi.yaml), over HTTP.
    .target(
      name: "ServerAPI", dependencies: ["HTTP", "FeedCore", "CCourtesy"],
      path: "Sources/Client/ServerAPI"),
    // The client program: its commands (Commands), its configuration and paths (Config), and
    // what runs while the app does (Runtime: the run loop, the watcher, analytics, the server
    // link, hooks).
    .target(
      name: "CTFOProgram",
      dependencies: [
        "FeedCore", "CardText", "FeedPipeline", "App", "Screens", "Store", "Terminal", "HTTP",
        "ServerAPI",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ], path: "Sources/Client/CTFOProgram"),
    // One program for the app and every command: no full Foundation, linked fully statically
    // (DECISIONS.md, "One binary, one store"). Only its entry point lives here.
    .executableTarget(
      name: "ctfo",
      dependencies: ["CTFOProgram"], path: "Sources/Client/ctfo",
      linkerSettings: [
        .unsafeFlags(["-static-executable"], .when(platforms: [.linux], configuration: .release))
      ]
    ),
    // The reference CTFO server, a product of its own (Hummingbird, Foundation): its routes
    // and store in a library the tests start on loopback, and the `ctfo-server` command.
    .target(
      name: "CTFOServer",
      dependencies: [
        "SQL", "ServerAPI", "FeedCore", "CardText", "CTLS",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdCore", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
      ], path: "Sources/Server/CTFOServer"),
    .executableTarget(
      name: "ctfo-server",
      dependencies: [
        "CTFOServer", "ServerAPI", "Store", "CTFOProgram",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ], path: "Sources/Server/ctfo-server"),
    .executableTarget(
      name: "ctfo-bench",
      dependencies: [
        "FeedCore", "CardText", "FeedPipeline", "App", "Screens", "Store", "CTFOProgram",
        "ServerAPI", "HTTP",
      ], path: "Sources/Tools/ctfo-bench"
    ),

    // The fuzzers (`make fuzz`, Tests/Fuzz): one program, the harness named on its command line;
    // libFuzzer's driver is linked in only by `make fuzz`, a plain build refuses to run.
    .target(name: "CFuzzDriver", path: "Tests/Fuzz/Driver"),
    .executableTarget(
      name: "ctfo-fuzz",
      dependencies: [
        "CFuzzDriver", "FeedCore", "Store", "CardText", "CTFOProgram", "App", "Terminal", "HTTP",
        "ServerAPI",
      ],
      path: "Tests/Fuzz/Harness"),

    // What several test targets share: a temporary home, a deck writer, fake sources, fixtures
    // and the snapshot helper.
    .target(
      name: "TestSupport", dependencies: ["FeedCore", "CardText", "FeedPipeline", "App"],
      path: "Tests/TestSupport"),
    .testTarget(name: "FeedCoreTests", dependencies: ["FeedCore"]),
    .testTarget(
      name: "CardTextTests",
      dependencies: [
        "CardText", .product(name: "PropertyBased", package: "swift-property-based"),
      ]
    ),
    .testTarget(
      name: "StoreTests",
      dependencies: ["Store", "FeedCore", "TestSupport", "ServerAPI", "SQL", "CCourtesy"],
      exclude: ["Fixtures"]),
    .testTarget(name: "FeedPipelineTests", dependencies: ["FeedPipeline", "TestSupport"]),
    .testTarget(name: "AppTests", dependencies: ["App", "TestSupport"]),
    .testTarget(
      name: "ScreensTests", dependencies: ["Screens", "App", "TestSupport"],
      exclude: ["Snapshots"]),
    .testTarget(name: "TerminalTests", dependencies: ["Terminal", "App"]),
    .testTarget(name: "HTTPTests", dependencies: ["HTTP", "TestSupport"]),
    // The client against the real server, started on loopback by each test.
    .testTarget(
      name: "ServerAPITests",
      dependencies: [
        "ServerAPI", "CTFOServer", "Store", "FeedCore", "FeedPipeline", "HTTP", "TestSupport",
        "CTFOProgram", "App", "SQL",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
      ]),
    .testTarget(name: "CTFOProgramTests", dependencies: ["CTFOProgram", "TestSupport"]),
    .testTarget(name: "EndToEndTests", dependencies: ["TestSupport"]),
    // The bundled decks as data (Resources/decks): JSON, links, no answer given away.
    .testTarget(name: "ContentTests", dependencies: []),
  ],
  swiftLanguageModes: [.v6]
)
