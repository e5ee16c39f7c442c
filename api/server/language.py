"""The language of human words in a response (Banting messages and combo labels, poker
labels, Susun row names): English or Indonesian, chosen from the request's Accept-Language
and stated back in Content-Language."""

from __future__ import annotations

from capsa_fast import LANGUAGES
from flask import Response, after_this_request, request

DEFAULT_LANGUAGE = "en"
# ISO 639 withdrew "in" for Indonesian in 1989, but some platforms (old Java) still send it.
_LANGUAGE_ALIASES = {"in": "id"}


def message_language() -> str:
    """The best of ``capsa_fast.LANGUAGES`` for the request's Accept-Language (RFC 9110 12.5.4);
    the response will carry it as Content-Language, with ``Vary: Accept-Language``.

    Ranges are tried by descending quality; a range matches on its primary subtag, so
    "id-ID" picks Indonesian; q=0 excludes; "*" or nothing usable gives English.
    """
    language = _best_language()

    @after_this_request
    def add_headers(response: Response) -> Response:
        response.headers["Content-Language"] = language
        response.vary.add("Accept-Language")
        return response

    return language


def say(english: str, indonesian: str) -> str:
    """A message in the request's language (the response states it as Content-Language)."""
    return indonesian if message_language() == "id" else english


def _best_language() -> str:
    ranked = sorted(request.accept_languages, key=lambda item: -item[1])
    for value, quality in ranked:
        if quality <= 0:
            continue
        if value == "*":
            return DEFAULT_LANGUAGE
        primary = value.replace("_", "-").split("-", 1)[0].lower()
        primary = _LANGUAGE_ALIASES.get(primary, primary)
        if primary in LANGUAGES:
            return primary
    return DEFAULT_LANGUAGE
