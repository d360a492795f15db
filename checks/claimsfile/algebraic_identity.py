"""Exact proofs of identities: denominators cleared, radicals reduced by a Groebner basis, logs compared.

`identity_decider` calls `prove_identity` first. The sides are inert expressions (`headflow.certificates.inert`):
no SymPy evaluation has used a sign, and every sign used below is proved by exact algebra
(`definedness.proved_on_domain`: signs of polynomial coefficients after shifting the symbols to
their domain's ends) or by balls for constants.
It runs in a child process with a deadline and returns PROVED with every step, or the reason it
did not prove the claim. A proof has three parts, each exact:

1. Definedness of both sides as written on the whole domain (SPEC section 3): the conditions the
   signs of coefficients prove (`definedness.proved_on_domain`), and the others proved here.
   A `!=` condition: the irreducible factors of its numerator are eliminated against the
   radicals' defining polynomials by resultants (`headflow.identities.algebraic.eliminate`), and the
   result, free of radicals, is proved non-zero on the domain by the signs of coefficients. A resultant is
   a polynomial combination of the factor and the defining polynomials, so it vanishes wherever
   the factor does, for every choice of root: `c_star(H) != 0` because the resultant of
   2 c = r - (H - 1) with r^2 - (H - 1)^2 - 4 is the constant -4. A `>` or `>=` condition (proved
   strictly): numerator and denominator are each reduced to A + B r modulo r^2 - p, for the one
   square root r = sqrt(p) of the expression, and their signs follow from those of A, B and
   A^2 - B^2 p (`_Prover.root_rule`). This is the one place a radical's sign is used, and it is
   discharged: r >= 0 because r is a real square root, p >= 0 being proved on the domain.
2. lhs - rhs = N / D over Q[atoms, parameters] (`headflow.identities.algebraic.ring_form`; a rational
   identity is the case without atoms). Every base raised to a negative power is proved non-zero
   on the domain as in 1, so D != 0; then N must reduce to 0 modulo a Groebner basis of the
   defining polynomials: N is in their ideal and vanishes wherever the atoms take their values.
   The reduction never uses a radical's sign, so it is valid for every root: `sqrt(x**2) = x` is
   never proved here (the SMT route proves it where the domain makes x >= 0).
3. Logarithms (free atoms in 2): when N = N0 + sum N_i log(u_i) with N0 reducing to 0 and the
   remainders of the N_i rational multiples r_i of one of them, R, then lhs - rhs = (R / D) sum r_i
   log(u_i) on the domain. With every u_i > 0 proved (as in 1), sum r_i log(u_i) is
   (1/m) log(prod u_i^k_i) for integers k_i = m r_i, which is 0 iff
   prod_{k_i > 0} u_i^k_i = prod_{k_i < 0} u_i^-k_i: an identity without those logs, proved by 2.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import sympy as sp
from headflow.certificates.claims.conditions import Condition
from headflow.certificates.claims.schema import IdentityClaim
from headflow.certificates.claims.symbolic import REDUCTION_OPERATIONS, isolated, normalized, short_text
from headflow.certificates.inert import Exp, Log, W
from headflow.checks.claimsfile.definedness import proved_on_domain
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome, Step, Verdict
from headflow.identities.algebraic import (
    RingForm,
    Unsupported,
    eliminate,
    factors,
    reduce_modulo,
    ring_form,
    square_root_form,
)
from headflow.identities.closed_forms import eliminate_exp_lambertw

RATIONAL = "rational identity: denominators cleared, numerator expanded to 0"
ALGEBRAIC = "algebraic reduction: denominators cleared, numerator reduced to 0 by a Groebner basis of the radicals"
LOGARITHMS = "logarithms compared through exponentials, then algebraic reduction"
#: How deep non-vanishing proofs may nest (a denominator inside a denominator inside ...).
MAX_NESTING = 4
#: Largest integer exponent k_i the log strategy raises an argument to.
MAX_LOG_EXPONENT = 12
#: Characters of an expression shown in a step.
TEXT = 400

_Proof = tuple[list[Step], str]


def prove_identity(claim: IdentityClaim, ctx: Context) -> tuple[Outcome | None, str]:
    """(PROVED outcome, "") or (None, why not), for lhs = rhs on the claim's domain."""
    answer, why = isolated(lambda: _Prover(claim).prove(), REDUCTION_OPERATIONS[ctx.profile], "the algebraic reduction")
    if answer is None:
        return None, why
    if isinstance(answer, str):
        return None, answer
    steps, method = answer
    return Outcome(Verdict.PROVED, method, steps=steps), ""


