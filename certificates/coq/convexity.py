"""The Coq proof of a convexity certificate's statement (untrusted: coqc checks it).

The statement (`certificates.kernel.registry_statements.chain`, its tree in `registry_coq_convexity.json`) is one
theorem of the facts the kernel's check establishes for one listed n, for every real u: g(a) < 0; `is_derive g u
(g' u)`, and g' > 0 on [a, b]; `is_derive phi u (phi' u)`, `is_derive phi' u (phi'' u)` and `is_derive phi' u (K u *
g u)` (so phi'' = K g); K > 0 on [a, b]; phi'' > 0 on [b, u_max] (g, g', phi, phi'' and K the statement's trees, phi'
the kernel's tree derivative of phi: the kernel's derivative facts are formal identities, true at every u). One
theorem, not one per fact: `Print Assumptions`, which the re-check runs on each theorem, walks Interval's libraries
for about 7 s each time. The proof does not follow the certificate's covers:
- each derivative by Coquelicot's `auto_derive`, its side conditions (the denominators n - 1 + e^u are not 0) by
  `nra` from `exp_pos u`, the identity of the derivative with the tree by `field`;
- g(a) < 0, g' > 0 and K > 0 on the short [a, b] by `interval` (one box; bisection and Taylor models as a fallback);
- phi'' > 0 on [b, u_max]: phi'' = K g by `field`, then K > 0 and g > 0 each by `interval` with its own bisection and
  Taylor models in u (on phi'' itself Interval fails: its quotients of exponentials overestimate).
"""

from __future__ import annotations

from headflow.certificates.kernel.coq.statements import UniversalStatement, statements, translated

#: The statement's name (`registry_coq_convexity.json`).
NAME = "convexity-chain"
#: Interval's bisection depth in u (phi'' > 0 on [b, u_max] needs about a dozen levels near b, where g is small).
DEPTH = 24
DERIVE = "auto_derive; [ repeat split; intro; nra | field; repeat split; intro; nra ]"
INTERVAL = f"first [ interval | interval with (i_bisect u, i_taylor u, i_depth {DEPTH}) ]"


def is_chain(problem: list[UniversalStatement]) -> bool:
    """Whether a universal problem is a convexity chain's statement."""
    return [s.name for s in problem] == [NAME]


def body(claim_id: str, problem: list[UniversalStatement]) -> str:
    """The chain's theorem (the kernel's text) with its proof: one bullet per fact, in the statement's order."""
    ((_, text),) = statements(claim_id, problem)
    goal = problem[0].goal
    second = translated(goal[8][2][2], {})  # phi'' (the relation 0 < phi'' on [b, u_max])
    factor, g = (translated(tree, {}) for tree in goal[6][2][1:])  # K g, the derivative of phi'
    facts = [
        "intros hu. subst u. interval.",
        f"{DERIVE}.",
        f"intros [h0 h1]. {INTERVAL}.",
        f"{DERIVE}.",
        f"{DERIVE}.",
        f"{DERIVE}.",
        f"intros [h0 h1]. {INTERVAL}.",
        f"intros [h0 h1].\n    assert (hf_product : {second} = {factor} * {g}) by (field; repeat split; intro; nra).\n"
        f"    rewrite hf_product. apply Rmult_lt_0_compat; {INTERVAL}.",
    ]
    nested = "split; [ | " * (len(facts) - 2) + "split" + " ]" * (len(facts) - 2)
    opening = f"  intros u. pose proof (exp_pos u).\n  {nested}.\n"
    return f"{text}\nProof.\n{opening}" + "".join(f"  - {fact}\n" for fact in facts) + "Qed.\n"
