"""Statistics of games, pure functions of counts: score and Elo intervals, normalized Elo and
LOS (``elo``), the SPRT's log-likelihood ratio (``llr``) and Bradley-Terry ratings
(``ratings``)."""
