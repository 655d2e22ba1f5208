import Foundation
import Hummingbird

/// Where sign-in sends a person back to: the page that asked them to sign in.
///
/// Only a path on this site is ever followed. `https://evil.example`, `//evil.example` and `/\evil.example`
/// (which browsers read as `//`) would make the sign-in page an open redirect, so they are refused and the
/// person lands on the feed instead.
enum ReturnTo {
    /// `text` when it is a local path (with its query), else `nil`.
    static func localPath(_ text: String?) -> String? {
        guard let text, text.hasPrefix("/"), text.count <= 2000 else { return nil }
        let second = text.dropFirst().first
        guard second != "/", second != "\\" else { return nil }
        guard !text.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F || $0 == "\\" }) else {
            return nil
        }
        // Back to the sign-in or sign-out form would loop.
        let path = text.split(separator: "?", maxSplits: 1).first.map(String.init) ?? text
        guard !["/signin", "/signout", "/signup"].contains(path) else { return nil }
        return text
    }

    /// `/signin`, carrying the page a GET asked for so sign-in leads back to it.
    static func signinPath(returningTo request: Request) -> String {
        guard request.method == .get, let here = localPath(request.uri.description), here != "/" else {
            return "/signin"
        }
        var unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        unreserved.insert(charactersIn: "-._~/")
        return "/signin?return_to=" + (here.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "")
    }
}
