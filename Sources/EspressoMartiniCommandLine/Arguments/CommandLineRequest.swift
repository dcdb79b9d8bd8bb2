/// What a command line asks for, once read.
public enum CommandLineRequest {
    case help(CommandDefinition)
    case version
    case completionScript(CompletionShell)
    case command(any Command)
}
