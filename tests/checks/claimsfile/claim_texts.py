"""Claims-file texts built from fields, for the tests and mutants of dynamics claims."""

from __future__ import annotations


def claim_text(claim_id: str, **fields: str) -> str:
    """One dynamics claim as TOML; each field's value is TOML text (strings carry their quotes)."""
    lines = "\n".join(f"{key} = {value}" for key, value in fields.items())
    return f'\n[[claim]]\nid = "{claim_id}"\nkind = "dynamics"\n{lines}\n'


def gap_claim(claim_id: str, prop: str, target: str, attention: str, lambdas: str, rho: str, **extra: str) -> str:
    """One cluster_gap claim over equiangular tokens and scalar heads (n = 4, d = 5, beta = 1 unless given)."""
    key = {"decays-at-rate": "rate", "decays-like": "like"}.get(prop, "limit")
    family = {"heads": '"scalar"', "lambdas": lambdas, "tokens": '"equiangular"', "rho": rho}
    sizes = {"n": "4", "d": "5", "beta": "1.0"} | extra
    head = {"quantity": '"cluster_gap"', "property": f'"{prop}"', key: f'"{target}"', "attention": f'"{attention}"'}
    return claim_text(claim_id, **head, **family, **sizes)
