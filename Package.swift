// swift-tools-version:6.2
import PackageDescription

let package = Package(
  name: "ctfo",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "ctfo", targets: ["ctfo"]),
    .executable(name: "ctfo-full", targets: ["ctfo-full"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
  ],
  targets: [
    // Linked by name (module.modulemap) rather than through pkg-config, whose flags SwiftPM
    // rejects with a warning on every build (-D_XOPEN_SOURCE...; shim.h sets what is needed).
    // `make` installs libncursesw5-dev when it is missing.
    .systemLibrary(name: "CNcursesw"),
    .target(
      name: "FeedCore",
      dependencies: [
        .product(name: "HeapModule", package: "swift-collections"),
        .product(name: "DequeModule", package: "swift-collections"),
      ]
    ),
    .target(name: "CardText"),
    .target(name: "CSQLiteExtras"),
    .target(
      name: "StateFile",
      dependencies: ["FeedCore", "CSQLiteExtras", .product(name: "GRDBSQLite", package: "GRDB.swift")]
    ),
    .target(
      name: "CardStore",
      dependencies: [
        "FeedCore", "StateFile", .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "GRDBSQLite", package: "GRDB.swift"),
      ]
    ),
    .target(
      name: "FeedPipeline",
      dependencies: [
        "FeedCore", "CardText", "StateFile", .product(name: "DequeModule", package: "swift-collections"),
      ]
    ),
    .target(name: "Screens", dependencies: ["FeedCore", "CardText", "FeedPipeline", "Terminal"]),
    .target(name: "Terminal", dependencies: ["CNcursesw", "CardText"]),
    .target(
      name: "CommandSupport", dependencies: ["FeedCore", "CardText", "StateFile", "FeedPipeline"]),
    // The small `ctfo`: no Foundation, linked statically (see DECISIONS.md, "The small ctfo").
    .executableTarget(
      name: "ctfo",
      dependencies: ["CommandSupport"],
      linkerSettings: [.unsafeFlags(["-static-executable"], .when(platforms: [.linux]))]
    ),
    .executableTarget(
      name: "ctfo-full",
      dependencies: [
        "FeedCore", "CardText", "StateFile", "CardStore", "FeedPipeline", "Screens", "Terminal",
        "CommandSupport",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "TOMLKit", package: "TOMLKit"),
      ]
    ),
    .executableTarget(
      name: "ctfo-bench",
      dependencies: ["FeedCore", "CardText", "StateFile", "CardStore", "FeedPipeline", "Screens"]
    ),
    .testTarget(name: "FeedCoreTests", dependencies: ["FeedCore"]),
    .testTarget(
      name: "CardTextTests",
      dependencies: [
        "CardText", .product(name: "PropertyBased", package: "swift-property-based"),
      ]
    ),
    .testTarget(
      name: "CardStoreTests",
      dependencies: ["CardStore", "StateFile", .product(name: "GRDB", package: "GRDB.swift")]
    ),
    .testTarget(name: "FeedPipelineTests", dependencies: ["FeedPipeline"]),
    .testTarget(name: "ScreensTests", dependencies: ["Screens"], exclude: ["Snapshots"]),
    .testTarget(name: "TerminalTests", dependencies: ["Terminal"]),
    .testTarget(
      name: "CommandTests",
      dependencies: [
        "ctfo-full", "CommandSupport", "StateFile",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .testTarget(name: "EndToEndTests", dependencies: []),
    // The bundled decks as data (Resources/decks): JSON, links, no answer given away.
    .testTarget(name: "ContentTests", dependencies: []),
  ],
  swiftLanguageModes: [.v6]
)
