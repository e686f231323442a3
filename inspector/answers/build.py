"""The answer source of a headless run, put together from the command-line options."""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspector.answers.chain import AnswerChain
from inspector.answers.policies import Policy
from inspector.answers.roots import ConfiguredRoots, NoRootsGiven
from inspector.answers.scripted import load_answers_file
from inspector.answers.stub_model import StubModel

if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path

    from inspector.answers.policies import OnMissing
    from inspector.answers.roots import Root
    from inspector.answers.source import AnswerSource


def build_answer_source(
    answers_file: Path | None = None,
    on_missing: OnMissing = "fail",
    stub_model: bool = False,
    roots: Iterable[str | Path | Root] = (),
) -> AnswerChain:
    """Sources in the order a headless run asks them, every answer validated before it is sent:

    1. the answers file, if given (its ``"*"`` entry included);
    2. the stub model, for sampling, if ``stub_model``;
    3. the configured roots, for roots/list; with none configured, no roots (``NoRootsGiven``: never a path the
       user did not give, and the answer says how to give one);
    4. the ``on_missing`` policy, for whatever is left.

    ``roots`` are paths or ``file://`` URIs (``ValueError`` for other URIs); a bad answers file raises
    ``AnswersFileError`` here, before any call is made.
    """
    configured = ConfiguredRoots(roots)
    model = StubModel() if stub_model else None
    sources: list[AnswerSource] = []
    if answers_file is not None:
        sources.append(load_answers_file(answers_file, roots=configured))
    if model is not None:
        sources.append(model)
    sources.append(configured if configured.roots else NoRootsGiven())
    sources.append(Policy(on_missing, stub_model=model, roots=configured))
    return AnswerChain(*sources)
