"""A claim's statement, prose with ASCII mathematics, as HTML whose formulas are MathML.

Statements are written for the terminal: `sum_{h' != h} a^h_i a^h'_i <= T^h_i`, `<x_i, x_j> = -1/(n-1)`,
`dE/dt >= 0`. The HTML report shows the same sentence with each formula typeset. A statement is cut into tokens;
a run of tokens that can only be mathematics (a relation or an operator, a name with a sub- or superscript, a Greek
letter, a single-letter variable, a function applied to its argument) together with the commas, brackets and
numbers between them is one formula, and English words end it. Each formula is translated token by token into
LaTeX (`>=` is `\\geq`, `beta` is `\\beta`, `a^h'_i` is `a^{h'}_{i}`, `<x, y>` is an inner product) and converted by
`headflow.checks.reports.mathml`, whose checks every formula passes; a formula that does not convert stays text. Nothing
is evaluated or rewritten: the words of the statement are the claim's, only typeset, and its ASCII form stays in
each formula's annotation.
"""

from __future__ import annotations

import html
import re
from typing import NamedTuple

from headflow.checks.reports.mathml import Unconvertible, to_mathml

#: Statements longer than this are shown as text (a claims file's statement is the user's).
MAX_STATEMENT_CHARS = 5_000
_GREEK = """alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi pi rho sigma tau upsilon phi chi
    psi omega Gamma Delta Theta Lambda Xi Pi Sigma Phi Psi Omega"""
_LATEX_NAMES = {name: f"\\{name}" for name in _GREEK.split()} | {
    "eps": "\\varepsilon",
    "infinity": "\\infty",
    "xdot": "\\dot{x}",
    "sdot": "\\dot{s}",
}
_FUNCTIONS = {"exp": "\\exp", "ln": "\\ln", "log": "\\log", "max": "\\max", "min": "\\min", "sum": "\\sum"}
_FUNCTIONS |= {"Cov": "\\operatorname{Cov}", "sqrt": "\\sqrt"}
_OPERATORS = {">=": "\\geq", "<=": "\\leq", "!=": "\\neq", "->": "\\to", "<<": "\\ll", ">>": "\\gg", "~": "\\sim"}
_OPERATORS |= {"...": "\\dots", "in": "\\in", "iff": "\\iff"}
#: Sub- and superscripts made of these letters are indices (`s^h_ij`); other words are upright (`lambda_max`).
_INDEX_LETTERS = set("ijkhnmpqrstuv")

_TOKENS = re.compile(
    r"(?P<space>\s+)"
    r"|(?P<escape>\\(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}))"  # an escaped control character: text
    r"|(?P<word>[A-Za-z]{2,}(?:-[A-Za-z]+)+|[A-Za-z]+'s\b|[A-Z][A-Za-z]*\d+)"  # non-decreasing, head's, T17
    r"|(?P<number>\d+(?:\.\d+)?)"
    r"|(?P<name>[A-Za-z]+\d*'*⊥?)"
    r"|(?P<op>>=|<=|!=|->|<<|>>|\.\.\.|[-+*/=<>^_|(),\[\]{}~])"
    r"|(?P<other>.)",
    re.DOTALL,
)
#: Tokens that join a formula only between two mathematical ones.
_NEUTRAL = frozenset({"(", ")", "[", "]", "{", "}", ",", "in", "iff"})
_CLOSING = {")": "(", "]": "[", "}": "{"}
#: Characters that bind a name into a formula when written against it (`dE/dt`, `x_i`, `c*(H)`, `|v|`).
_BINDING = frozenset({"/", "_", "^", "*", "|"})


class Token(NamedTuple):
    kind: str
    text: str


def statement_html(statement: str) -> str:
    """The statement as HTML: its prose escaped, each formula as inline MathML (as text where it does not convert)."""
    if len(statement) > MAX_STATEMENT_CHARS:
        return html.escape(statement)
    tokens = [Token(m.lastgroup or "other", m.group()) for m in _TOKENS.finditer(statement)]
    out: list[str] = []
    at = 0
    for start, end in formula_spans(tokens):
        out.append(html.escape("".join(t.text for t in tokens[at:start])))
        out.append(_formula(tokens[start:end]))
        at = end
    out.append(html.escape("".join(t.text for t in tokens[at:])))
    return "".join(out)


def formula_spans(tokens: list[Token]) -> list[tuple[int, int]]:
    """(start, end) of each formula: a run of mathematical and neutral tokens, trimmed to balanced brackets, that
    holds more than a bare number."""
    spans: list[tuple[int, int]] = []
    index = previous = 0
    while index < len(tokens):
        if not _mathematical(tokens, index):
            index += 1
            continue
        end = index
        while end < len(tokens) and (
            _mathematical(tokens, end) or tokens[end].kind == "space" or tokens[end].text in _NEUTRAL
        ):
            end += 1
        begin = index
        while begin > previous and tokens[begin - 1].text in ("(", "["):  # a bracket opening the formula joins it
            begin -= 1
        start, stop = _trimmed(tokens, begin, end)
        if stop <= index:  # the bracket closes only after the formula: it stays prose
            start, stop = _trimmed(tokens, index, end)
        if stop > start and any(
            t.kind not in ("number", "space") and t.text not in _NEUTRAL for t in tokens[start:stop]
        ):
            spans.append((start, stop))
        index = previous = max(stop, index + 1)  # what the brackets cut off is read again
    return spans


