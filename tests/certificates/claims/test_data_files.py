"""A claims file reads only its own data: data files inside its folder, and errors that never show a file's content.

Each attack is a claims file someone else wrote: a symbolic link or a path that leads out of its folder (to a secret,
to the environment in /proc, to a device), a FIFO, and a data file whose text an error would otherwise print.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from headflow.certificates.claims.data_files import read_data_file
from headflow.certificates.claims.embedding import claim_text, read_embedded
from headflow.certificates.claims.loader import load_claims, parse_claims
from headflow.certificates.errors import InputError
from headflow.certificates.kernel.loading import RefusedFile, read_bounded

from tests.command import headflow

SECRET = "FOO_SECRET=hunter2"
ROWS = "3/5,4/5,0\n1,0,0\n0,-4/5,3/5\n0,0,1\n"


def claim(points: str) -> str:
    return (
        f'[[claim]]\nid = "c"\nkind = "dynamics"\nquantity = "energy"\nproperty = "non-decreasing"\nheads = "scalar"\n'
        f'lambdas = [1.0]\ntokens = "given"\npoints = "{points}"\nn = 4\nd = 3\nbeta = 1.0\n'
    )


@pytest.fixture
def folders(tmp_path: Path) -> tuple[Path, Path]:
    """(the claims file's folder, holding a good token file; a folder beside it holding a secret)."""
    mine, other = tmp_path / "claims", tmp_path / "other"
    mine.mkdir()
    other.mkdir()
    (mine / "tokens.csv").write_text(ROWS)
    (other / "secret.csv").write_text(f"{SECRET}\n")
    (other / "tokens.csv").write_text(ROWS)
    return mine, other


def refusal(points: str, folder: Path) -> str:
    """The one-line error of a claims file in `folder` naming `points`; it must not show the secret."""
    path = folder / "c.toml"
    path.write_text(claim(points))
    with pytest.raises(InputError) as caught:
        load_claims(path)
    message = str(caught.value)
    assert "hunter2" not in message and "FOO_SECRET" not in message
    return message


def test_a_data_file_inside_the_folder_is_read(folders: tuple[Path, Path]) -> None:
    mine, _ = folders
    (mine / "data").mkdir()
    (mine / "data" / "rows.csv").write_text(ROWS)
    (mine / "link.csv").symlink_to("data/rows.csv")  # a link that stays inside is followed
    (mine / "inner").symlink_to(mine / "data")  # so is a folder link that stays inside
    for points in ("tokens.csv", "./data/rows.csv", "link.csv", "inner/rows.csv"):
        (mine / "c.toml").write_text(claim(points))
        assert load_claims(mine / "c.toml")[0].options["points"].exact


def test_a_symbolic_link_out_of_the_folder_is_refused(folders: tuple[Path, Path]) -> None:
    mine, other = folders
    (mine / "out.csv").symlink_to(other / "secret.csv")
    assert "outside the claims file's folder" in refusal("out.csv", mine)
    (mine / "good.csv").symlink_to(other / "tokens.csv")  # even a good file: it is not the claims file's
    assert "outside the claims file's folder" in refusal("good.csv", mine)
    (mine / "away").symlink_to(other)  # a folder on the path that leads out
    assert "outside the claims file's folder" in refusal("away/secret.csv", mine)


def test_the_environment_and_devices_are_refused(folders: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    mine, _ = folders
    monkeypatch.setenv("FOO_SECRET", "hunter2")
    for name, target in (("env.csv", "/proc/self/environ"), ("zero.csv", "/dev/zero"), ("passwd.csv", "/etc/passwd")):
        (mine / name).symlink_to(target)
        assert "outside the claims file's folder" in refusal(name, mine)
    os.mkfifo(mine / "pipe.csv")  # inside the folder, but no regular file: refused without waiting for a writer
    assert "FIFO" in refusal("pipe.csv", mine)
    (mine / "loop.csv").symlink_to("loop.csv")
    assert "cannot read" in refusal("loop.csv", mine)


def test_absolute_paths_and_parent_components_are_refused(folders: tuple[Path, Path]) -> None:
    mine, other = folders
    for points in (str(other / "secret.csv"), str(mine / "tokens.csv"), "../other/secret.csv", "x/../tokens.csv"):
        assert "relative path inside the claims file's folder" in refusal(points, mine)


def test_an_error_names_the_line_and_column_never_the_text(folders: tuple[Path, Path]) -> None:
    mine, _ = folders
    (mine / "words.csv").write_text(f"1,0,0\n0,{SECRET},0\n0,0,1\n1,0,0\n")
    message = refusal("words.csv", mine)
    assert "words.csv, line 2, column 2" in message and "not a number" in message
    (mine / "bytes.csv").write_bytes(b"1,0,0\n\xff" + SECRET.encode() + b"\n")
    assert "bytes.csv, line 2" in refusal("bytes.csv", mine)
    (mine / "scores.csv").write_text(f"1,0,0\n0,1,{SECRET}\n")
    path = mine / "m.toml"
    given = 'heads = "given"\nscores = "scores.csv"'
    path.write_text(claim("tokens.csv").replace('heads = "scalar"\nlambdas = [1.0]', given))
    with pytest.raises(InputError, match=r"scores.csv, line 2, column 3") as caught:
        load_claims(path)
    assert "hunter2" not in str(caught.value)


def test_the_cli_prints_one_line_without_the_content(folders: tuple[Path, Path]) -> None:
    mine, other = folders
    (mine / "out.csv").symlink_to(other / "secret.csv")
    (mine / "c.toml").write_text(claim("out.csv"))
    done = headflow("check", str(mine / "c.toml"))
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "outside the claims file's folder" in done.stderr and "hunter2" not in done.stderr + done.stdout


def test_a_claim_without_its_file_names_no_data_file(
    folders: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """TOML text and the claim a certificate embeds have no folder: check-cert reads the certificate alone, never a
    file it names (not even one in the working folder)."""
    mine, _ = folders
    monkeypatch.chdir(mine)
    with pytest.raises(InputError, match="names no data file"):
        parse_claims(claim("tokens.csv"))
    raw = parse_claims(claim("tokens.csv"), "c.toml", mine)[0].raw
    with pytest.raises(InputError, match="names no data file"):
        read_embedded({"toml": claim_text(raw)})
    with pytest.raises(InputError, match="names no data file"):
        read_data_file("points", "tokens.csv", None, "token", 100)


def test_a_link_put_in_after_the_check_is_not_followed(folders: tuple[Path, Path]) -> None:
    """The file is opened in its folder without following a link: one swapped in after the path was checked is
    refused (`read_bounded` with `dir_fd`)."""
    mine, other = folders
    (mine / "swapped.csv").symlink_to(other / "secret.csv")
    fd = os.open(mine, os.O_RDONLY)
    try:
        with pytest.raises(RefusedFile, match="symbolic link"):
            read_bounded("swapped.csv", 100, dir_fd=fd)
        assert read_bounded("tokens.csv", 100, dir_fd=fd) == ROWS.encode()
    finally:
        os.close(fd)
