"""`python -m inspector.demo` serves stdio; `python -m inspector.demo --http --port N` serves Streamable HTTP."""

from __future__ import annotations

import argparse
import sys

from inspector.demo.flaw_names import FLAWS
from inspector.demo.server import LOOPBACK, run_http, run_stdio


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and run the demo server until it is stopped."""
    parser = argparse.ArgumentParser(prog="python -m inspector.demo", description="The inspector's demo MCP server.")
    parser.add_argument("--http", action="store_true", help="serve Streamable HTTP instead of stdio")
    parser.add_argument("--port", type=int, default=0, help="HTTP port (0 picks a free one; the URL goes to stderr)")
    parser.add_argument("--host", default=LOOPBACK, help=f"HTTP host; only {LOOPBACK} is accepted")
    parser.add_argument("--flaw", choices=FLAWS, help="fail `inspector lab` on purpose (see inspector/demo/flaws.py)")
    args = parser.parse_args(argv)
    try:
        if args.http:
            run_http(args.port, args.host, args.flaw)
        else:
            run_stdio(args.flaw)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
