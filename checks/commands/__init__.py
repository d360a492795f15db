"""Subcommands of `headflow`, discovered by `headflow.checks.cli` (one module per command)."""
