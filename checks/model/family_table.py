"""The manual's table of named families, rendered from the records of `headflow.certificates.families`.

`python -m headflow.model.family_table` prints it; a test holds the manual to it, so a family or option added to
the records shows in the manual or fails the test.
"""

from __future__ import annotations

from headflow.certificates.families import HEAD_FAMILIES, TOKEN_FAMILIES, Family, HeadFamily, Option

HEADER = "| family | of | d | options | hypotheses | `simulate` |\n|---|---|---|---|---|---|\n"


def option_text(option: Option) -> str:
    """ "rho in (-1/(n-1), 1), needed": an option, its domain, its default and where the hypotheses hold."""
    each = " (one per head)" if option.per_head else ""
    default = "needed" if option.default is None else f"default {option.default:g}"
    if option.kind == "tokens":
        return f"`{option.name}`: inline rows of numbers or a .npy/.csv file, unit tokens, {default}"
    if option.kind == "matrices":
        return f"`{option.name}`: one exact matrix per head, inline rational rows or a .npy/.csv file"
    if option.kind == "angles":
        return f'`{option.name}`: exact angles as text ("pi/3", "1/2"), d = 2, {default}'
    if option.kind == "count":
        return f"`{option.name}` an integer from {option.domain.low.text() if option.domain.low else 1} to n, {default}"
    generic = "" if option.generic is None else f" (the hypotheses hold in {option.generic.text()})"
    return f"`{option.name}`{each} in {option.domain.text()}, {default}{generic}"


def row(family: Family) -> str:
    """One family's line of the table."""
    kind = "heads" if isinstance(family, HeadFamily) else "tokens"
    hypotheses = ", ".join(family.hypotheses) if isinstance(family, HeadFamily) else ""
    options = "; ".join(option_text(o) for o in family.options)
    short = f"`{family.short}`" if family.short else ""
    return f"| `{family.name}` | {kind} | {family.d_text()} | {options} | {hypotheses} | {short} |\n"


def markdown() -> str:
    """The table of every family: heads, then tokens, in the order a claims file lists them."""
    return HEADER + "".join(row(f) for f in (*HEAD_FAMILIES.values(), *TOKEN_FAMILIES.values()))


if __name__ == "__main__":
    print(markdown(), end="")
