"""The built-in agents, one module per family."""
