"""The exit cluster gap eps_exit(H, n, kappa) of Condition 8 in Theorem 19's regime, as a certified ball.

`headflow.identities.condition8_invariance` proves that the margin's sign along the trajectory is that of the
strictly concave h(rho) = (n - 1)(1 - rho)(1 + (n - 1) rho) - (H - 1)(exp(kappa (1 - rho)) + (n - 1) rho)^2
(kappa = alpha beta), with h(1) < 0; when h(0) > 0 it has exactly one zero rho_exit in (0, 1), and
eps_exit = 1 - rho_exit. So two exact rationals lo < hi with h(lo) > 0 > h(hi), each sign settled by a
ball, enclose rho_exit: no cover of [0, lo] is needed (concavity and h(0) > 0 keep h > 0 there). The
approximation comes from bisection at low precision and Newton steps at doubling precision; only the two
final signs are trusted, so a poor approximation can only cost precision, never soundness.

h is `headflow.identities.condition8_invariance.exit_function`, stored as a tree over rho, H, n and kappa
(`headflow.certificates.kernel.stored_forms`, held equal to SymPy's by a test), its derivative in rho the kernel's
(`certificates.kernel.derivatives`), both compiled once (`certificates.provers.programs`) and evaluated with H, n
and kappa as exact balls: no SymPy at call time, and no specialisation per (H, n).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from flint import arb
from headflow.certificates.kernel import stored_forms
from headflow.certificates.kernel.derivatives import derivative
from headflow.certificates.kernel.exact import ball_of, exact_value, precision
from headflow.certificates.provers.programs import Program, compile_trees
from headflow.certificates.statements.stored_forms import EXIT_FUNCTION

#: Bisection steps before Newton takes over (a start accurate to about 2^-30).
_BISECTIONS = 30
#: Newton steps at the full precision (each doubles the correct bits, the doubling schedule lags behind).
_FINAL_STEPS = 2


class NoExit(ValueError):
    """Condition 8 does not hold strictly at the orthogonal start (h(0) <= 0 or undecided), or H < 2."""


@dataclass(frozen=True)
class Bracket:
    """lo < rho_exit < hi, both exact, with h(lo) > 0 > h(hi) settled by balls at `prec` bits."""

    lo: Fraction
    hi: Fraction
    prec: int

    def gap_interval(self, digits: int = 6) -> str:
        """[a, b] with `digits` decimals, rounded outwards, containing eps_exit = 1 - rho_exit."""
        scale = 10**digits
        low = Fraction(math.floor((1 - self.hi) * scale), scale)
        high = Fraction(math.ceil((1 - self.lo) * scale), scale)
        return f"[{float(low):.{digits}f}, {float(high):.{digits}f}]"

    def gap(self) -> arb:
        """A ball containing eps_exit = 1 - rho_exit (the union of the balls of 1 - hi and 1 - lo)."""
        with precision(self.prec + 64):
            return ball_of(1 - self.hi).union(ball_of(1 - self.lo))


#: The tree symbols of h (`identities.condition8_invariance`'s symbols): H, n, the correlation rho, kappa = alpha beta.
_HEADS, _TOKENS, _RHO, _KAPPA = "H", "n", "rho", "kappa"


@lru_cache(maxsize=1)
def _programs() -> tuple[Program, Program]:
    """h and dh/drho compiled (once per process, on first use)."""
    h = stored_forms.tree(EXIT_FUNCTION)
    return compile_trees(h), compile_trees(derivative(h, _RHO))


def _value(program: Program, heads: int, tokens: int, strength: Fraction, at: Fraction, prec: int) -> arb:
    """h or dh/drho (`program`, of `_programs`) at rho = `at` for H = `heads`, n = `tokens`, kappa = `strength`,
    at `prec` bits."""
    with precision(prec):
        env = {_HEADS: ball_of(heads), _TOKENS: ball_of(tokens), _KAPPA: ball_of(strength), _RHO: ball_of(at)}
        (value,) = program.run(env)
        return value


def start_margin_positive(heads: int, tokens: int, strength: Fraction, max_prec: int = 4096) -> bool:
    """Whether h(0) = (n - 1) - (H - 1) exp(2 kappa) > 0, settled by balls (False when it is < 0)."""
    h, _ = _programs()
    prec = 64
    while prec <= max_prec:
        value = _value(h, heads, tokens, strength, Fraction(0), prec)
        if value > 0 or value < 0:
            return bool(value > 0)
        prec *= 2
    raise NoExit(f"h(0) too close to 0 to decide at {max_prec} bits")


def bracket(heads: int, tokens: int, strength: Fraction, prec: int) -> Bracket:
    """Exact lo < rho_exit < hi about 2^-(prec - 16) apart, certified by the signs of h (NoExit without a zero)."""
    if heads < 2:
        raise NoExit("a single head has no cross shadows: Condition 8 always holds, there is no exit")
    if not start_margin_positive(heads, tokens, strength):
        raise NoExit("Condition 8 fails at the orthogonal start ((H - 1) exp(2 alpha beta) > n - 1)")
    h, slope = _programs()
    lo, hi = Fraction(0), Fraction(1)
    for _ in range(_BISECTIONS):
        mid = (lo + hi) / 2
        if _value(h, heads, tokens, strength, mid, 64) > 0:
            lo = mid
        else:
            hi = mid
    x, working, steps = (lo + hi) / 2, 32, 0
    while working < prec + 32 or steps < _FINAL_STEPS:  # a few steps at full precision: the start has ~30 bits
        working = min(2 * working, prec + 32)
        steps += working == prec + 32
        with precision(working):
            step = _value(h, heads, tokens, strength, x, working) / _value(slope, heads, tokens, strength, x, working)
            x = exact_value((ball_of(x) - step).mid())
    width = Fraction(1, 2 ** max(prec - 8, 8))
    while width < 1:
        lo, hi = max(x - width, Fraction(0)), min(x + width, Fraction(1))
        if (
            _value(h, heads, tokens, strength, lo, prec + 64) > 0
            and _value(h, heads, tokens, strength, hi, prec + 64) < 0
        ):
            return Bracket(lo, hi, prec + 64)
        width *= 2**8
    raise NoExit("no bracket of the zero of h was certified")  # unreachable for h(0) > 0 > h(1)


def exit_gap_ball(heads: int, tokens: int, scale: Fraction, inverse_temperature: Fraction, prec: int) -> arb:
    """A ball containing eps_exit(H, n, alpha beta) at about `prec` bits."""
    return bracket(heads, tokens, scale * inverse_temperature, prec).gap()