class _Failed(Exception):
    """A part of the proof did not go through; the message says which."""


@dataclass
class _Prover:
    """One proof attempt; `steps` grows as parts are proved, and `nonzero` remembers what it settled."""

    claim: IdentityClaim
    steps: list[Step] = field(default_factory=list)
    nonzero_known: dict[sp.Expr, bool] = field(default_factory=dict)
    positive_known: dict[sp.Expr, bool] = field(default_factory=dict)

    def prove(self) -> _Proof | str:
        """The steps and method name of a proof, or the reason there is none."""
        difference = self.claim.lhs - self.claim.rhs
        self.note(f"lhs - rhs = {_text(difference)}")
        try:
            self.definedness()
            rewritten = normalized(self.lambert(difference), expand=False)
            if rewritten != difference:
                self.note(
                    "Exact rewrites of exp and log, valid wherever both sides are defined (no sign used: "
                    "log(e^a) = a, e^(k log a + b) = a^k e^b with a > 0 where log a is defined, e^a e^b = e^(a + b)): "
                    f"lhs - rhs = {_text(rewritten)}"
                )
            form = ring_form(rewritten)
            self.denominators(form, "lhs - rhs")
            remainder = self.reduction(form, "lhs - rhs")
            if remainder == 0:
                return self.steps, RATIONAL if not form.atoms else ALGEBRAIC
            self.logarithms(form, remainder)
            return self.steps, LOGARITHMS
        except _Failed as failure:
            return f"the algebraic reduction did not prove it: {failure}"
        except Unsupported as exc:
            return f"the algebraic reduction does not apply: {exc}"

    def note(self, text: str) -> None:
        self.steps.append(Step(text))

    def lambert(self, expr: sp.Expr) -> sp.Expr:
        """`expr` with e^(k W(z) + rest) written (z / W(z))^k e^rest, each such z proved non-zero on the domain
        (W(z) e^W(z) = z, and W(z) = 0 only at z = 0); unchanged without such exponentials."""
        eliminated, arguments = eliminate_exp_lambertw(_exponentials_merged(expr), Exp, W)
        if not arguments:
            return expr
        for z in arguments:
            if not self.nonzero(z, 0):
                raise _Failed(f"the argument {_text(z, 80)} of lambertw was not proved non-zero on the domain")
        self.note(
            "The defining identity of Lambert W, W(z) e^W(z) = z: e^(k W(z) + b) = (z / W(z))^k e^b wherever "
            f"z != 0 (proved above; then W(z) != 0 too), for z = {', '.join(_text(z, 120) for z in arguments)}: "
            f"lhs - rhs = {_text(eliminated)}"
        )
        return _exponentials_merged(eliminated)

    def definedness(self) -> None:
        """Every condition of both sides as written holds on the whole domain (part 1)."""
        domains, order = self.claim.domains, self.claim.order
        unproved = [c for c in self.claim.conditions if not proved_on_domain(c, domains, order)]
        assumed = [c.text() for c in self.claim.conditions if c not in unproved]
        if not self.claim.conditions:
            self.note("Both sides are defined everywhere: no quotient, log, sqrt, root or lambertw")
            return
        if assumed:
            self.note(
                "Definedness, by signs of coefficients (each symbol written from its rational end): "
                + "; ".join(assumed)
            )
        for condition in unproved:
            proved = self.nonzero(condition.expr, 0) if condition.relation == "!=" else self.positive(condition.expr)
            if not proved:
                raise _Failed(f"definedness condition {condition.text()} ({condition.reason}) not proved on the domain")
        if unproved:
            self.note("Definedness, algebraically (above): " + "; ".join(c.text() for c in unproved))

    def denominators(self, form: RingForm, what: str) -> None:
        """Every base raised to a negative power is non-zero on the domain, so D != 0 (part 2)."""
        for atom in form.atoms:
            self.note(f"Atom {atom.text()}")
        for inverted in form.inverted:
            if not self.nonzero(inverted.value, 0):
                raise _Failed(f"the denominator {_text(inverted.value, 80)} was not proved non-zero on the domain")
        bases = ", ".join(_text(inverted.value, 120) for inverted in form.inverted)
        self.note(
            f"Denominators cleared: {what} = N / D with N = {_text(form.numerator)} and D = {_text(form.denominator)}"
            + (f"; D != 0 on the domain, since each base it inverts is non-zero (proved): {bases}" if bases else "")
        )

    def reduction(self, form: RingForm, what: str) -> sp.Expr:
        """N modulo the Groebner basis of the defining polynomials, with the step that says so."""
        reduction = reduce_modulo(form, form.numerator)
        if not form.relations():
            self.note(f"N of {what} expands to {_text(reduction.remainder)} (no radical)")
            return reduction.remainder
        order = " > ".join(str(g) for g in form.generators())
        basis = "; ".join(_text(element, 200) for element in reduction.basis)
        self.note(f"Groebner basis of the defining polynomials (lex, {order}): {basis}")
        self.note(
            f"N of {what} modulo the basis: remainder {_text(reduction.remainder)}"
            + (
                ", so N is a polynomial combination of the defining polynomials and vanishes wherever the atoms "
                "take their values, for every root (no sign of a radical is used); with D != 0, "
                f"{what} = 0 on the whole domain"
                if reduction.remainder == 0
                else ""
            )
        )
        return reduction.remainder

    def nonzero(self, expr: sp.Expr, depth: int) -> bool:
        """Whether `expr != 0` is proved on the whole domain (each proof is one step, made once)."""
        if expr not in self.nonzero_known:
            self.nonzero_known[expr] = False  # a cycle through the same expression proves nothing
            self.nonzero_known[expr] = self._nonzero(expr, depth)
        return self.nonzero_known[expr]

    def _nonzero(self, expr: sp.Expr, depth: int) -> bool:
        if isinstance(expr, W) and self.nonzero(expr.args[0], depth + 1):
            self.note(f"{_text(expr)} != 0 on the domain: W(z) = 0 only at z = 0 (W(z) e^W(z) = z)")
            return True
        if self.on_domain(expr, "!="):
            self.note(f"{_text(expr)} != 0 on the domain (signs of coefficients)")
            return True
        if depth >= MAX_NESTING:
            return False
        try:
            form = ring_form(expr)
            if not all(self.nonzero(inverted.value, depth + 1) for inverted in form.inverted):
                return False
            eliminated = [(f, form.value_of(eliminate(form, f))) for f in factors(form.numerator, form.generators())]
        except (Unsupported, _Failed):
            return False
        if not all(self.on_domain(value, "!=") for _, value in eliminated):
            return False
        relations = ", ".join(f"{atom.variable} = {atom.value}: {atom.relation}" for atom in form.radicals())
        eliminations = "; ".join(f"{_text(f, 160)} -> {_text(value, 160)}" for f, value in eliminated)
        self.note(
            f"{_text(expr)} != 0 on the domain. Its numerator's irreducible factors, eliminated against the defining "
            f"polynomials ({relations or 'none'}) by resultants: {eliminations}. Each resultant is a polynomial "
            "combination of its factor and the defining polynomials and is non-zero on the domain (signs of "
            "coefficients), so no factor vanishes, whichever roots the atoms take"
        )
        return True

    def positive(self, expr: sp.Expr) -> bool:
        """Whether `expr > 0` is proved on the whole domain: by coefficient signs, else through N / D (each once)."""
        if self.on_domain(expr, ">"):
            return True
        if expr not in self.positive_known:
            self.positive_known[expr] = False
            self.positive_known[expr] = self._positive(expr)
        return self.positive_known[expr]

    def _positive(self, expr: sp.Expr) -> bool:
        try:
            form = ring_form(expr)
            if not all(self.nonzero(inverted.value, 1) for inverted in form.inverted):
                return False
            numerator = self.sign(form, form.numerator)
            denominator = self.sign(form, sp.expand(form.denominator))
        except (Unsupported, _Failed):
            return False
        if numerator is None or denominator is None or numerator[0] != denominator[0]:
            return False
        self.note(f"{_text(expr)} > 0 on the domain: it is N / D with N {numerator[1]}, and D {denominator[1]}")
        return True

    def sign(self, form: RingForm, polynomial: sp.Expr) -> tuple[int, str] | None:
        """(+1 or -1, why) when the polynomial's sign at the atoms' values is proved on the whole domain.

        Without radicals, signs of coefficients decide. With one square root r = sqrt(p), the
        polynomial is A + B r modulo r^2 - p, and r >= 0 is used: it holds because r is the real
        square root, p >= 0 being proved on the domain here.
        """
        if not form.radicals():
            value = form.value_of(polynomial)
            for sign in (1, -1):
                if self.on_domain(sign * value, ">"):
                    return sign, f"= {_text(value, 160)} {'>' if sign > 0 else '<'} 0 (signs of coefficients)"
            return None
        root = square_root_form(form, polynomial)
        if root is None or not self.on_domain(form.value_of(root.radicand), ">="):
            return None
        constant, coefficient, norm = (form.value_of(e) for e in (root.constant, root.coefficient, root.norm))
        for sign in (1, -1):
            rule = self.root_rule(sign * constant, sign * coefficient, norm)
            if rule:
                return sign, (
                    f"= A + B*r modulo {root.atom.relation}, where r = {root.atom.variable} = {root.atom.value} >= 0 "
                    f"(a real square root: {_text(form.value_of(root.radicand), 120)} >= 0 on the domain), "
                    f"A = {_text(constant, 160)}, B = {_text(coefficient, 160)}, A^2 - B^2 r^2 = {_text(norm, 160)}: "
                    f"{'' if sign > 0 else 'with -A, -B for A, B: '}{rule} (signs of coefficients), "
                    f"so it is {'> 0' if sign > 0 else '< 0'}"
                )
        return None

    def root_rule(self, constant: sp.Expr, coefficient: sp.Expr, norm: sp.Expr) -> str | None:
        """The rule that proves A + B r > 0 for a real r >= 0, given norm = A^2 - B^2 r^2, or None."""
        if self.on_domain(constant, ">") and self.on_domain(coefficient, ">="):
            return "A > 0 and B >= 0"
        if self.on_domain(coefficient, ">") and self.on_domain(-norm, ">"):
            return "B > 0 and A^2 - B^2 r^2 < 0, so |A| < B r"
        if self.on_domain(constant, ">") and self.on_domain(norm, ">"):
            return "A > 0 and A^2 - B^2 r^2 > 0, so |B| r < A"
        return None

    def on_domain(self, expr: sp.Expr, relation: str) -> bool:
        """Whether signs of coefficients (or exact numbers, or balls for constants) prove `expr relation 0`."""
        reason = "what the algebraic reduction needs"
        return proved_on_domain(Condition(expr, relation, reason), self.claim.domains, self.claim.order)

    def logarithms(self, form: RingForm, remainder: sp.Expr) -> None:
        """lhs - rhs = sum c_i log(u_i) with u_i > 0, compared through exponentials (part 3)."""
        logs = {atom.variable: atom.value for atom in form.atoms if isinstance(atom.value, Log)}
        if not logs:
            raise _Failed(f"lhs - rhs leaves the remainder {_text(remainder, 160)} and has no logarithm")
        if form.denominator.has(*logs):
            raise _Failed("a logarithm appears in a denominator")
        parts = _linear_parts(form.numerator, list(logs), form.generators())
        if parts is None:
            raise _Failed("lhs - rhs is not linear in its logarithms")
        rest = parts.pop(sp.Integer(1), sp.Integer(0))
        if reduce_modulo(form, rest).remainder != 0:
            raise _Failed("the part of lhs - rhs without logarithms does not reduce to 0")
        remainders = {logs[v]: reduce_modulo(form, part).remainder for v, part in parts.items()}
        reference = next((r for r in remainders.values() if r != 0), None)
        if reference is None:
            raise _Failed("the logarithms' coefficients reduce to 0 but the rest does not")
        ratios = {log: _ratio(r, reference) for log, r in remainders.items()}
        if any(ratio is None for ratio in ratios.values()):
            raise _Failed("the logarithms' coefficients are not rational multiples of one another")
        self.note(
            f"N = {_text(reference, 160)} * ({_text(sp.Add(*(r * log for log, r in ratios.items())), 300)}) "
            "modulo the basis (the terms without logarithms reduce to 0)"
        )
        self.exponentiate({log: ratio for log, ratio in ratios.items() if ratio != 0})  # type: ignore[misc]

    def exponentiate(self, coefficients: dict[sp.Expr, sp.Rational]) -> None:
        """sum c_i log(u_i) = 0 from prod u_i^k_i = 1, every u_i proved positive."""
        for log in coefficients:
            if not self.positive(log.args[0]):
                raise _Failed(f"{_text(log.args[0], 80)} > 0 was not proved on the domain")
        scale = math.lcm(*(int(c.q) for c in coefficients.values()))
        powers = {log.args[0]: int(c * scale) for log, c in coefficients.items()}
        if max(abs(k) for k in powers.values()) > MAX_LOG_EXPONENT:
            raise _Failed(f"the logarithms' coefficients need powers above {MAX_LOG_EXPONENT}")
        total = _text(sp.Add(*(c * log for log, c in coefficients.items())), 300)
        left = sp.Mul(*(u**k for u, k in powers.items() if k > 0))
        right = sp.Mul(*(u ** (-k) for u, k in powers.items() if k < 0))
        scaled = total if scale == 1 else f"{scale}*({total})"
        self.note(
            f"So lhs - rhs = 0 where {total} = 0. Each argument is positive on the domain (proved above or by "
            f"signs of coefficients): {', '.join(map(str, powers))} > 0. For positive reals "
            f"sum k_i log(u_i) = log(prod u_i^k_i), so {scaled} = 0 iff the exponentiated difference is 0: "
            f"{_text(left, 160)} = {_text(right, 160)}"
        )
        form = ring_form(left - right)
        self.denominators(form, "the exponentiated difference")
        remainder = self.reduction(form, "the exponentiated difference")
        if remainder != 0:
            raise _Failed(f"the exponentiated difference leaves the remainder {_text(remainder, 160)}")


