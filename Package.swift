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
    // SHA-256 for the server's tokens; already in the graph through Hummingbird.
    .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
    // The server's /metrics in Prometheus's text format.
    .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    // gzip for the server's pull bodies (zlib through NIO's ByteBuffer).
    .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
    // The PostgreSQL store, for several server processes on one database.
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    // Already postgres-nio's and Hummingbird's: named for what CTFOServer imports of them
    // (a TLS context for PostgreSQL, the HTTP parts the pull lane reads and writes).
    .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
    .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    // The server's dashboard page (every value HTML-escaped).
    .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
  ],
  targets: [
    // Linked by name (module.modulemap) rather than through pkg-config, whose flags SwiftPM
    // rejects with a warning on every build (-D_XOPEN_SOURCE...; shim.h sets what is needed).
    // `make` installs libncursesw5-dev and libsqlite3-dev when they are missing.
    .systemLibrary(name: "CNcursesw", path: "Sources/C/CNcursesw"),
    .systemLibrary(name: "CSQLite", path: "Sources/C/CSQLite"),
    // Background work that yields to the user: nice-10 threads, yield points, pauses while
    // keys come (DECISIONS.md, "Background work yields to the user"); YieldToUser wraps it.
    .target(name: "CYieldToUser", path: "Sources/C/CYieldToUser"),
    .target(
      name: "YieldToUser", dependencies: ["CYieldToUser"], path: "Sources/Shared/YieldToUser"),
    .target(
      name: "CSQLiteExtras", dependencies: ["CYieldToUser"], path: "Sources/C/CSQLiteExtras"),
    // The SQLite layer the state database and the server's store share: connections with
    // cached statements, WAL handling, one lane per connection.
    .target(
      name: "SQL", dependencies: ["CSQLite", "CSQLiteExtras", "YieldToUser"],
      path: "Sources/Shared/SQL"),
    // The CTFO protocol's value types and their JSON (openapi.yaml), the analytics sinks'
    // formats among them: what the client and the server share. Pure: no I/O.
    .target(
      name: "CTFOWire", dependencies: ["FeedCore", "FlatJSON", "YieldToUser", "CBuildInfo"],
      path: "Sources/Shared/CTFOWire"),
    // The commit `--version` prints, from a header `make` writes (scripts/build-info.sh).
    .target(name: "CBuildInfo", path: "Sources/C/CBuildInfo"),
    // TLS for the HTTP client: OpenSSL (libssl-dev), linked statically into `ctfo`; its macros
    // are wrapped in C (Sources/C/CTLS/tls.c).
    .target(
      name: "CTLS", path: "Sources/C/CTLS",
      linkerSettings: [.linkedLibrary("ssl"), .linkedLibrary("crypto")]),
    // gzip with zlib (zlib1g-dev, linked statically into `ctfo`): the HTTP client's streaming
    // inflate, the server's CRC-32 of gzip pulls; its macros wrapped in C (Sources/C/CZlib).
    .target(name: "CZlib", path: "Sources/C/CZlib", linkerSettings: [.linkedLibrary("z")]),

    // Pure: no I/O, no clock, no terminal; width, height, time and randomness come in.
    .target(
      name: "FeedCore",
      dependencies: [
        .product(name: "HeapModule", package: "swift-collections"),
        .product(name: "DequeModule", package: "swift-collections"),
      ], path: "Sources/Core/FeedCore"
    ),
    .target(name: "CardText", path: "Sources/Core/CardText"),
    // A card ready to show (sanitised, laid out for a text area) and what the feed hands out:
    // where FeedCore's cards meet CardText's layout.
    .target(
      name: "CardPreparation", dependencies: ["FeedCore", "CardText"],
      path: "Sources/Core/CardPreparation"),
    // JSON scanned and written by hand: flat objects, nesting depth, string literals.
    .target(name: "FlatJSON", path: "Sources/Core/FlatJSON"),
    .target(
      name: "FeedPipeline",
      dependencies: [
        "FeedCore", "CardText", "CardPreparation", "YieldToUser",
        .product(name: "DequeModule", package: "swift-collections"),
      ], path: "Sources/Core/FeedPipeline"
    ),
    .target(
      name: "App", dependencies: ["FeedCore", "CardText", "CardPreparation"],
      path: "Sources/Core/App"),
    .target(
      name: "Screens", dependencies: ["App", "FeedCore", "CardText", "CardPreparation"],
      path: "Sources/Core/Screens"),

    // The deck format, shared by the client and the server: the line parser and its checks
    // (ids, type names, limits), deck files read in bounded memory, decks piped in live.
    .target(
      name: "Decks", dependencies: ["FeedCore", "CardText", "FlatJSON"],
      path: "Sources/Shared/Decks"),

    // The outer ring: the state database, the terminal, the command line.
    .target(
      name: "Store",
      dependencies: [
        "FeedCore", "CardText", "SQL", "CTFOWire", "FlatJSON", "YieldToUser", "Decks",
      ], path: "Sources/Client/Store"),
    .target(
      name: "Terminal", dependencies: ["CNcursesw", "CardText", "App"],
      path: "Sources/Client/Terminal"),
    // The HTTP/1.1 client of the CTFO server: sockets and TLS, no Foundation (DECISIONS.md,
    // "An HTTP client of our own").
    .target(
      name: "HTTP", dependencies: ["CTLS", "CZlib", "YieldToUser"], path: "Sources/Client/HTTP"),
    // The CTFO API's client: auth, pull, card bodies, analytics sinks (openapi.yaml), over HTTP.
    .target(
      name: "CTFOClient", dependencies: ["CTFOWire", "HTTP", "FlatJSON"],
      path: "Sources/Client/CTFOClient"),
    // The client program: its commands (Commands), its configuration and paths (Config), and
    // what runs while the app does (Runtime: the run loop, the watcher, analytics, the server
    // link, hooks).
    .target(
      name: "CTFOProgram",
      dependencies: [
        "FeedCore", "CardText", "CardPreparation", "FeedPipeline", "App", "Screens", "Store",
        "Terminal", "HTTP", "CTFOWire", "CTFOClient", "FlatJSON", "YieldToUser", "Decks",
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
        "SQL", "CTFOWire", "FeedCore", "CardText", "FlatJSON", "CZlib",
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "CompressNIO", package: "compress-nio"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdCore", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "Prometheus", package: "swift-prometheus"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
        .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
        .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "Mustache", package: "swift-mustache"),
      ], path: "Sources/Server/CTFOServer"),
    .executableTarget(
      name: "ctfo-server",
      dependencies: [
        "CTFOServer", "CTFOWire", "Decks",
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
        "CTFOWire", "CTFOClient", "HTTP",
      ], path: "Sources/Tools/ctfo-bench"
    ),

    // The fuzzers (`make fuzz`, Tests/Fuzz): one program, the harness named on its command line;
    // libFuzzer's driver is linked in only by `make fuzz`, a plain build refuses to run.
    .target(name: "CFuzzDriver", path: "Tests/Fuzz/Driver"),
    .executableTarget(
      name: "ctfo-fuzz",
      dependencies: [
        "CFuzzDriver", "FeedCore", "Store", "CardText", "CTFOProgram", "App", "Terminal", "HTTP",
        "CTFOWire", "CTFOClient", "Decks",
      ],
      path: "Tests/Fuzz/Harness"),

    // What several test targets share: a temporary home, a deck writer, fake sources, fixtures
    // and the snapshot helper.
    .target(
      name: "TestFixtures",
      dependencies: ["FeedCore", "CardText", "CardPreparation", "App", "CTFOWire"],
      path: "Tests/TestFixtures"),
    // What the server's suites and the client's suites against it share: the server's routes
    // on loopback in the test's process, and the lines it logs.
    .target(
      name: "ServerFixtures",
      dependencies: [
        "CTFOServer", "TestFixtures",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdCore", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
      ],
      path: "Tests/ServerFixtures"),
    .testTarget(name: "FeedCoreTests", dependencies: ["FeedCore"]),
    .testTarget(name: "FlatJSONTests", dependencies: ["FlatJSON"]),
    .testTarget(
      name: "CardPreparationTests", dependencies: ["CardPreparation", "CardText", "FeedCore"]),
    .testTarget(
      name: "CardTextTests",
      dependencies: [
        "CardText", .product(name: "PropertyBased", package: "swift-property-based"),
      ]
    ),
    .testTarget(
      name: "StoreTests",
      dependencies: [
        "Store", "FeedCore", "TestFixtures", "CTFOWire", "SQL", "CYieldToUser", "Decks",
      ],
      exclude: ["Fixtures"]),
    .testTarget(name: "DecksTests", dependencies: ["Decks", "FeedCore", "TestFixtures"]),
    .testTarget(name: "SQLTests", dependencies: ["SQL", "TestFixtures"]),
    // The server's library on its own: its store, without the client.
    .testTarget(
      name: "CTFOServerTests",
      dependencies: [
        "CTFOServer", "CTFOWire", "TestFixtures", "ServerFixtures",
        .product(name: "CompressNIO", package: "compress-nio"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
      ]),
    .testTarget(
      name: "FeedPipelineTests", dependencies: ["FeedPipeline", "CardPreparation", "TestFixtures"]),
    .testTarget(name: "YieldToUserTests", dependencies: ["YieldToUser"]),
    .testTarget(name: "AppTests", dependencies: ["App", "CardPreparation", "TestFixtures"]),
    .testTarget(
      name: "ScreensTests", dependencies: ["Screens", "App", "TestFixtures"],
      exclude: ["Snapshots"]),
    .testTarget(name: "TerminalTests", dependencies: ["Terminal", "App"]),
    .testTarget(name: "HTTPTests", dependencies: ["HTTP", "TestFixtures"]),
    // The client against the real server, started on loopback by each test.
    .testTarget(
      name: "CTFOClientTests",
      dependencies: [
        "CTFOClient", "CTFOWire", "CTFOServer", "Store", "FeedCore", "FeedPipeline", "HTTP",
        "TestFixtures", "ServerFixtures", "CTFOProgram", "App", "SQL",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
      ]),
    // The protocol's JSON, read and written without a network.
    .testTarget(name: "CTFOWireTests", dependencies: ["CTFOWire", "TestFixtures"]),
    // The client program's parts, the runner of the app's effects over a real home among them.
    .testTarget(
      name: "CTFOProgramTests",
      dependencies: [
        "CTFOProgram", "Decks", "TestFixtures", "App", "CardPreparation", "CardText", "FeedCore",
        "FeedPipeline", "Store", "Terminal", "Screens",
      ], exclude: ["Snapshots"]),
    .testTarget(name: "EndToEndTests", dependencies: ["TestFixtures"]),
    // The bundled decks as data (Resources/decks): JSON, links, no answer given away.
    .testTarget(name: "ContentTests", dependencies: []),
  ],
  swiftLanguageModes: [.v6]
)
