"""Hypothesis property tests: whole games drawn choice by choice, checked at every step."""
