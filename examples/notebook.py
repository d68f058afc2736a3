# %% [markdown]
# # Connect Four Arena from a notebook
#
# An agent written in the notebook, measured against built-in agents in a few lines. Run it
# as a script (`python examples/notebook.py`) or cell by cell (`# %%`) in Jupyter or VS Code.

# %%
import numpy as np

import arena


class CentreFirst:
    """Takes a win, blocks a single threat, else plays the free column nearest the centre."""

    def new_game(self, game):
        self.centre = game.rules.cols // 2

    def choose(self, position, rng: np.random.Generator) -> int:
        wins = position.winning_moves()
        threats = position.winning_moves(3 - position.side_to_move)
        if wins or len(threats) == 1:
            return (wins or threats)[0]
        return min(position.legal_moves(), key=lambda column: abs(column - self.centre))


# %% A match: the games as a DataFrame, the summary, Elo and its interval
result = arena.match(CentreFirst(), "immediate-win:block=true", 200, openings="random:4",
                     progress=False)
print(result.summary[["agent_a", "agent_b", "wins", "draws", "losses", "elo", "elo_low",
                      "elo_high"]].to_string(index=False))
print(result.games.groupby("first", observed=True)["result"].value_counts().unstack())

# %% A tournament with ratings, and a report with its charts
field = arena.tournament([CentreFirst, "immediate-win:block=true", "negamax:depth=2", "random"],
                         40, openings="random:2", progress=False)
print(field.ratings[["rank", "agent", "rating", "low", "high"]].round(0).to_string(index=False))
print(field.write_report("results/notebook-tournament"))
