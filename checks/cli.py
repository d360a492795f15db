"""The `headflow` command: subcommands live in `headflow.checks.commands`, one module each.

Each command module defines HELP, `add_arguments(parser)` and `run(args) -> int`; it imports what decides (SymPy,
numpy, the kernel's balls) only when `run` runs, and its options' choices come from light modules
(`checks.choices`, `checks.input_bounds`), so that `headflow COMMAND --help` answers at once. Bad input of
any kind ends in one line on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import signal
import sys
from pathlib import Path
from typing import NoReturn

from headflow.certificates.errors import InputError
from headflow.checks import commands


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors in one line with exit code 2."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{self.prog}: error: {message} (see --help)\n")
        raise SystemExit(2)


class _Version(argparse.Action):
    """--version: the installed version, looked up only when asked (importlib.metadata costs every command
    start-up a few tens of milliseconds)."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help="show the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: object) -> NoReturn:
        from headflow.checks import __version__

        parser.exit(message=f"headflow {__version__}\n")


def _command_names() -> list[str]:
    """The command modules' names (a package of commands/ holds what several commands share, not a command)."""
    import pkgutil  # here: it imports inspect, which a command line that names its command does without

    return sorted(info.name for info in pkgutil.iter_modules(commands.__path__) if not info.ispkg)


def _summary(module_name: str) -> tuple[str, str]:
    """A command's name and one-line help, read from its module's source without importing it (start-up stays
    cheap: `headflow --help` imports no command); NAME and HELP are string literals (a test checks every one)."""
    import ast  # here: a command line that names its command parses no source

    source = (Path(commands.__path__[0]) / f"{module_name}.py").read_text(encoding="utf-8")
    found = {
        target.id: node.value.value
        for node in ast.parse(source).body
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
        for target in node.targets
        if isinstance(target, ast.Name) and target.id in ("NAME", "HELP")
    }
    return found.get("NAME", module_name.replace("_", "-")), found["HELP"]


def _named(word: str) -> dict[str, tuple[str, str]]:
    """The summary of the one command module spelled like `word` (`check-cert`: check_cert.py), read from the
    imported module (the command needs it anyway), when that module's name is `word`; empty otherwise. A command
    line that names its command reads no other module's source."""
    module_name = word.replace("-", "_")
    if module_name.startswith("_") or not (
        module_name.isidentifier() and (Path(commands.__path__[0]) / f"{module_name}.py").is_file()
    ):
        return {}
    module = importlib.import_module(f"headflow.checks.commands.{module_name}")
    name = getattr(module, "NAME", module_name.replace("_", "-"))
    return {module_name: (name, module.HELP)} if name == word else {}


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser of the one command `argv` names, with its options; for anything else (help, --version, a wrong
    name) the list of commands with their one-line help, no command imported."""
    parser = _Parser(
        prog="headflow",
        description="Check the theorems of 'Gradient Flow Structure and Quantitative Dynamics of "
        "Multi-Head Self-Attention': symbolic proofs, certificates, constants and simulations.",
    )
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    summaries = _named(argv[0]) if argv else {}
    if not summaries:  # help, --version or a name no module has under its own spelling: every command's summary
        summaries = {module_name: _summary(module_name) for module_name in _command_names()}
    chosen = next((m for m, (name, _) in summaries.items() if argv and name == argv[0]), None)
    for module_name, (name, text) in summaries.items():
        if module_name != chosen:
            sub.add_parser(name, help=text, description=text)
            continue
        module = importlib.import_module(f"headflow.checks.commands.{module_name}")
        command = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(command)
        # a command that starts no solver or coqc says so (`STARTS_PROCESSES = False`): no run folder to make
        command.set_defaults(handler=module.run, starts_processes=getattr(module, "STARTS_PROCESSES", True))
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    if getattr(args, "starts_processes", False):
        from headflow.certificates.temporary import own_folder

        own_folder()  # the solvers' and coqc's temporary folders go inside this run's, swept if it is killed
    if getattr(args, "handler", None) is None:
        parser.print_help()
        return 2
    try:
        return int(args.handler(args))
    except InputError as exc:
        sys.stderr.write(f"headflow: error: {exc}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("headflow: interrupted\n")
        return 130
    except OSError as exc:
        sys.stderr.write(f"headflow: error: {exc.strerror or exc}: {exc.filename or ''}\n")
        return 2


def entry() -> NoReturn:
    """The `headflow` command: exit with main's code. A Ctrl-C that comes after main has returned (the interpreter
    shutting down) is ignored, so the code stays main's: 130 for an interrupted run, never a death by SIGINT."""
    try:
        code = main()
    except KeyboardInterrupt:  # between main's own handler and its return
        sys.stderr.write("headflow: interrupted\n")
        code = 130
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sys.exit(code)


if __name__ == "__main__":
    entry()
