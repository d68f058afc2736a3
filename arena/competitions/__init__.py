"""Competitions built on runs: tournaments (round robins and gauntlets, rated), sequential
probability ratio tests (``sprt``) and experiment files (``experiments``)."""