def _linear_parts(
    numerator: sp.Expr, logs: list[sp.Symbol], generators: list[sp.Symbol]
) -> dict[sp.Expr, sp.Expr] | None:
    """numerator = sum over m in {1, logs} of m * part[m], or None when it is not of degree <= 1 in the logs."""
    poly = sp.Poly(numerator, *generators, domain=sp.QQ)
    parts: dict[sp.Expr, sp.Expr] = {}
    for monomial, coefficient in poly.terms():
        powers = dict(zip(generators, monomial, strict=True))
        in_logs = [v for v in logs if powers[v]]
        if len(in_logs) > 1 or any(powers[v] > 1 for v in in_logs):
            return None
        key = in_logs[0] if in_logs else sp.Integer(1)
        term = sp.Mul(poly.domain.to_sympy(coefficient), *(g**p for g, p in powers.items() if g not in logs))
        parts[key] = parts.get(key, sp.Integer(0)) + term
    return parts


def _ratio(part: sp.Expr, denominator: sp.Expr) -> sp.Rational | None:
    """part / denominator when it is a rational number, else None."""
    if denominator == 0:
        return None
    ratio = sp.cancel(part / denominator)
    return ratio if ratio.is_Rational else None


def _text(expr: sp.Expr, limit: int = TEXT) -> str:
    return short_text(expr, limit)


def _exponentials_merged(expr: sp.Expr) -> sp.Expr:
    """`expr` with e^q = (e^1)^q for integers q and (e^a)^k e^(b) = e^(k a + b) for integers k in every product,
    inner ones first (identities of all reals, no sign used), and lambertw's arguments expanded: equal arguments of
    lambertw then have one written form, and e^1 is one atom of the ring form with its inverse, not two."""

    def merge(node: sp.Expr) -> sp.Expr:
        if isinstance(node, W):
            return W(sp.expand(node.args[0]))
        if isinstance(node, Exp) and node.args[0].is_Integer and node.args[0] != 1:
            return Exp(sp.Integer(1)) ** node.args[0]
        if node.is_Mul:
            powers = [f for f in node.args if isinstance(f.as_base_exp()[0], Exp) and f.as_base_exp()[1].is_Integer]
            if len(powers) > 1 and any(not f.as_base_exp()[0].args[0].is_Integer for f in powers):
                rest = [f for f in node.args if f not in powers]
                exponent = sp.Add(*(k * base.args[0] for base, k in (f.as_base_exp() for f in powers)))
                return sp.Mul(*rest) * Exp(sp.expand(exponent))
        return node

    return sp.bottom_up(expr, merge)
