"""The data files a claim names (its tokens, its head matrices): read only from inside the claims file's folder.

Running someone else's claims file must not show them your files, so a data file is a relative path inside the
folder of the claims file that names it: an absolute path, a `..` component, or a symbolic link (of the path or of a
folder on it) that leads out of that folder is refused before anything is read; a link that stays inside is
followed. The folder and the target are resolved first and the target's place checked; the target is then opened
one folder at a time from the claims file's folder, never following a link (`headflow.certificates.kernel.loading`,
`dir_fd`), so a link swapped in after the check is refused too. The file must be a regular file of at most the
caller's number of bytes. A claim parsed without a claims file (TOML text, the claim a certificate embeds) has no
folder and names no data file: `headflow check-cert` reads the certificate alone.

Errors name the file as the claim writes it and say why, and never show what the file holds: the parsers of its
content (`certificates.claims.given_tokens`, `certificates.claims.given_matrices`) name a line and column or an
entry's index instead of the text they found there.
"""

from __future__ import annotations

import csv
import os
from pathlib import Path, PurePath
from typing import NoReturn

from headflow.certificates.errors import InputError
from headflow.certificates.kernel.loading import RefusedFile, read_bounded

#: The suffixes of data files, each with its own parser.
SUFFIXES = (".npy", ".csv")

_FOLDER_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)


def names_file(value: object) -> bool:
    """Whether a field's value names a data file (a text ending in a data file's suffix)."""
    return isinstance(value, str) and value.strip().lower().endswith(SUFFIXES)


def read_data_file(field: str, path_text: str, base: Path | None, what: str, limit: int) -> tuple[str, bytes]:
    """The suffix (".npy" or ".csv") and at most `limit` bytes of the file `path_text` inside the claims file's
    folder `base`; InputError for another suffix, a path that leaves the folder, a refused or unreadable file."""
    relative = PurePath(path_text)
    suffix = relative.suffix.lower()
    if suffix not in SUFFIXES:
        raise InputError(field, path_text, f"a {what} file is a .npy or .csv file")
    if base is None:
        raise InputError(
            field, path_text, "a claim read without its claims file (TOML text, a certificate's claim) names no "
            "data file: write the data inline"
        )  # fmt: skip
    if "\x00" in path_text or relative.is_absolute() or relative.drive or ".." in relative.parts:
        raise InputError(
            field, path_text, f"a {what} file is a relative path inside the claims file's folder (no absolute path, "
            "no '..')"
        )  # fmt: skip
    try:
        folder = Path(base).resolve(strict=True)
        target = (folder / relative).resolve(strict=True)
    except (OSError, RuntimeError) as exc:  # RuntimeError: a loop of symbolic links (Python < 3.13)
        raise InputError(field, path_text, f"cannot read the file ({getattr(exc, 'strerror', None) or exc})") from None
    if target == folder or not target.is_relative_to(folder):
        raise InputError(field, path_text, "a symbolic link leads outside the claims file's folder")
    try:
        return suffix, _read_inside(folder, target.relative_to(folder).parts, limit)
    except RefusedFile as exc:
        raise InputError(field, path_text, str(exc.strerror)) from None
    except OSError as exc:
        raise InputError(field, path_text, f"cannot read the file ({exc.strerror or exc})") from None


def _read_inside(folder: Path, parts: tuple[str, ...], limit: int) -> bytes:
    """The file at `folder`/`parts`, opened folder by folder without following a link (the path was resolved)."""
    fd = os.open(folder, _FOLDER_FLAGS)
    try:
        for part in parts[:-1]:
            inner = os.open(part, _FOLDER_FLAGS | os.O_NOFOLLOW, dir_fd=fd)
            os.close(fd)
            fd = inner
        return read_bounded(parts[-1], limit, dir_fd=fd)
    finally:
        os.close(fd)


def at_entry(name: str, line: int, column: int) -> str:
    """Where an entry of a CSV data file is, for an error: the file, line and column (never the entry's text)."""
    return f"{name}, line {line}, column {column}"


def malformed_csv(field: str, name: str, line: int, exc: csv.Error) -> NoReturn:
    """A CSV data file the reader refuses, with its line (csv's reasons name no content)."""
    raise InputError(field, f"{name}, line {line}", f"malformed CSV ({exc})") from None


def not_utf8(field: str, name: str, data: bytes, exc: UnicodeDecodeError) -> NoReturn:
    """A data file that is not UTF-8 text, with the line of its first bad byte."""
    line = data.count(b"\n", 0, exc.start) + 1
    raise InputError(field, f"{name}, line {line}", "not UTF-8 text") from None
