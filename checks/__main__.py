"""Allow `python -m headflow` to behave like the `headflow` command."""

from headflow.checks.cli import entry

entry()
