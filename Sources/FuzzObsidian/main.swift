// libFuzzer entry point for the Obsidian vault settings reader and the moment.js format parser
// (built by scripts/fuzz.sh, not by swift build: it has no main of its own).
//
// InkObsidian depends on InkExport, which depends on the GRDB index, so scripts/fuzz.sh compiles only
// the files this needs: Sources/InkObsidian/{ObsidianVault,MomentDateFormat}.swift as InkObsidian, over
// Sources/InkExport/ZipWriter.swift (where ExportError lives) as InkExport.
//
// The input is `.obsidian/daily-notes.json`, then, after a NUL byte if there is one, `.obsidian/app.json`;
// the whole input is also parsed as a daily-note format. What a user relies on: a vault's settings are
// read or refused naming the settings file; the daily note and the attachment folder are always paths
// inside the vault; a format is parsed or refused naming a position inside it.
import Foundation
import InkExport
import InkObsidian

let vault = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-fuzz-obsidian-\(getpid())")
let settings = vault.appendingPathComponent(".obsidian")
let dailyFile = settings.appendingPathComponent("daily-notes.json")
let appFile = settings.appendingPathComponent("app.json")
let dates = [Date(timeIntervalSince1970: 1_795_000_000), Date(timeIntervalSince1970: 951_782_400),
             Date(timeIntervalSince1970: -86_400), Date(timeIntervalSince1970: 253_402_214_400)]
let zones = [TimeZone(identifier: "UTC")!, TimeZone(secondsFromGMT: 14 * 3600)!]

/// The vault folder goes when the fuzzer exits.
@_cdecl("LLVMFuzzerInitialize")
public func initializeObsidianFuzzer(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>) -> CInt {
    atexit { try? FileManager.default.removeItem(at: vault) }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzObsidian(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let input = Data(bytes: bytes, count: count)
    if let pattern = String(data: input, encoding: .utf8) {
        do {
            let format = try MomentDateFormat(pattern)
            for date in dates { _ = format.string(from: date, timeZone: zones[0]) }
        } catch {
            guard error.position >= 0, error.position < pattern.count else { fatalError("\(error) is outside the format") }
        }
    }

    try? FileManager.default.createDirectory(at: settings, withIntermediateDirectories: true)
    let split = input.firstIndex(of: 0)
    try? input[..<(split ?? input.endIndex)].write(to: dailyFile)
    if let split {
        try? input[input.index(after: split)...].write(to: appFile)
    } else {
        try? FileManager.default.removeItem(at: appFile)
    }
    let opened: ObsidianVault
    do {
        opened = try ObsidianVault(at: vault)
    } catch {
        guard error.path == dailyFile.path || error.path == appFile.path else { fatalError("refusal naming \(error.path): \(error)") }
        return 0
    }
    for date in dates {
        for zone in zones {
            do {
                let note = try opened.dailyNote(for: date, timeZone: zone)
                checkInside(note, "daily note")
                let folder = try opened.attachmentFolder(for: note)
                checkInside(folder, "attachment folder")
            } catch {
                guard error.path == dailyFile.path || error.path == appFile.path else { fatalError("refusal naming \(error.path): \(error)") }
            }
        }
    }
    return 0
}

/// A path relative to the vault that stays inside it.
func checkInside(_ path: String, _ what: String) {
    let components = path.split(separator: "/", omittingEmptySubsequences: false)
    guard !path.hasPrefix("/"), !components.contains(".."), !components.contains("."), !path.contains("\\"),
          path.isEmpty || !components.contains("")
    else { fatalError("\(what) \(path.debugDescription) is not a path inside the vault") }
}
