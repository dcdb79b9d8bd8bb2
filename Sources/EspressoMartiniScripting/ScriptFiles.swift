import EspressoMartini

/// The files `Body.file` and `Body.template` name: relative to the script's method folder, and never
/// outside the requests folder (links resolved first).
enum ScriptFiles {
    static func read(_ path: String, for script: ResponseScript, function: String) -> Result<[UInt8], ScriptProblem> {
        guard !path.isEmpty, !path.hasPrefix("/") else {
            return .failure(
                ScriptProblem(message: "\(function): '\(path)' must be a path relative to the method folder"))
        }
        guard let real = FileSystem.realPath(FileSystem.join(script.methodFolderRealPath, path)) else {
            return .failure(ScriptProblem(message: "\(function): '\(path)' does not exist in the method folder"))
        }
        guard real.hasPrefix(script.rootRealPath + "/") else {
            return .failure(ScriptProblem(message: "\(function): '\(path)' resolves outside the requests folder"))
        }
        guard let bytes = FileBytes.reading(path: real) else {
            return .failure(ScriptProblem(message: "\(function): '\(path)' cannot be read"))
        }
        return .success(Array(bytes.buffer))
    }
}
