import HTTPTypes

extension HTTPFields {
    /// The value of a field sent once, found by a scan of the fields; several fields of the name read joined
    /// by commas, as `self[name]` reads them (so `Bearer a, Bearer b` is no bearer token).
    ///
    /// `self[name]` always builds the joined text, about 4,000 instructions a read, and every keyed request
    /// reads three (the bearer token, its key, its answer's content type).
    func value(of name: HTTPField.Name) -> String? {
        guard let first = firstIndex(where: { $0.name == name }) else { return nil }
        let rest = index(after: first)
        guard !self[rest...].contains(where: { $0.name == name }) else { return self[name] }
        return self[first].value
    }
}
