"""Themes as data: TOML files validated by a pydantic model, the same format for shipped and user themes.

Shipped themes live in the repository's ``themes/`` (editable installs) or ``inspector/_themes`` (wheels); users put
theme files in ``<config dir>/themes``. A file that does not parse or validate is reported once, as a problem
string, and skipped: a bad theme never stops startup. Every inspector variable has a default derived from the
theme's base colours, so a theme may leave all of them out.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Final

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator
from textual.color import Color, ColorParseError
from textual.theme import Theme

PACKAGE_DIR: Final = Path(__file__).resolve().parent.parent
DEFAULT_THEME: Final = "inspector-dark"

FALLBACK_COLOURS: Final[dict[str, str]] = {
    "primary": "#4f9fe8",
    "secondary": "#8f7fe8",
    "accent": "#e8a33d",
    "warning": "#e8c33d",
    "error": "#e85d5d",
    "success": "#5dbb63",
    "foreground": "#d8dee9",
}


def _check_colour(value: str | None) -> str | None:
    if value is None:
        return None
    try:
        Color.parse(value)
    except ColorParseError as exc:
        raise ValueError(f"not a colour: {value!r} ({exc})") from None
    return value


@dataclass(frozen=True, slots=True)
class FallsBackTo:
    """Marks a field of ``ThemeFile`` as an inspector variable: optional, and ``base`` colour when left out."""

    base: str
    """The name of the base colour field it defaults to."""


def file_key(field_name: str) -> str:
    """The key of a field in a theme file: ``timeline_request`` -> ``timeline-request`` (CSS variable style)."""
    return field_name.replace("_", "-")


class ThemeFile(BaseModel):
    """One theme file. Colours are CSS colours (``#rrggbb``, ``rgb(...)``, names); inspector variables are optional."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, alias_generator=file_key)

    name: str = Field(min_length=1, pattern=r"^[a-z0-9][a-z0-9_-]*$")
    primary: str
    secondary: str | None = None
    accent: str | None = None
    background: str | None = None
    surface: str | None = None
    panel: str | None = None
    foreground: str | None = None
    warning: str | None = None
    error: str | None = None
    success: str | None = None
    dark: bool = True
    # Every custom variable the stylesheet uses, with the base colour it falls back to.
    timeline_request: Annotated[str | None, FallsBackTo("primary")] = None
    timeline_response: Annotated[str | None, FallsBackTo("success")] = None
    timeline_error: Annotated[str | None, FallsBackTo("error")] = None
    timeline_input_required: Annotated[str | None, FallsBackTo("warning")] = None
    timeline_pending: Annotated[str | None, FallsBackTo("secondary")] = None
    timeline_finding: Annotated[str | None, FallsBackTo("warning")] = None
    json_key: Annotated[str | None, FallsBackTo("primary")] = None
    json_string: Annotated[str | None, FallsBackTo("success")] = None
    json_number: Annotated[str | None, FallsBackTo("accent")] = None
    json_literal: Annotated[str | None, FallsBackTo("secondary")] = None
    json_punctuation: Annotated[str | None, FallsBackTo("foreground")] = None
    request_state: Annotated[str | None, FallsBackTo("accent")] = None

    @field_validator("*")
    @classmethod
    def _colour(cls, value: object, info: ValidationInfo) -> object:
        if info.field_name in ("name", "dark") or not isinstance(value, str):
            return value
        return _check_colour(value)

    def variables(self) -> dict[str, str]:
        """Every inspector variable, given or defaulted from the base colours."""
        out: dict[str, str] = {}
        for variable, base in VARIABLE_DEFAULTS.items():
            given = getattr(self, variable.replace("-", "_"))
            out[variable] = given or getattr(self, base) or FALLBACK_COLOURS[base]
        return out

    def to_theme(self) -> Theme:
        """The Textual theme: every field but the inspector variables is one of Textual's, passed as given; the
        variables go in filled (``variables``)."""
        return Theme(**self.model_dump(exclude=set(VARIABLE_FIELDS)), variables=self.variables())


VARIABLE_DEFAULTS: Final[dict[str, str]] = {
    file_key(name): mark.base
    for name, declared in ThemeFile.model_fields.items()
    for mark in declared.metadata
    if isinstance(mark, FallsBackTo)
}
"""Inspector variable -> the base colour it defaults to (the fields marked ``FallsBackTo``)."""
VARIABLE_FIELDS: Final = frozenset(variable.replace("-", "_") for variable in VARIABLE_DEFAULTS)
"""The theme file's fields that hold the custom variables (the others are Textual's own)."""


def default_variables() -> dict[str, str]:
    """Values for every inspector variable when a theme (e.g. a Textual built-in one) does not set them."""
    return {
        variable: FALLBACK_COLOURS.get(base, FALLBACK_COLOURS["primary"])
        for variable, base in VARIABLE_DEFAULTS.items()
    }


@dataclass(slots=True)
class LoadedThemes:
    """The themes found, in load order (shipped first, then the user's, which may override a shipped name)."""

    themes: dict[str, Theme] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    """One line per file that was skipped, to report once at startup."""


def shipped_themes_dir() -> Path:
    """``themes/`` beside the package in a checkout, ``inspector/_themes`` in a wheel."""
    bundled = PACKAGE_DIR / "_themes"
    if bundled.is_dir():
        return bundled
    return PACKAGE_DIR.parent / "themes"


def load_theme_file(path: Path) -> Theme:
    """Parse and validate one theme file; raises ValueError with a one-line reason."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"not valid TOML: {exc}") from None
    try:
        return ThemeFile.model_validate(data).to_theme()
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "file"
        more = f" (+{exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
        raise ValueError(f"{where}: {first['msg']}{more}") from None


def load_themes(*folders: Path | None) -> LoadedThemes:
    """Every ``*.toml`` of each folder, in order; later folders override earlier names."""
    loaded = LoadedThemes()
    for folder in folders:
        if folder is None or not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.toml")):
            try:
                theme = load_theme_file(path)
            except ValueError as exc:
                loaded.problems.append(f"theme {path.name} skipped: {exc}")
                continue
            loaded.themes[theme.name] = theme
    return loaded
