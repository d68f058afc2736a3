"""Ignores quit and keeps a child process of its own: only killing them both ends them."""

import subprocess
import sys

from engine_base import serve

child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
print(f"child {child.pid}", file=sys.stderr, flush=True)
serve(quits=False)
