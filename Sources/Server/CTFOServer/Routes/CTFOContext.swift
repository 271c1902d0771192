import Hummingbird
import HummingbirdCore
import NIOCore

/// The request context: a small body limit for every route.
public struct CTFOContext: RequestContext {
  public var coreContext: CoreRequestContextStorage
  /// The connection (the fault switch closes it).
  public let channel: any Channel
  /// Who sent the request, once a route that takes a body knew it before reading the body
  /// (`UploadLimits`): the install of a valid token, or the sink whose credentials came.
  public var caller: String?
  public init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    channel = source.channel
  }
  public var maxUploadSize: Int { 16 * 1024 }
}
