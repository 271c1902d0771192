// swift-tools-version:6.2
import PackageDescription

let package = Package(
  name: "ctfo",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
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
    // SQLite's C API, linked by name like CNcursesw (libsqlite3-dev).
    .systemLibrary(name: "CSQLite"),
    .target(name: "CSQLiteExtras"),
    // The one SQLite layer of the state database (see DECISIONS.md, "One store").
    .target(name: "Store", dependencies: ["FeedCore", "CSQLite", "CSQLiteExtras"]),
    .target(
      name: "FeedPipeline",
      dependencies: [
        "FeedCore", "CardText", "Store", .product(name: "DequeModule", package: "swift-collections"),
      ]
    ),
    .target(name: "Screens", dependencies: ["FeedCore", "CardText", "FeedPipeline", "Terminal"]),
    .target(name: "Terminal", dependencies: ["CNcursesw", "CardText"]),
    .executableTarget(
      name: "ctfo-bench",
      dependencies: ["FeedCore", "CardText", "Store", "FeedPipeline", "Screens"]
    ),
    .testTarget(name: "FeedCoreTests", dependencies: ["FeedCore"]),
    .testTarget(
      name: "CardTextTests",
      dependencies: [
        "CardText", .product(name: "PropertyBased", package: "swift-property-based"),
      ]
    ),
    .testTarget(name: "StoreTests", dependencies: ["Store", "FeedCore"]),
    .testTarget(name: "FeedPipelineTests", dependencies: ["FeedPipeline"]),
    .testTarget(name: "ScreensTests", dependencies: ["Screens"], exclude: ["Snapshots"]),
    .testTarget(name: "TerminalTests", dependencies: ["Terminal"]),
    .testTarget(name: "EndToEndTests", dependencies: []),
  ],
  swiftLanguageModes: [.v6]
)
