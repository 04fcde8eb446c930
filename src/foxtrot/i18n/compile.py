"""Check the PO files and compile them into the .mo files the program reads (needs Babel).

The PO files ``locale/<lang>/LC_MESSAGES/foxtrot.po`` are the one source of every message;
the ``.mo`` files beside them are what :mod:`gettext` reads at run time, committed so that an
install needs no compiler.  After editing a PO file::

    python -m foxtrot.i18n.compile            # check every PO file, then write every .mo file
    python -m foxtrot.i18n.compile --check    # only check: exit 1 on a problem or a stale .mo
    python -m foxtrot.i18n.compile --new de   # start de.po: every key of en.po, untranslated

The check refuses a message missing in a language or present only there, a placeholder set that
differs from English (a card slot's case aside: ``{card_acc}`` in Russian fills the slot of
``{card}`` in English), a counted message without a form for every CLDR plural category of its
language, an empty or fuzzy translation, a key defined twice, and a ``Plural-Forms`` header
other than the one Babel compiles from CLDR's rule.
"""

from __future__ import annotations

import argparse
import io
import re
import string
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path

from babel.messages.catalog import Catalog as PoCatalog
from babel.messages.catalog import Message as PoMessage
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from . import DOMAIN, Translations, cldr, slot_case

LOCALE = Path(__file__).with_name("locale")
REFERENCE = "en"


def po_path(lang: str, root: Path = LOCALE) -> Path:
    """Where the PO file of ``lang`` lives."""
    return root / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(lang: str, root: Path = LOCALE) -> Path:
    """Where the compiled catalog of ``lang`` lives."""
    return root / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"


