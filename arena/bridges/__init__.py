"""Agents written for other hosts, played here: Kaggle ConnectX agents, engine programs."""
