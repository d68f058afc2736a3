"""Bridges between the arena and other Connect Four worlds (Kaggle ConnectX, engines)."""
