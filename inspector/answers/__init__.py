"""Where answers to input requests come from: the UI, scripted files, the stub model, policies. One interface."""

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
from inspector.answers.build import build_answer_source
from inspector.answers.chain import AnswerChain
from inspector.answers.policies import OnMissing, Policy, PolicyName
from inspector.answers.roots import ConfiguredRoots, Root, parse_root, root_from_path, root_from_uri
from inspector.answers.scripted import AnswersFileError, ScriptedAnswers, load_answers_file, parse_answers
from inspector.answers.stub_model import StubModel
from inspector.answers.validation import field_errors, validate_answer, validate_elicitation_answer

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
