"""Scenario tests of the rules: each forces a situation by choosing the chance outcomes and
checks the exact outcome worked out by hand from the rulebook and the rulings."""
