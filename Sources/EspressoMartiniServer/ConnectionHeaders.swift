import CMicroHTTPD
import EspressoMartini

/// A request's headers read where libmicrohttpd keeps them, on its connection: valid until libmicrohttpd
/// reports the request completed, so a `Request` holding this must not outlive its request.
struct ConnectionHeaders: RequestHeaderReader, @unchecked Sendable {
    typealias Visit = (_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) -> Void

    let connection: OpaquePointer

    func forEachHeader(_ body: Visit) {
        withoutActuallyEscaping(body) { body in
            var visit = body
            withUnsafeMutablePointer(to: &visit) { pointer in
                _ = MHD_get_connection_values_n(connection, .HEADER_KIND, { cls, _, name, nameSize, value, valueSize in
                    guard let cls, let name else { return .YES }
                    let visit = cls.assumingMemoryBound(to: Visit.self).pointee
                    name.withMemoryRebound(to: UInt8.self, capacity: nameSize) { name in
                        let value = value.map { UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self) }
                        visit(UnsafeBufferPointer(start: name, count: nameSize), UnsafeBufferPointer(start: value, count: value == nil ? 0 : valueSize))
                    }
                    return .YES
                }, pointer)
            }
        }
    }
}
