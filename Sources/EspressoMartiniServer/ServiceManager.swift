import CSystemd

/// Tells systemd (`Type=notify`) what the daemon is doing. Outside systemd `NOTIFY_SOCKET` is unset
/// and every call does nothing.
public enum ServiceManager {
    public static func ready(status: String) { notify("READY=1\nSTATUS=\(status)") }
    public static func reloading() { notify("RELOADING=1") }
    public static func stopping() { notify("STOPPING=1") }

    private static func notify(_ state: String) {
        _ = sd_notify(0, state)
    }
}
