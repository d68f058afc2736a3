"""The pygame window: turns mouse and key events into controller calls and draws the game."""

from __future__ import annotations

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # after the variable above, which silences its greeting

from arena.play.gui.controller import PlayController
from arena.play.gui.layout import BUTTON_LABELS, LINE, Layout
from arena.report.palette import ORANGE, SKY_BLUE, rgb255
from arena.search.oracle import score_text

BACKGROUND = (22, 26, 36)
BOARD = (28, 86, 196)
HOLE = BACKGROUND
DISCS = {1: (222, 44, 44), 2: (246, 204, 46)}
FADED = {1: (120, 60, 66), 2: (130, 118, 60)}  # the hover disc over a full column
LAST_MOVE = (250, 250, 250)
WINNING = (70, 235, 120)
TEXT = (232, 234, 240)
BUTTON = (52, 60, 80)
BUTTON_OFF = (36, 40, 52)
HINT_COLOURS = {1: rgb255(SKY_BLUE), 0: (200, 200, 200), -1: rgb255(ORANGE)}
"""By the score's sign: win, draw, loss; blue and orange stay apart for colour-blind eyes
(the report's palette; the sign is printed too)."""
FRAMES_PER_SECOND = 30
MIN_RING_CELL = 24  # smaller cells get no ring on the last disc: it would hide the colour

COLUMN_KEYS = {getattr(pygame, f"K_{n}"): n - 1 for n in range(1, 10)}
COLUMN_KEYS.update({getattr(pygame, f"K_KP{n}"): n - 1 for n in range(1, 10)})


