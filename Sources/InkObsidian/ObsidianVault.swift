import Foundation
import InkExport
import InkStore

/// An Obsidian vault's settings that decide where pushed notes go: the daily notes' folder and
/// name format (`.obsidian/daily-notes.json`, `folder` and `format`) and the folder for new
/// attachments (`.obsidian/app.json`, `attachmentFolderPath`). Missing settings take Obsidian's
/// defaults: daily notes `YYYY-MM-DD.md` and attachments at the vault's root.
public struct ObsidianVault: Sendable {
    public let root: URL
    /// The daily notes' folder, relative to the vault ("" for the root).
    public let dailyFolder: String
    public let dailyFormat: MomentDateFormat
    /// `attachmentFolderPath` as Obsidian writes it: `/` the root, `./` beside the note, `./x` a
    /// folder beside the note, `x` a folder of the vault.
    public let attachmentSetting: String

    /// Reads the settings of the vault at `root`, which must be an existing folder.
    public init(at root: URL) throws(ExportError) {
        self.root = root.standardizedFileURL
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: self.root.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw ExportError(path: self.root.path, reason: "is not a folder (an Obsidian vault is an existing folder)")
        }
        if let library = OutputFile.library(containing: self.root) {
            throw ExportError(path: self.root.path, reason: "is inside the Inkwell library at \(library.path); give a vault outside it")
        }
        let settings = self.root.appendingPathComponent(".obsidian")
        let daily = try ObsidianVault.settings(settings.appendingPathComponent("daily-notes.json"))
        let app = try ObsidianVault.settings(settings.appendingPathComponent("app.json"))
        let dailyFile = settings.appendingPathComponent("daily-notes.json").path
        let folder = try ObsidianVault.string(daily, "folder", in: dailyFile) ?? ""
        dailyFolder = try ObsidianVault.relativeFolder(folder, setting: "folder", in: dailyFile)
        let format = try ObsidianVault.string(daily, "format", in: dailyFile).flatMap { $0.isEmpty ? nil : $0 } ?? "YYYY-MM-DD"
        do {
            dailyFormat = try MomentDateFormat(format)
        } catch {
            throw ExportError(path: dailyFile, reason: "\(error)")
        }
        let appFile = settings.appendingPathComponent("app.json").path
        attachmentSetting = try ObsidianVault.string(app, "attachmentFolderPath", in: appFile) ?? "/"
        _ = try ObsidianVault.relativeFolder(attachmentSetting.hasPrefix("./") ? String(attachmentSetting.dropFirst(2)) : attachmentSetting,
                                             setting: "attachmentFolderPath", in: appFile)
    }

    /// The daily note of the day `date` falls on in `timeZone`, relative to the vault
    /// (`Daily/2026-11-21.md`).
    public func dailyNote(for date: Date, timeZone: TimeZone) throws(ExportError) -> String {
        let name = dailyFormat.string(from: date, timeZone: timeZone)
        let path = (dailyFolder.isEmpty ? "" : dailyFolder + "/") + name + ".md"
        let file = root.appendingPathComponent(".obsidian/daily-notes.json").path
        return try ObsidianVault.relativeFolder(path, setting: "format", in: file)
    }

    /// The folder, relative to the vault, that attachments of `note` (a vault-relative path) go to.
    public func attachmentFolder(for note: String) throws(ExportError) -> String {
        let setting = attachmentSetting
        let noteFolder = note.split(separator: "/").dropLast().joined(separator: "/")
        let folder: String
        if setting == "./" || setting == "." {
            folder = noteFolder
        } else if setting.hasPrefix("./") {
            folder = (noteFolder.isEmpty ? "" : noteFolder + "/") + setting.dropFirst(2)
        } else {
            folder = setting
        }
        let file = root.appendingPathComponent(".obsidian/app.json").path
        if folder.contains(where: { "[]|#^".contains($0) }) {
            throw ExportError(path: file, reason: "\"attachmentFolderPath\" gives \"\(folder)\", which an embed ![[…]] cannot name (it holds [ ] | # or ^)")
        }
        return try ObsidianVault.relativeFolder(folder, setting: "attachmentFolderPath", in: file)
    }

    /// The JSON object in `url`, or an empty one when the file does not exist.
    static func settings(_ url: URL) throws(ExportError) -> [String: Any] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [:] }
        do {
            let data = try Data(contentsOf: url)
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw ExportError(path: url.path, reason: "is not a JSON object")
            }
            return object
        } catch let error as ExportError {
            throw error
        } catch {
            throw ExportError(path: url.path, reason: "cannot read the vault's settings: \(error.localizedDescription)")
        }
    }

    static func string(_ settings: [String: Any], _ key: String, in file: String) throws(ExportError) -> String? {
        guard let value = settings[key] else { return nil }
        guard let text = value as? String else { throw ExportError(path: file, reason: "\"\(key)\" is not a string") }
        return text
    }

    /// `path` as components inside the vault ("" for its root), refusing anything that could leave it.
    static func relativeFolder(_ path: String, setting: String, in file: String) throws(ExportError) -> String {
        let components = path.split(separator: "/", omittingEmptySubsequences: true)
        for component in components {
            if component == "." || component == ".." || component.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
                || component.contains("\\") {
                throw ExportError(path: file, reason: "\"\(setting)\" gives \"\(path)\", which is not a path inside the vault")
            }
        }
        return components.joined(separator: "/")
    }
}
