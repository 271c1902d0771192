import App
import CNcursesw
import Glibc

extension TerminalSession {
  /// Blocks in poll(2) on the terminal and on `wakeFD` until something happens; returns every
  /// event that is pending. No timeout: an idle app uses no CPU.
  public func waitForEvents(wakeFD: Int32) -> [InputEvent] {
    waitForEvents(wakeFD: wakeFD, timeout: -1)
  }

  /// Like `waitForEvents`, but returns an empty array after `milliseconds` (for the swipe
  /// animation's frames).
  public func waitForEvents(wakeFD: Int32, milliseconds: Int) -> [InputEvent] {
    waitForEvents(wakeFD: wakeFD, timeout: Int32(clamping: max(milliseconds, 0)))
  }

  func waitForEvents(wakeFD: Int32, timeout: Int32) -> [InputEvent] {
    var fds = [input, signals.readFD, wakeFD].map {
      pollfd(fd: $0, events: Int16(POLLIN), revents: 0)
    }
    while true {
      let ready = poll(&fds, nfds_t(fds.count), timeout)
      if ready < 0 && errno == EINTR { continue }
      var events = fds[1].revents & Int16(POLLIN) != 0 ? signalEvents() : []
      if fds[2].revents & Int16(POLLIN) != 0 {
        drain(wakeFD)
        events.append(.wake)
      }
      if fds[0].revents & Int16(POLLIN) != 0 { events += keyEvents() }
      if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { events.append(.terminate) }
      if !events.isEmpty || timeout >= 0 { return Self.coalesced(events) }
    }
  }

  /// The events of the signals received: resizing or suspending on the way.
  func signalEvents() -> [InputEvent] {
    signals.drain().compactMap { signal in
      switch signal {
      case SIGWINCH:
        applyTerminalSize()
        return .resize
      case SIGTSTP:
        suspend()
        return .resumed
      case SIGCONT where continuesOwnStop:
        continuesOwnStop = false
        return nil
      case SIGCONT:
        resume()
        return .resumed
      case SIGTERM, SIGHUP, SIGINT: return .terminate
      default: return nil
      }
    }
  }

  /// Every key curses has: `wget_wch` without blocking until it has none; cursor keys that
  /// came as their escape sequence are folded into their key (`KeySequences`), mouse reports
  /// into their event. When the keys end in part of a mouse report, the rest is read for up to
  /// `reportWait` ms; a part whose rest never comes is dropped, so none of it acts as a key.
  func keyEvents() -> [InputEvent] {
    var events = pendingKeys()
    while MouseReports.mayContinue(events) {
      var probe = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
      guard poll(&probe, 1, Self.reportWait) > 0 else { break }
      let more = pendingKeys()
      guard !more.isEmpty else { break }
      events += more
    }
    return KeySequences.folded(events)
  }

  /// How long the rest of a mouse report cut in two by the terminal's writes is waited for.
  static let reportWait: Int32 = 50

  /// The keys curses holds now, as they came.
  private func pendingKeys() -> [InputEvent] {
    var events: [InputEvent] = []
    var value: wint_t = 0
    while true {
      let status = wget_wch(window, &value)
      guard status != ERR else { return events }
      switch KeyDecoder.decode(UInt32(value), isKeyCode: status == KEY_CODE_YES) {
      case .event(.resize):
        shown = nil
        events.append(.resize)
      case .event(let event): events.append(event)
      case .mouseReport: events += mouseStart
      case .suspend:
        suspend()
        events.append(.resumed)
      }
    }
  }

  /// Reads a descriptor until it has nothing more, without ever blocking on it.
  func drain(_ fd: Int32) {
    var buffer = [UInt8](repeating: 0, count: 256)
    var probe = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    while poll(&probe, 1, 0) > 0, probe.revents & Int16(POLLIN) != 0,
      read(fd, &buffer, buffer.count) > 0
    {}
  }

  /// The events in order, with repeated resizes, wake-ups and resumes reported once, and of
  /// moves of the mouse one after another only the last.
  static func coalesced(_ events: [InputEvent]) -> [InputEvent] {
    var seen: Set<InputEvent> = []
    return events.indices.compactMap { i in
      let event = events[i]
      switch event {
      case .key: return event
      case .mouse(let report):
        let next = events.indices.contains(i + 1) ? events[i + 1] : nil
        guard report.kind == .drag, case .mouse(let following)? = next, following.kind == .drag
        else { return event }
        return nil
      case .resize, .wake, .resumed, .terminate: return seen.insert(event).inserted ? event : nil
      }
    }
  }
}