class GameWindow:
    """A window showing ``controller``'s game; ``step`` handles one frame."""

    def __init__(self, controller: PlayController, title: str):
        self.controller = controller
        self.layout = Layout.fit(controller.game.rules, hints=controller.hints is not None)
        pygame.display.init()
        pygame.font.init()
        pygame.display.set_caption(title)
        self.screen = pygame.display.set_mode((self.layout.width, self.layout.height))
        self.font = pygame.font.Font(None, 26)
        self.hint_font = pygame.font.Font(None, max(16, min(30, self.layout.cell // 2)))
        self.clock = pygame.time.Clock()
        self.open = True

    # --- events -----------------------------------------------------------------------

    def step(self) -> bool:
        """Handle waiting events, let the agent's reply in, draw; False once closed."""
        for event in pygame.event.get():
            self.handle(event)
        if not self.open:
            return False
        self.controller.tick()
        self.draw()
        pygame.display.flip()
        return True

    def run(self) -> None:
        """Step at a steady frame rate until the window is closed."""
        while self.step():
            self.clock.tick(FRAMES_PER_SECOND)

    def handle(self, event: pygame.event.Event) -> None:
        """One pygame event: quit, mouse motion, click or key."""
        controller, layout = self.controller, self.layout
        if event.type == pygame.QUIT:
            self.open = False
        elif event.type == pygame.MOUSEMOTION:
            x, y = event.pos
            controller.hover = layout.column_at(x) if layout.in_play_area(y) else None
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            x, y = event.pos
            column = layout.column_at(x)
            if layout.in_play_area(y) and column is not None:
                controller.hover = column
                controller.drop(column)
            else:
                self.press(layout.button_at(x, y))
        elif event.type == pygame.KEYDOWN:
            self.key(event.key)

    def key(self, key: int) -> None:
        """Keys: 1-9 drop in a column, arrows and Enter move and drop, U N H the buttons,
        Escape and Q close the window."""
        controller, cols = self.controller, self.controller.game.rules.cols
        if key in COLUMN_KEYS and COLUMN_KEYS[key] < cols:
            controller.hover = COLUMN_KEYS[key]
            controller.drop(COLUMN_KEYS[key])
        elif key in (pygame.K_LEFT, pygame.K_RIGHT):
            step = -1 if key == pygame.K_LEFT else 1
            start = controller.hover if controller.hover is not None else cols // 2 - step
            controller.hover = min(cols - 1, max(0, start + step))
        elif key in (pygame.K_RETURN, pygame.K_SPACE, pygame.K_DOWN) and \
                controller.hover is not None:
            controller.drop(controller.hover)
        elif key in (pygame.K_ESCAPE, pygame.K_q):
            self.open = False
        else:
            self.press({pygame.K_u: "undo", pygame.K_BACKSPACE: "undo", pygame.K_n: "new",
                        pygame.K_h: "hints"}.get(key))

    def press(self, button: str | None) -> None:
        """A button (clicked or by its key)."""
        if button == "undo":
            self.controller.undo()
        elif button == "new":
            self.controller.new_game()
        elif button == "hints":
            self.controller.toggle_hints()

    # --- drawing ----------------------------------------------------------------------

    def draw(self) -> None:
        """Draw the whole frame."""
        self.screen.fill(BACKGROUND)
        self.draw_hover()
        self.draw_board()
        self.draw_hints()
        self.draw_panel()

    def draw_hover(self) -> None:
        """The person's disc above the hovered column (faded over a full one)."""
        controller, layout = self.controller, self.layout
        game = controller.game
        if controller.hover is None or not game.human_to_move:
            return
        mover = game.position.side_to_move
        colour = DISCS[mover] if game.position.can_play(controller.hover) else FADED[mover]
        pygame.draw.circle(self.screen, colour, layout.hover_centre(controller.hover),
                           layout.radius)

    def draw_board(self) -> None:
        """The board, its discs, a ring on the last disc played and on the winning line."""
        layout, game = self.layout, self.controller.game
        position, rules = game.position, game.rules
        pygame.draw.rect(self.screen, BOARD, (layout.board_left, layout.board_top,
                                              layout.board_width, rules.rows * layout.cell),
                         border_radius=max(2, layout.cell // 6))
        for col in range(rules.cols):
            for row in range(rules.rows):
                player = position.cell(col, row)
                pygame.draw.circle(self.screen, DISCS.get(player, HOLE),
                                   layout.cell_centre(col, row), layout.radius)
        ring = max(2, layout.cell // 18)
        winning = position.winning_cells()
        for col, row in winning:
            pygame.draw.circle(self.screen, WINNING, layout.cell_centre(col, row),
                               layout.radius, ring + 1)
        if game.moves and not winning and layout.cell >= MIN_RING_CELL:
            col = game.moves[-1]
            row = (position.mask & rules.geometry.columns[col]).bit_count() - 1
            pygame.draw.circle(self.screen, LAST_MOVE, layout.cell_centre(col, row),
                               layout.radius * 2 // 3, ring)

    def draw_hints(self) -> None:
        """The oracle's score under every legal column, coloured win, draw or loss."""
        scores = self.controller.hint_scores()
        if not scores:
            return
        for column, score in scores.items():
            sign = (score > 0) - (score < 0)
            label = self.hint_font.render(score_text(score), True, HINT_COLOURS[sign])
            self.screen.blit(label, label.get_rect(center=self.layout.hint_centre(column)))

    def draw_panel(self) -> None:
        """The status line and the buttons."""
        layout, controller = self.layout, self.controller
        status = self.font.render(controller.status(), True, TEXT)
        self.screen.blit(status, status.get_rect(
            center=(layout.width // 2, layout.status_top + LINE // 2)))
        enabled = {"undo": controller.game.undo_plies() > 0, "new": True,
                   "hints": controller.hints is not None}
        for name, box in layout.buttons().items():
            pygame.draw.rect(self.screen, BUTTON if enabled[name] else BUTTON_OFF, box,
                             border_radius=6)
            label = BUTTON_LABELS[name]
            if name == "hints" and controller.show_hints:
                label = "Hide hints (H)"
            text = self.font.render(label, True, TEXT)
            left, top, width, height = box
            self.screen.blit(text, text.get_rect(center=(left + width // 2, top + height // 2)))

    def save_frame(self, path: str) -> None:
        """Save the current frame as an image (PNG by the file's extension)."""
        pygame.image.save(self.screen, path)

    def close(self) -> None:
        """Close the window."""
        pygame.display.quit()
