"""The one exception type the CLI turns into a one-line message and exit code 2."""


class DsimError(Exception):
    """A problem with the user's input: unknown name, malformed file, impossible value."""


class RulesError(DsimError):
    """A rules file or override that does not validate."""


class RunInterrupted(DsimError):
    """Ctrl-C during a run: the completed chunks are kept for `--resume` (exit code 130)."""
