"""Test data: golden games and the script that makes them."""
