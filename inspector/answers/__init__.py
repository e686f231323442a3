"""Where answers to input requests come from: the UI, scripted files, the stub model, policies. One interface."""

from typing import TYPE_CHECKING

from inspector.answers.base import (
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
_LAZY: dict[str, str] = {
    "build_answer_source": "inspector.answers.build",
    "AnswerChain": "inspector.answers.chain",
    "OnMissing": "inspector.answers.policies",
    "Policy": "inspector.answers.policies",
    "PolicyName": "inspector.answers.policies",
    "ConfiguredRoots": "inspector.answers.roots",
    "Root": "inspector.answers.roots",
    "parse_root": "inspector.answers.roots",
    "root_from_path": "inspector.answers.roots",
    "root_from_uri": "inspector.answers.roots",
    "AnswersFileError": "inspector.answers.scripted",
    "ScriptedAnswers": "inspector.answers.scripted",
    "load_answers_file": "inspector.answers.scripted",
    "parse_answers": "inspector.answers.scripted",
    "StubModel": "inspector.answers.stub_model",
    "field_errors": "inspector.answers.validation",
    "validate_answer": "inspector.answers.validation",
    "validate_elicitation_answer": "inspector.answers.validation",
}


__getattr__ = lazy_exports(__name__, _LAZY)


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
