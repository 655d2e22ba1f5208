import ArgumentParser
import Foundation
import SpotterServer

/// Push and email providers from the environment (see the README's table). Each provider is on when its
/// required variables are set; a half-set provider is an error at start-up rather than silent loss of pushes.
enum DeliveryOptions {
    static func apply(_ environment: [String: String], to configuration: inout DeliveryConfiguration) throws {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }

        let apnsNames = ["SPOTTER_APNS_KEY_FILE", "SPOTTER_APNS_KEY_ID", "SPOTTER_APNS_TEAM_ID", "SPOTTER_APNS_TOPIC"]
        let apns = apnsNames.compactMap(value)
        if apns.count == apnsNames.count {
            let key = try String(contentsOfFile: apns[0], encoding: .utf8)
            configuration.apns = APNsConfiguration(
                teamID: apns[2], keyID: apns[1], privateKeyPEM: key, topic: apns[3],
                baseURL: ["1", "true", "yes"].contains(value("SPOTTER_APNS_SANDBOX") ?? "")
                    ? APNsConfiguration.sandboxURL : APNsConfiguration.productionURL)
        } else if !apns.isEmpty {
            throw ValidationError("APNs needs all of \(apnsNames.joined(separator: ", "))")
        }

        if let key = value("SPOTTER_VAPID_PRIVATE_KEY") {
            guard let subject = value("SPOTTER_VAPID_SUBJECT") else {
                throw ValidationError("Web Push needs SPOTTER_VAPID_SUBJECT (mailto: or https:) too")
            }
            configuration.webPush = try VAPIDKeys(privateKeyBase64URL: key, subject: subject)
        }

        if let host = value("SPOTTER_SMTP_HOST") {
            guard let from = value("SPOTTER_SMTP_FROM") else { throw ValidationError("SMTP needs SPOTTER_SMTP_FROM") }
            let security: SMTPConfiguration.Security
            switch value("SPOTTER_SMTP_SECURITY") ?? "starttls" {
            case "starttls": security = .startTLS
            case "tls": security = .tls
            case "none": security = .none
            default: throw ValidationError("SPOTTER_SMTP_SECURITY must be starttls, tls or none")
            }
            let port = value("SPOTTER_SMTP_PORT").flatMap(Int.init) ?? (security == .tls ? 465 : 587)
            let credentials = value("SPOTTER_SMTP_USERNAME").map {
                SMTPConfiguration.Credentials(username: $0, password: value("SPOTTER_SMTP_PASSWORD") ?? "")
            }
            configuration.smtp = SMTPConfiguration(
                host: host, port: port, security: security, credentials: credentials, fromAddress: from,
                fromName: "Spotter", heloName: ProcessInfo.processInfo.hostName)
        }
    }
}
