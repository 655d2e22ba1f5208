import Foundation

/// A BlurHash (https://blurha.sh): a photo's colours in a short string a client paints while the photo loads.
///
/// Written by hand: the algorithm is a page long and no Swift package for it is available here. It follows
/// Wolt's reference encoder step for step (the same sums in the same order, in `Double`), and is tested byte
/// for byte against PyPI's `blurhash` on generated images (`scripts/blurhash-vectors.py`).
///
/// ```swift
/// let hash = BlurHash.encode(rgb: pixels, width: 32, height: 24)  // "LEHV6nWB2yk8pyo0adR*.7kCMdnj"
/// ```
public enum BlurHash {
    /// Encodes `width`×`height` pixels of 8-bit sRGB, three bytes each, row by row.
    public static func encode(
        rgb pixels: some Collection<UInt8>, width: Int, height: Int, componentsX: Int = 4, componentsY: Int = 3
    ) -> String {
        precondition((1...9).contains(componentsX) && (1...9).contains(componentsY), "1 to 9 components")
        precondition(width > 0 && height > 0 && pixels.count == width * height * 3, "width × height × 3 bytes")
        let linear = pixels.map { linearTable[Int($0)] }
        let w = Double(width)
        let h = Double(height)

        var components: [(Double, Double, Double)] = []
        var maxAC = 0.0
        for j in 0..<componentsY {
            let cosY = (0..<height).map { cos(Double.pi * Double(j) * Double($0) / h) }
            for i in 0..<componentsX {
                let cosX = (0..<width).map { cos(Double.pi * Double(i) * Double($0) / w) }
                let norm = i == 0 && j == 0 ? 1.0 : 2.0
                var r = 0.0
                var g = 0.0
                var b = 0.0
                for y in 0..<height {
                    for x in 0..<width {
                        let basis = norm * cosX[x] * cosY[y]
                        let p = (y * width + x) * 3
                        r += basis * linear[p]
                        g += basis * linear[p + 1]
                        b += basis * linear[p + 2]
                    }
                }
                let component = (r / (w * h), g / (w * h), b / (w * h))
                components.append(component)
                if i != 0 || j != 0 {
                    maxAC = max(maxAC, abs(component.0), abs(component.1), abs(component.2))
                }
            }
        }

        let dc = components[0]
        let dcValue = (srgb(dc.0) << 16) + (srgb(dc.1) << 8) + srgb(dc.2)
        let quantisedMaxAC = Int(max(0, min(82, (maxAC * 166 - 0.5).rounded(.down))))
        let acNorm = Double(quantisedMaxAC + 1) / 166
        func quantise(_ value: Double) -> Int {
            let root = pow(abs(value / acNorm), 0.5)  // pow, not sqrt: the reference's sign_pow
            return Int(max(0, min(18, ((value < 0 ? -root : root) * 9 + 9.5).rounded(.down))))
        }

        var hash = base83((componentsX - 1) + (componentsY - 1) * 9, length: 1)
        hash += base83(quantisedMaxAC, length: 1)
        hash += base83(dcValue, length: 4)
        for (r, g, b) in components.dropFirst() {
            hash += base83(quantise(r) * 19 * 19 + quantise(g) * 19 + quantise(b), length: 2)
        }
        return hash
    }

    /// sRGB byte → linear light, once for each of the 256 values.
    private static let linearTable: [Double] = (0..<256).map { byte in
        let value = Double(byte) / 255
        return value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
    }

    /// Linear light → sRGB byte, rounded half up as the reference does.
    private static func srgb(_ linear: Double) -> Int {
        let value = max(0, min(1, linear))
        if value <= 0.0031308 { return Int(value * 12.92 * 255 + 0.5) }
        return Int((1.055 * pow(value, 1 / 2.4) - 0.055) * 255 + 0.5)
    }

    private static let alphabet = Array(
        "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~")

    private static func base83(_ value: Int, length: Int) -> String {
        var digits: [Character] = []
        var divisor = 1
        for _ in 1..<max(length, 1) { divisor *= 83 }
        for _ in 0..<length {
            digits.append(alphabet[(value / divisor) % 83])
            divisor /= 83
        }
        return String(digits)
    }
}
