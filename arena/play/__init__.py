"""People playing agents: the state of a person's game (``human_game``), the terminal game
(``terminal``) and the pygame window (``gui``)."""
