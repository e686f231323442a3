"""Where answers to input requests come from: the UI, scripted files, the stub model, policies. One interface."""

from typing import TYPE_CHECKING

from inspector.answers.source import (
    Answer,
    AnswerRefused,
    AnswerSource,
    CallCancelled,
    InputRequest,
    InputResponse,
    NoAnswer,
    Skip,
)
from inspector.lazy import lazy_exports

if TYPE_CHECKING:
    from inspector.answers.build import build_answer_source
    from inspector.answers.chain import AnswerChain
    from inspector.answers.policies import OnMissing, Policy, PolicyName
    from inspector.answers.roots import ConfiguredRoots, Root, parse_root, root_from_path, root_from_uri
    from inspector.answers.scripted import AnswersFileError, ScriptedAnswers, load_answers_file, parse_answers
    from inspector.answers.stub_model import StubModel
    from inspector.answers.validation import field_errors, validate_answer, validate_elicitation_answer

# Imported on first use (PEP 562): the validators pull in jsonschema and the official models, which the TUI's
# first paint and `inspector --help` should not wait for.
__getattr__ = lazy_exports(
    __name__,
    {
        "inspector.answers.build": ("build_answer_source",),
        "inspector.answers.chain": ("AnswerChain",),
        "inspector.answers.policies": ("OnMissing", "Policy", "PolicyName"),
        "inspector.answers.roots": ("ConfiguredRoots", "Root", "parse_root", "root_from_path", "root_from_uri"),
        "inspector.answers.scripted": ("AnswersFileError", "ScriptedAnswers", "load_answers_file", "parse_answers"),
        "inspector.answers.stub_model": ("StubModel",),
        "inspector.answers.validation": ("field_errors", "validate_answer", "validate_elicitation_answer"),
    },
)


__all__ = [
    "Answer",
    "AnswerChain",
    "AnswerRefused",
    "AnswerSource",
    "AnswersFileError",
    "CallCancelled",
    "ConfiguredRoots",
    "InputRequest",
    "InputResponse",
    "NoAnswer",
    "OnMissing",
    "Policy",
    "PolicyName",
    "Root",
    "ScriptedAnswers",
    "Skip",
    "StubModel",
    "build_answer_source",
    "field_errors",
    "load_answers_file",
    "parse_answers",
    "parse_root",
    "root_from_path",
    "root_from_uri",
    "validate_answer",
    "validate_elicitation_answer",
]
