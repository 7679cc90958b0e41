"""Schemathesis hooks of scripts/schemathesis.sh (loaded through SCHEMATHESIS_HOOKS).

POST /v1/puzzles also takes PGN (`application/x-chess-pgn`), a text format schemathesis has no
serializer for: its bodies (strings) are sent as text, as text/plain ones are.
"""

import schemathesis

schemathesis.serializer.alias("application/x-chess-pgn", "text/plain")