def present(root: Path = LOCALE) -> list[str]:
    """The languages that have a PO file, English first."""
    found = sorted(path.parent.parent.name for path in root.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
    return sorted(found, key=lambda lang: lang != REFERENCE)


def parse(text: str, lang: str) -> PoCatalog:
    """A PO file's text as Babel's catalog."""
    return read_po(io.StringIO(text), locale=lang, domain=DOMAIN)


def compiled(text: str, lang: str) -> bytes:
    """What Babel compiles from a PO file's text: the bytes of its .mo file."""
    out = io.BytesIO()
    write_mo(out, parse(text, lang))
    return out.getvalue()


def fields(text: str) -> set[str]:
    """The names of the format fields of a message."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def slots(names: set[str]) -> set[str]:
    """The slots of format fields, without their case: ``card_acc`` and ``card`` are ``card``.

    A language puts a card in the case its own sentence needs, so only the slots must be the
    same as in English, not their cases.
    """
    return {slot_case(name)[0] for name in names}


def _key(message: PoMessage) -> str:
    key = message.id
    return str(key if isinstance(key, str) else key[0])


def _forms(message: PoMessage) -> tuple[str, ...]:
    found = message.string
    return tuple(found) if isinstance(found, (tuple, list)) else (found or "",)


def _placeholders(forms: Sequence[str], where: str, problems: list[str]) -> set[str] | None:
    try:
        return set().union(*(fields(form) for form in forms))
    except ValueError as error:
        problems.append(f"{where}: not a valid format string ({error})")
        return None


def problems(texts: Mapping[str, str]) -> list[str]:
    """What is wrong with the PO files' texts (by language; ``en`` is the reference)."""
    found: list[str] = []
    catalogs: dict[str, dict[str, PoMessage]] = {}
    for lang, text in texts.items():
        keys = re.findall(r'^msgid "(.+)"$', text, flags=re.MULTILINE)
        found += [f"{lang}: {key!r} is defined twice" for key, n in Counter(keys).items() if n > 1]
        try:
            catalog = parse(text, lang)
        except Exception as error:  # Babel's parse errors have no common class
            found.append(f"{lang}: the PO file cannot be read ({error})")
            continue
        if str(catalog.locale) != lang:
            found.append(f"{lang}: the Language header must be {lang!r}, not {catalog.locale}")
        header = cldr.plural_forms(lang)
        if catalog.plural_forms != header:
            found.append(f"{lang}: the Plural-Forms header must be CLDR's: {header}")
        catalogs[lang] = {_key(message): message for message in catalog if message.id}
    reference = catalogs.get(REFERENCE)
    if reference is None:
        return [*found, f"no {REFERENCE} catalog to compare with"]
    for lang, local in catalogs.items():
        categories = cldr.categories(lang)
        for key in sorted(set(local) - set(reference)):
            found.append(f"{lang}: {key!r} is not in the {REFERENCE} catalog")
        for key, english in reference.items():
            where = f"{lang}: {key!r}"
            message = local.get(key)
            if message is None:
                found.append(f"{where} is missing")
                continue
            if message.pluralizable != english.pluralizable:
                kind = "a counted" if english.pluralizable else "a plain"
                found.append(f"{where} must be {kind} message, as in {REFERENCE}")
                continue
            if message.fuzzy:
                found.append(f"{where} is marked fuzzy (not compiled): check it, drop the flag")
            forms = _forms(message)
            if message.pluralizable and len(forms) != len(categories):
                found.append(
                    f"{where} has {len(forms)} forms; {lang} needs one for each CLDR category:"
                    f" {', '.join(categories)}"
                )
            names = categories if message.pluralizable else ("text",)
            found += [
                f"{where} lacks its {name} form"
                for name, form in zip(names, forms, strict=False)
                if not form
            ]
            want = _placeholders(_forms(english), f"{REFERENCE}: {key!r}", [])
            for name, form in zip(names, forms, strict=False):
                have = _placeholders([form], f"{where} ({name})", found)
                if want is not None and have is not None and form and slots(have) != slots(want):
                    found.append(
                        f"{where} ({name}) has placeholders {sorted(have)}, {REFERENCE} has"
                        f" {sorted(want)}"
                    )
    return found


def _content(data: bytes, lang: str) -> tuple[object, ...]:
    """A .mo file's messages and headers, but not the Babel version that compiled it."""
    translations = Translations(io.BytesIO(data), lang)
    info = {name: value for name, value in translations.info().items() if name != "generated-by"}
    return translations.messages(), info


def stale(lang: str, root: Path = LOCALE) -> bool:
    """Whether the .mo file of ``lang`` is missing or differs from what Babel compiles now."""
    path = mo_path(lang, root)
    if not path.exists():
        return True
    fresh = compiled(po_path(lang, root).read_text("utf-8"), lang)
    return path.read_bytes() != fresh and _content(path.read_bytes(), lang) != _content(fresh, lang)


def new_language(lang: str, root: Path = LOCALE) -> Path:
    """Start the PO file of ``lang``: every key of English, untranslated, CLDR's plural rule."""
    path = po_path(lang, root)
    if path.exists():
        raise FileExistsError(f"{path} exists already")
    english = parse(po_path(REFERENCE, root).read_text("utf-8"), REFERENCE)
    catalog = PoCatalog(locale=lang, domain=DOMAIN, project=english.project, fuzzy=False)
    nplurals, expr = cldr.plural_forms(lang).split(";", 1)
    catalog.mime_headers = [("Plural-Forms", cldr.plural_forms(lang))]
    blank = ("",) * len(cldr.categories(lang))
    for message in english:
        if message.id:
            string_ = blank if message.pluralizable else ""
            catalog.add(message.id, string_, auto_comments=message.auto_comments)
    del nplurals, expr
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as out:
        write_po(out, catalog, width=100)
    return path


def main(argv: Sequence[str] | None = None) -> int:
    """Check the PO files; write the .mo files unless ``--check``; start one with ``--new``."""
    parser = argparse.ArgumentParser(prog="python -m foxtrot.i18n.compile", description=__doc__)
    parser.add_argument("--check", action="store_true", help="only check; exit 1 if stale")
    parser.add_argument("--new", metavar="LANG", help="start the PO file of a new language")
    parser.add_argument("--locale", type=Path, default=LOCALE, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    root: Path = args.locale
    if args.new:
        path = new_language(args.new, root)
        print(f"wrote {path}: translate every msgstr, add {args.new!r} to LANGUAGES, compile")
        return 0
    langs = present(root)
    texts = {lang: po_path(lang, root).read_text("utf-8") for lang in langs}
    found = problems(texts)
    if args.check:
        found += [
            f"{lang}: {mo_path(lang, root)} is stale: compile"
            for lang in langs
            if stale(lang, root)
        ]
    for problem in found:
        print(problem, file=sys.stderr)
    if found or args.check:
        return 1 if found else 0
    for lang in langs:
        mo_path(lang, root).write_bytes(compiled(texts[lang], lang))
        print(f"wrote {mo_path(lang, root)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
