"""``/openapi.json`` as client generators take it: openapi-python-client generates a
client from the live document with no error and no warning, and the rules objects are
closed (``additionalProperties: false``) exactly as the package refuses unknown keys."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from capsa_fast import banting, susun
from flask.testing import FlaskClient

from tests.api.helpers import resolve_ref


def openapi_document(api_client: FlaskClient) -> dict[str, Any]:
    response = api_client.get("/openapi.json")
    assert response.status_code == 200
    document = response.get_json()
    assert isinstance(document, dict)
    return document


def generate_client(document: dict[str, Any], folder: Path) -> Path:
    """Run openapi-python-client on ``document`` in ``folder``, expecting no error and no
    warning; returns the folder the client package (``capsa_fast_api_client``) is in."""
    path = folder / "openapi.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    # No post hooks: the generator formats with ruff by default, which is a separate tool.
    config = folder / "config.yaml"
    config.write_text("post_hooks: []\n", encoding="utf-8")
    out = folder / "client"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "openapi_python_client",
            "generate",
            "--path",
            str(path),
            "--config",
            str(config),
            "--output-path",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert output.strip() == f"Generating {out}", output
    return out


def test_openapi_python_client_generates_a_client_without_warnings(
    api_client: FlaskClient, tmp_path: Path
) -> None:
    out = generate_client(openapi_document(api_client), tmp_path)
    models = out / "capsa_fast_api_client" / "models"
    for name in ("banting_rules.py", "banting_settings.py", "susun_rules.py", "card.py"):
        assert (models / name).is_file() == (name != "card.py"), name  # a card is int | str
    # One class per value set, named as the document names it, with readable members.
    names = {path.stem for path in models.glob("*.py")}
    assert {"combo_kind", "rejection_code", "special_hand", "comparison"} <= names
    text = "\n".join(path.read_text(encoding="utf-8") for path in models.glob("*.py"))
    for ugly in ("VALUE_NEGATIVE", "Type0", "Type1", "GameRules", "Response200"):
        assert ugly not in text, ugly
    comparison = (models / "comparison.py").read_text(encoding="utf-8")
    for member in ("FIRST_WINS = 1", "EQUAL = 0", "SECOND_WINS = -1"):
        assert member in comparison


# Keys the package reads besides "preset" and the settings of its presets.
ALIASES = {
    "BantingRules": (banting.Rules, {"straight_order": "two-high"}),
    "SusunRules": (susun.Rules, {"super_min_players": 2}),
}


@pytest.mark.parametrize("name", sorted(ALIASES))
def test_rules_objects_are_closed_as_the_package_refuses_unknown_keys(
    api_client: FlaskClient, name: str
) -> None:
    document = openapi_document(api_client)
    schema = document["components"]["schemas"][name]
    rules_class, aliases = ALIASES[name]
    assert schema["additionalProperties"] is False
    presets = resolve_ref(document, schema["properties"]["preset"]["$ref"])["enum"]
    settings = {key for preset in presets for key in rules_class.preset(preset).to_dict()}
    settings -= {"preset", "straight_order"}  # what to_dict reports besides the settings
    assert set(schema["properties"]) == {"preset"} | settings | set(aliases)
    # Every documented key is read; a key the document does not name is refused.
    rules_class.from_dict(aliases)
    with pytest.raises(ValueError, match="unknown setting 'colour'"):
        rules_class.from_dict({"colour": "red"})
