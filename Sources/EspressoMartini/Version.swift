/// The one place the version lives; `make deb` and the man page read it from here.
public enum EspressoMartiniVersion {
    public static let current = "0.1.0"
}
