"""Claims-file text shared by tests that need one certificate of each common kind."""

#: A constant (its certificate: a point witness) and an inequality for every H (its certificate: smt).
POINT_AND_SMT = """
[[claim]]
id = "golden.inverse"
kind = "constant"
expr = "1 / golden"
value = "0.6180339887"
digits = 10

[[claim]]
id = "c-star.at-most-one"
kind = "inequality"
lhs = "c_star(H)"
op = "<="
rhs = "1"
domain = { H = { min = 1 } }
"""
