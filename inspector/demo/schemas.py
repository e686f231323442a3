"""The `requestedSchema` dicts the demo flows send, written by hand.

Pydantic models cannot produce every shape the spec allows (titled `oneOf` single-select, `items.anyOf`
multi-select, formats with defaults), and the inspector's form renderer must be exercised on all of them, so
every schema here is the literal wire JSON. Each is a flat object of `PrimitiveSchemaDefinition`s.
"""

from __future__ import annotations

from typing import Any, Final

GITHUB_LOGIN_MESSAGE: Final = "Please provide your GitHub username"
GOOGLE_LOGIN_MESSAGE: Final = "Please provide your Google account email"
MICROSOFT_LOGIN_MESSAGE: Final = "Please provide your Microsoft account email"


def _name_schema() -> dict[str, Any]:
    return {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}


GITHUB_LOGIN_SCHEMA: Final[dict[str, Any]] = _name_schema()
"""The spec's example form: one required string `name`."""

ACCOUNT_EMAIL_SCHEMA: Final[dict[str, Any]] = {
    "type": "object",
    "properties": {"email": {"type": "string", "format": "email", "title": "Account email"}},
    "required": ["email"],
}

RESOLUTIONS: Final = ("Fixed", "Won't Fix", "Duplicate", "By Design")

RESOLUTION_SCHEMA: Final[dict[str, Any]] = {
    "type": "object",
    "properties": {
        "resolution": {
            "type": "string",
            "enum": list(RESOLUTIONS),
            "description": "Resolution type for this bug",
        }
    },
    "required": ["resolution"],
}
"""SEP-2322's ADO example, round one, as the SEP writes it."""

DUPLICATE_OF_SCHEMA: Final[dict[str, Any]] = {
    "type": "object",
    "properties": {"duplicateOfId": {"type": "number", "description": "Work item ID of the original bug"}},
    "required": ["duplicateOfId"],
}
"""SEP-2322's ADO example, round two (the key is ``duplicate_of``, the field ``duplicateOfId``)."""

LANGUAGES: Final = ("python", "typescript", "go", "rust", "java", "csharp")

LANGUAGE_SCHEMA: Final[dict[str, Any]] = {
    "type": "object",
    "properties": {
        "language": {"type": "string", "title": "Language", "enum": list(LANGUAGES), "default": "python"},
    },
    "required": ["language"],
}

CONFIRM_SCHEMA: Final[dict[str, Any]] = {
    "type": "object",
    "properties": {
        "confirm": {
            "type": "boolean",
            "title": "Generate the report?",
            "description": "The quarterly report is expensive to build",
            "default": True,
        }
    },
    "required": ["confirm"],
}

MEETING_MESSAGE: Final = "Book a meeting: every field type of the elicitation form schema"

MEETING_SCHEMA: Final[dict[str, Any]] = {
    "type": "object",
    "properties": {
        # StringSchema: title, description, length bounds, default.
        "title": {
            "type": "string",
            "title": "Meeting title",
            "description": "What the meeting is about",
            "minLength": 3,
            "maxLength": 80,
            "default": "Sprint review",
        },
        # StringSchema with each `format`.
        "organizer": {"type": "string", "title": "Organizer email", "format": "email"},
        "day": {"type": "string", "title": "Day", "format": "date", "default": "2026-08-03"},
        "starts_at": {"type": "string", "title": "Starts at", "format": "date-time"},
        "agenda_url": {"type": "string", "title": "Agenda link", "format": "uri"},
        # NumberSchema: integer and number, with bounds.
        "attendees": {
            "type": "integer",
            "title": "Attendees",
            "description": "Head count",
            "minimum": 1,
            "maximum": 50,
            "default": 4,
        },
        "duration_hours": {"type": "number", "title": "Duration (hours)", "minimum": 0.25, "maximum": 8},
        # BooleanSchema.
        "remote": {"type": "boolean", "title": "Remote", "description": "Add a video link", "default": True},
        # UntitledSingleSelectEnumSchema.
        "room": {"type": "string", "title": "Room", "enum": ["Everest", "Kilimanjaro", "Matterhorn"]},
        # TitledSingleSelectEnumSchema.
        "priority": {
            "type": "string",
            "title": "Priority",
            "oneOf": [
                {"const": "p0", "title": "Urgent"},
                {"const": "p1", "title": "Normal"},
                {"const": "p2", "title": "Whenever"},
            ],
            "default": "p1",
        },
        # UntitledMultiSelectEnumSchema.
        "equipment": {
            "type": "array",
            "title": "Equipment",
            "items": {"type": "string", "enum": ["projector", "whiteboard", "speakerphone", "snacks"]},
            "minItems": 1,
            "maxItems": 3,
            "default": ["whiteboard"],
        },
        # TitledMultiSelectEnumSchema.
        "teams": {
            "type": "array",
            "title": "Teams invited",
            "items": {
                "anyOf": [
                    {"const": "eng", "title": "Engineering"},
                    {"const": "design", "title": "Design"},
                    {"const": "sales", "title": "Sales"},
                ]
            },
            "maxItems": 3,
        },
    },
    "required": ["title", "organizer", "day", "attendees", "room"],
}
"""One form with every `PrimitiveSchemaDefinition` of 2025-11-25 / 2026-07-28."""

ENVIRONMENTS: Final = ("staging", "production")

ENVIRONMENT_SCHEMA: Final[dict[str, Any]] = {
    "type": "object",
    "properties": {
        "environment": {
            "type": "string",
            "title": "Environment",
            "description": "Where the release goes",
            "enum": list(ENVIRONMENTS),
            "default": "staging",
        }
    },
    "required": ["environment"],
}
"""Asked on the `tools/call` itself, before any task exists (MRTR, or a legacy server request)."""

APPROVE_RELEASE_SCHEMA: Final[dict[str, Any]] = {
    "type": "object",
    "properties": {
        "approved": {
            "type": "boolean",
            "title": "Approve the release?",
            "description": "Built and tested; nothing is released until you say so",
            "default": True,
        }
    },
    "required": ["approved"],
}
"""Asked midway through the `deploy_release` task; its default lets `--on-missing defaults` finish headless."""
