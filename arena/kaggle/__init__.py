"""Kaggle ConnectX: Kaggle's agents and submission files as arena agents (``agent``), and an
arena agent as one self-contained submission file (``submission``, from the plain-Python
template ``template``)."""
