"""Headless Chromium driven over the DevTools protocol on a pipe (``--remote-debugging-pipe``:
JSON messages ending in a NUL byte on file descriptors 3 and 4), with the standard library
only: open a page at a given viewport (a phone's 390 px too, below the smallest window
Chromium draws), run JavaScript in it, click, take screenshots."""

from __future__ import annotations

import base64
import json
import os
import select
import subprocess
import time
from pathlib import Path
from types import TracebackType
from typing import Any

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--remote-debugging-pipe")
TIMEOUT = 60.0
"""Seconds to wait for any answer of the browser before giving up on it."""


class BrowserError(RuntimeError):
    """The browser answered with an error, or not at all."""


class Browser:
    """One headless Chromium with its own profile in ``profile``; a context manager."""

    def __init__(self, executable: str, profile: Path) -> None:
        to_browser, self._writer = os.pipe()
        self._reader, from_browser = os.pipe()

        def pipes() -> None:  # in the child: its fds 3 and 4, inherited by exec
            into, out = os.dup(to_browser), os.dup(from_browser)
            os.dup2(into, 3)
            os.dup2(out, 4)

        self._process = subprocess.Popen(
            [executable, *FLAGS, f"--user-data-dir={profile}", "about:blank"],
            close_fds=False, preexec_fn=pipes, stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser)
        os.close(from_browser)
        self._buffer = b""
        self._events: list[dict[str, Any]] = []
        self._next_id = 0

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        """Ask the browser to quit; kill it if it does not."""
        try:
            self._send({"id": 0, "method": "Browser.close"})
            self._process.wait(timeout=20)
        except (OSError, subprocess.TimeoutExpired):
            self._process.kill()
            self._process.wait()
        finally:
            os.close(self._writer)
            os.close(self._reader)

    def _send(self, message: dict[str, Any]) -> None:
        os.write(self._writer, json.dumps(message).encode() + b"\0")

    def _receive(self) -> dict[str, Any]:
        deadline = time.monotonic() + TIMEOUT
        while b"\0" not in self._buffer:
            ready, _, _ = select.select([self._reader], [], [], deadline - time.monotonic())
            chunk = os.read(self._reader, 1 << 20) if ready else b""
            if not chunk:
                raise BrowserError("Chromium stopped answering")
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\0")
        return dict(json.loads(line))

    def call(self, method: str, params: dict[str, Any] | None = None,
             session: str | None = None) -> dict[str, Any]:
        """Send one command and return its result (events meanwhile are kept)."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        self._send(message)
        while True:
            reply = self._receive()
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error']}")
                return dict(reply.get("result", {}))
            if "method" in reply:
                self._events.append(reply)

    def wait_for(self, method: str, session: str) -> dict[str, Any]:
        """The first event ``method`` of ``session`` not seen yet."""
        while True:
            for event in self._events:
                if event["method"] == method and event.get("sessionId") == session:
                    self._events.remove(event)
                    return event
            reply = self._receive()
            if "method" in reply:
                self._events.append(reply)

    def open(self, url: str, width: int, height: int, mobile: bool = False) -> Page:
        """A new tab showing ``url`` in a ``width`` x ``height`` CSS-pixel viewport, loaded."""
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target,
                                                       "flatten": True})["sessionId"]
        self.call("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile}, session)
        self.call("Page.enable", {}, session)
        self.call("Page.navigate", {"url": url}, session)
        self.wait_for("Page.loadEventFired", session)
        return Page(self, session)


class Page:
    """A loaded tab of a ``Browser``."""

    def __init__(self, browser: Browser, session: str) -> None:
        self.browser = browser
        self.session = session

    def evaluate(self, expression: str) -> Any:
        """The value of the JavaScript ``expression`` (JSON-able) in the page."""
        result = self.browser.call("Runtime.evaluate", {
            "expression": expression, "returnByValue": True, "awaitPromise": True}, self.session)
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression!r} raised {result['exceptionDetails']}")
        return result["result"].get("value")

    def screenshot(self, path: Path, whole: bool = True) -> Path:
        """Write a PNG of the whole page (or of the viewport only) to ``path``."""
        params: dict[str, Any] = {"format": "png"}
        if whole:
            size = self.browser.call("Page.getLayoutMetrics", {}, self.session)["cssContentSize"]
            params |= {"captureBeyondViewport": True, "clip": {
                "x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1}}
        shot = self.browser.call("Page.captureScreenshot", params, self.session)
        path.write_bytes(base64.b64decode(shot["data"]))
        return path
