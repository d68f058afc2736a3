"""Dies before it says anything."""

import sys

print("missing a library: cannot start", file=sys.stderr, flush=True)
sys.exit(2)
