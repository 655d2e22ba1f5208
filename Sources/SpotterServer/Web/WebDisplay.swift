import Foundation
import SpotterCore
import SpotterModels

/// How the viewer reads numbers and dates: their units (kg/km or lb/mi) and time zone. Signed out: kg, km, UTC.
struct WebDisplay {
    let units: Units
    let timeZone: TimeZone

    init(viewer: AccountRecord?) {
        units = viewer?.profile.units ?? .kg
        timeZone = viewer.flatMap { TimeZone(identifier: $0.profile.timeZone) } ?? .gmt
    }
}
