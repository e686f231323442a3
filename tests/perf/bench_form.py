"""Benchmark (not a test): opening an elicitation form of N string fields, headless (issue 26: under 1 s at 200).

The modal is the real ``ElicitationModal`` with the schema of tests/ui/test_long_server_text.py, pushed by
``ModalHost`` as the UI tests open it, at the tests' terminal size. For each size it prints, from the push:

- "first paint": until the modal's first compositor refresh at which every field is mounted and laid out (the last
  field's input has its place, out of sight below the scrolling area);
- "idle": until the pilot's first pause after that returns (the app has nothing left to do: what a test, or a
  person's first key, meets);
- "cpu to paint": the process's CPU time over the first interval, which other work on the machine moves less than
  the wall time;

and "close": from the click on Decline until the dismissal reached the host (the dialog's widgets removed). Each
figure is the median of ``--runs`` runs, one app per run in this process, with a collection before each so that no
run pays for the one before it.

The default run (20 and 200 fields, 3 runs each) takes about 10 s on the 2-core development machine; the first line
says how long a run will take from its options. Slower: more fields (400: about 15 s more) or more runs.
Run: ``python tests/perf/bench_form.py [SIZES...] [--runs N]`` (default: 20 200, 3 runs).
"""

from __future__ import annotations

import asyncio
import gc
import statistics
import time
from typing import Any, Final

from perf_support import announce, arguments
from textual.widgets import Input

from inspector.ui.devtools.preview import ModalHost
from inspector.ui.modals.answer_dialog import AskedFor
from inspector.ui.modals.elicitation import ElicitationModal
from inspector.ui.widgets.form_fields import FieldWidget

SIZE: Final = (120, 40)
"""The terminal size of tests/ui (modal_support.SIZE)."""
SECONDS_TO_START: Final = 0.5
SECONDS_PER_RUN: Final = 0.5
SECONDS_PER_FIELD: Final = 0.01
"""What the script costs on the 2-core development machine (its setup; each run's app start and exit; each field
opened, waited for and closed), for the first line's estimate."""


def schema(fields: int) -> dict[str, Any]:
    """An object of ``fields`` titled string properties, as tests/ui/test_long_server_text.py asks for."""
    return {
        "type": "object",
        "properties": {f"f{i:03d}": {"type": "string", "title": f"Field {i}"} for i in range(fields)},
    }


class TimedModal(ElicitationModal):
    """The real modal, noting when a compositor refresh first shows the whole form."""

    def __init__(self, params: dict[str, Any], fields: int, painted: asyncio.Event) -> None:
        super().__init__(params, AskedFor("tools/call bench", "form"))
        self.fields = fields
        self.pushed = time.perf_counter()
        self.pushed_cpu = time.process_time()
        self.painted: float | None = None
        self.painted_cpu = 0.0
        self.painted_event = painted

    def _compositor_refresh(self) -> None:
        super()._compositor_refresh()
        if self.painted is None and self.complete():
            self.painted = time.perf_counter()
            self.painted_cpu = time.process_time()
            self.painted_event.set()

    def complete(self) -> bool:
        """The last field's input is mounted and laid out (it has a region, out of sight below): the fields are
        mounted in order, so every one before it is too. Found by a walk that matches no CSS (this is timed too)."""
        fields = self.form.root.walk_children(FieldWidget)
        if len(fields) < self.fields:
            return False
        inputs = fields[-1].query(Input)
        return bool(inputs) and inputs.last().is_mounted and inputs.last().region.area > 0


async def run(fields: int) -> tuple[float, float, float, float]:
    """(push to first paint, push to idle, CPU time to first paint, Decline to dismissed), in seconds."""
    gc.collect()
    params = {"message": f"Fill in these {fields} fields", "requestedSchema": schema(fields)}
    painted = asyncio.Event()
    made: list[TimedModal] = []

    def modal() -> TimedModal:
        made.append(TimedModal(params, fields, painted))
        return made[-1]

    app = ModalHost(modal)
    async with app.run_test(size=SIZE) as pilot:
        # Waited for on an event, not with the pilot: each of its pauses queues a message to every widget.
        async with asyncio.timeout(120):
            await painted.wait()
        await pilot.pause()
        idle = time.perf_counter()
        screen = made[0]
        assert screen.painted is not None
        clicked = time.perf_counter()
        await pilot.click("#decline")
        async with asyncio.timeout(60):
            while not app.results:
                await pilot.pause()
        closed = time.perf_counter()
    assert app.results == [{"action": "decline"}]
    cpu = screen.painted_cpu - screen.pushed_cpu
    return screen.painted - screen.pushed, idle - screen.pushed, cpu, closed - clicked


async def main(sizes: list[int], runs: int) -> None:
    heads = ("fields", "first paint", "idle", "cpu to paint", "close")
    print("  ".join(f"{head:>12}" for head in heads))
    for fields in sizes:
        results = [await run(fields) for _ in range(runs)]
        medians = [statistics.median(column) for column in zip(*results, strict=True)]
        cells = [f"{fields}", *(f"{seconds * 1000:.0f} ms" for seconds in medians)]
        print("  ".join(f"{cell:>12}" for cell in cells), flush=True)


if __name__ == "__main__":
    parser = arguments(__doc__)
    parser.add_argument("sizes", nargs="*", type=int, default=[20, 200], help="form sizes, in fields")
    parser.add_argument("--runs", type=int, default=3, help="runs per size (the median is printed)")
    args = parser.parse_args()
    announce(
        "bench_form",
        SECONDS_TO_START + args.runs * sum(SECONDS_PER_RUN + SECONDS_PER_FIELD * fields for fields in args.sizes),
        f"{args.runs} runs each of {', '.join(map(str, args.sizes))} fields",
        "SIZES, --runs",
    )
    asyncio.run(main(args.sizes, args.runs))
