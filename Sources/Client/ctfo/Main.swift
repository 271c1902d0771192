import CTFOProgram

/// The `ctfo` program: everything it does lives in `CTFOProgram`.
@main
enum Main {
  static func main() {
    CTFO.main()
  }
}
