internal import CMicroHTTPD
import EspressoMartini

/// A request's headers read where libmicrohttpd keeps them, on its connection: valid until libmicrohttpd
/// reports the request completed, so a `Request` holding this must not outlive its request.
struct ConnectionHeaders: RequestHeaderReader, @unchecked Sendable {
    /// Where one header's name and value lie in libmicrohttpd's memory.
    private struct Field {
        let name: UnsafePointer<CChar>
        let nameSize: Int
        let value: UnsafePointer<CChar>?
        let valueSize: Int
    }

    /// Room for `capacity` fields, filled by libmicrohttpd's iteration.
    private struct Gathering {
        let fields: UnsafeMutablePointer<Field>
        let capacity: Int
        var count = 0
    }

    let connection: OpaquePointer

    /// Packs the headers as libmicrohttpd walks them: one pass, each appended by the C callback.
    func pack(into packed: inout [UInt8]) {
        withUnsafeMutablePointer(to: &packed) { pointer in
            _ = MHD_get_connection_values_n(
                connection, .HEADER_KIND,
                { cls, _, name, nameSize, value, valueSize in
                    guard let cls, let name else { return .YES }
                    let packed = cls.assumingMemoryBound(to: [UInt8].self)
                    let nameBytes = UnsafeRawBufferPointer(start: name, count: nameSize)
                    let valueBytes = UnsafeRawBufferPointer(start: value, count: value == nil ? 0 : valueSize)
                    RequestHeaders.pack(nameBytes, valueBytes, into: &packed.pointee)
                    return .YES
                }, pointer)
        }
    }

    /// Gathers where the headers lie into memory on the stack, then calls `body` with each: no closure
    /// crosses into C, so reading the headers allocates nothing.
    func forEachHeader(_ body: (_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) -> Void) {
        let total = Int(MHD_get_connection_values_n(connection, .HEADER_KIND, nil, nil))
        guard total > 0 else { return }
        withUnsafeTemporaryAllocation(of: Field.self, capacity: total) { fields in
            var gathering = Gathering(fields: fields.baseAddress!, capacity: total)
            withUnsafeMutablePointer(to: &gathering) { pointer in
                _ = MHD_get_connection_values_n(
                    connection, .HEADER_KIND,
                    { cls, _, name, nameSize, value, valueSize in
                        guard let gathering = cls?.assumingMemoryBound(to: Gathering.self), let name,
                            gathering.pointee.count < gathering.pointee.capacity
                        else { return .NO }
                        (gathering.pointee.fields + gathering.pointee.count).initialize(
                            to: Field(
                                name: name, nameSize: nameSize, value: value, valueSize: value == nil ? 0 : valueSize)
                        )
                        gathering.pointee.count += 1
                        return .YES
                    }, pointer)
            }
            for field in UnsafeBufferPointer(start: fields.baseAddress, count: gathering.count) {
                let name = UnsafeRawPointer(field.name).assumingMemoryBound(to: UInt8.self)
                let value = field.value.map { UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self) }
                body(
                    UnsafeBufferPointer(start: name, count: field.nameSize),
                    UnsafeBufferPointer(start: value, count: field.valueSize))
            }
        }
    }
}
