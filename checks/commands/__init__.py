"""Subcommands of `headflow`, discovered by `checks.cli` (one module per command)."""