def _mathematical(tokens: list[Token], index: int) -> bool:
    """Whether the token can only be read as mathematics."""
    token = tokens[index]
    if token.kind == "number":
        return True
    if token.kind == "op":
        return token.text not in _NEUTRAL
    if token.kind != "name":
        return False
    bound = any(0 <= other < len(tokens) and tokens[other].text in _BINDING for other in (index - 1, index + 1))
    letters = token.text.rstrip("'⊥0123456789")
    applied = index + 1 < len(tokens) and tokens[index + 1].text == "(" and letters.islower()
    single = len(letters) == 1 and letters not in "aA"
    named = letters in _LATEX_NAMES or (letters in _FUNCTIONS and letters != "sum")  # "the sum" is prose
    return bound or applied or single or named or "⊥" in token.text


def _trimmed(tokens: list[Token], start: int, end: int) -> tuple[int, int]:
    """The run without trailing spaces, commas and closers nothing opened (and a span whose brackets do not
    balance is cut where they stop balancing)."""
    stack: list[str] = []
    last_balanced = start
    for index in range(start, end):
        text = tokens[index].text
        if text in ("(", "[", "{"):
            stack.append(text)
        elif text in _CLOSING:
            if not stack or stack[-1] != _CLOSING[text]:
                break
            stack.pop()
        if not stack and tokens[index].kind != "space" and text not in (",", "in", "iff"):
            last_balanced = index + 1
    return start, last_balanced


def _formula(tokens: list[Token]) -> str:
    ascii_text = "".join(t.text for t in tokens)
    try:
        return to_mathml(LatexWriter(tokens).latex(), display="inline")
    except (Unconvertible, IndexError, RecursionError):  # brackets that do not close, or nest past reason
        return html.escape(ascii_text)


class LatexWriter:
    """The LaTeX of one formula's tokens, written token by token (no evaluation, no reordering)."""

    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = [t for t in tokens if t.kind != "space"]
        self.spaced = [
            (
                index > 0 and tokens[index - 1].kind == "space",
                index + 1 < len(tokens) and tokens[index + 1].kind == "space",
            )
            for index, t in enumerate(tokens)
            if t.kind != "space"
        ]
        self.at = 0

    def latex(self) -> str:
        parts = []
        while self.at < len(self.tokens):
            parts.append(self._next())
        return " ".join(parts)

    def _next(self) -> str:
        index, token = self.at, self.tokens[self.at]
        self.at += 1
        if token.text in ("_", "^"):
            return f"{token.text}{{{self._script()}}}"
        if token.text == "*":
            attached = not self.spaced[index][0]
            return "^{*}" if attached else "\\cdot"
        if token.text == "<" and not self.spaced[index][1] and (index == 0 or self.spaced[index][0]):
            return "\\langle"
        if token.text == ">" and not self.spaced[index][0]:
            return "\\rangle"
        if token.text in ("{", "}"):
            return "\\" + token.text
        if token.text in _OPERATORS:
            return _OPERATORS[token.text]
        if token.kind == "name":
            return self._name(token.text)
        return token.text

    def _name(self, text: str) -> str:
        if text == "sqrt" and self.at < len(self.tokens):
            return f"\\sqrt{{{self._group()}}}"
        if text in _FUNCTIONS:
            return _FUNCTIONS[text]
        prime = text[len(text.rstrip("'")) :]
        perp = "^{\\perp}" if text.rstrip("'").endswith("⊥") else ""
        core = text.rstrip("'").rstrip("⊥")
        letters = core.rstrip("0123456789")
        digits = f"_{{{core[len(letters) :]}}}" if len(letters) < len(core) else ""
        if letters in _LATEX_NAMES:
            base = _LATEX_NAMES[letters]
        elif len(letters) == 1 or (letters[0] == "d" and len(letters) == 2):
            base = letters  # a variable, or a differential (dE, dt)
        else:
            base = f"\\mathrm{{{letters}}}"
        if [t.text for t in self.tokens[self.at : self.at + 2]] == ["_", "bar"]:  # lambda_bar: the mean
            self.at += 2
            base = f"\\bar{{{base}}}"
        return base + digits + perp + prime

    def _group(self) -> str:
        """The next atom as LaTeX: a bracketed group (its brackets dropped) or one token."""
        opening = self.tokens[self.at].text
        if opening not in ("(", "{"):
            return self._next()
        closing = ")" if opening == "(" else "}"
        self.at += 1
        depth, parts = 0, []
        while True:
            text = self.tokens[self.at].text
            if text == closing and depth == 0:
                self.at += 1
                return " ".join(parts)
            depth += (text == opening) - (text == closing)
            parts.append(self._next())

    def _script(self) -> str:
        """A sub- or superscript: a group, or one atom (an index word like `ij` as letters, another word upright)."""
        token = self.tokens[self.at]
        letters = token.text.rstrip("'")
        if token.kind == "name" and len(letters) > 1 and letters not in _LATEX_NAMES and letters not in _FUNCTIONS:
            self.at += 1
            if set(letters) <= _INDEX_LETTERS:
                return token.text
            return f"\\mathrm{{{letters}}}" + token.text[len(letters) :]
        return self._group()
