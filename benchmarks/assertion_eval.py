"""Assertion status: HARP's rules against medspaCy's ConText and negspacy on one table of cases.

    .venv/bin/python benchmarks/assertion_eval.py [--cases FILE ...]
    /tmp/medvenv/bin/python benchmarks/assertion_eval.py --engines medspacy   # a venv that has it
    /tmp/negvenv/bin/python benchmarks/assertion_eval.py --engines negspacy

Each case is a sentence or a question-answer exchange with one target concept and its true
status (tests/findings/data/assertion_cases.jsonl, plus heldout_cases.jsonl: sentences written
before the rules were tuned and not used to tune them). HARP's rules run the real extractor
(harp_desktop.findings.extract) on the turns; the libraries get the turns joined into one text
with the target phrase marked (its last occurrence, nearest the answer) — they have no notion of
a question and its answer, which is part of what is measured. Cases whose truth is "no finding"
(an unanswered question, a patient "plan") are scored for the rules only.

Speed: one synthetic hour (700 turns built from the consultations' script text, every
vocabulary phrase as a target). A library that is not importable here prints "not installed";
docs/decisions.md keeps the numbers measured in the scratch venvs, with install sizes.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "findings" / "data"
VOCAB = REPO / "resources" / "clinical_concepts.json"
SCRIPTS = [Path("/work/shared/data/dev/dev_long_01.truth.json"), REPO / "benchmarks/bank/audio/bank_rec_01.truth.json",
           REPO / "benchmarks/bank/audio/bank_rec_02.truth.json"]
SPEAKER = {"clinician": "SPEAKER_0", "patient": "SPEAKER_1", "other": "SPEAKER_2"}
STATUSES = ("affirmed", "negated", "historical", "hypothetical", "family", "uncertain")


def load_cases(paths: list[Path]) -> list[dict]:
    cases = []
    for p in paths:
        for line in p.read_text().splitlines():
            if line.strip():
                c = json.loads(line)
                c["set"] = p.stem
                cases.append(c)
    return cases


def hour_of_turns() -> list[tuple[str, str]]:
    """~700 (role, text) turns: the consultations' script turns repeated (about an hour of speech)."""
    base = []
    for p in SCRIPTS:
        if p.exists():
            d = json.loads(p.read_text())
            sec = [s for s in d["sections"] if s["name"].startswith("consultation")]
            for e in d["events"]:
                if e.get("text") and any(s["start_s"] <= e["start_s"] < s["end_s"] for s in sec):
                    base.append(({"doctor": "clinician"}.get(e.get("role"), e.get("role") or "other"), e["text"]))
    return (base * (700 // max(1, len(base)) + 1))[:700]


# ---- engines: each maps a case to a predicted status (None = no finding)

class Rules:
    name = "HARP rules"

    def __init__(self) -> None:
        sys.path.insert(0, str(REPO))
        from harp_desktop.findings.extract import extract
        from harp_desktop.findings.model import Turn

        self.extract, self.Turn = extract, Turn

    def turns(self, pairs: list[tuple[str, str]]) -> list:
        out, t = [], 0.0
        for i, (role, text) in enumerate(pairs):
            role = role if role in SPEAKER else "other"
            out.append(self.Turn(i, t, t + 3.0, SPEAKER[role], role, text))
            t += 3.8
        return out

    def predict(self, case: dict) -> str | None:
        fs = self.extract(self.turns([(t["role"], t["text"]) for t in case["turns"]]))
        sts = sorted({f.status for f in fs if f.concept == case["concept"]})
        return "|".join(sts) or None

    def hour(self, turns: list[tuple[str, str]]) -> float:
        ts = self.turns(turns)
        t0 = time.perf_counter()
        self.extract(ts)
        return time.perf_counter() - t0


class _Spacy:
    """Shared by the library engines: the exchange as one text, the target's last occurrence."""

    @staticmethod
    def text_and_span(case: dict) -> tuple[str, int, int]:
        text = " ".join(t["text"] for t in case["turns"])
        hits = [m.span() for m in re.finditer(re.escape(case["target"]), text, flags=re.I)]
        if not hits:
            raise ValueError(f"{case['id']}: target {case['target']!r} not in text")
        return text, *hits[-1]

    def target_ent(self, doc, a: int, b: int):
        for ent in doc.ents:
            if ent.start_char <= a < ent.end_char or a <= ent.start_char < b:
                return ent
        return None

    def hour(self, turns: list[tuple[str, str]]) -> float:
        t0 = time.perf_counter()
        for _ in self.nlp.pipe([t for _, t in turns]):
            pass
        return time.perf_counter() - t0

    def phrases(self) -> list[str]:
        data = json.loads(VOCAB.read_text())
        return sorted({s for c in data["concepts"] for s in c["synonyms"]})


class MedSpacy(_Spacy):
    name = "medspaCy ConText"

    def __init__(self) -> None:
        import medspacy
        from medspacy.ner import TargetRule

        try:  # PyRuSH logs every sentence at DEBUG through loguru
            from loguru import logger

            logger.remove()
        except ImportError:
            pass

        self.version = medspacy.__version__
        self.nlp = medspacy.load()
        self.matcher = self.nlp.get_pipe("medspacy_target_matcher")
        self.matcher.add([TargetRule(p, "CONCEPT") for p in self.phrases()])
        self.TargetRule = TargetRule

    def predict(self, case: dict) -> str | None:
        text, a, b = self.text_and_span(case)
        self.matcher.add([self.TargetRule(case["target"].lower(), "CONCEPT")])
        ent = self.target_ent(self.nlp(text), a, b)
        if ent is None:
            return None
        x = ent._
        for attr, status in (("is_hypothetical", "hypothetical"), ("is_family", "family"), ("is_negated", "negated"),
                             ("is_historical", "historical"), ("is_uncertain", "uncertain")):
            if getattr(x, attr, False):
                return status
        return "affirmed"


class NegSpacy(_Spacy):
    name = "negspacy (NegEx)"

    def __init__(self) -> None:
        import negspacy.negation  # noqa: F401  (registers the "negex" factory)
        import spacy
        from negspacy.termsets import termset

        self.version = f"negspacy {getattr(negspacy, '__version__', '1.1.0')}, spaCy {spacy.__version__}"
        self.nlp = spacy.blank("en")
        self.nlp.add_pipe("sentencizer")
        self.ruler = self.nlp.add_pipe("entity_ruler", config={"phrase_matcher_attr": "LOWER"})
        self.ruler.add_patterns([{"label": "CONCEPT", "pattern": p} for p in self.phrases()])
        self.nlp.add_pipe("negex", config={"ent_types": ["CONCEPT"], "neg_termset": termset("en_clinical").get_patterns()})

    def predict(self, case: dict) -> str | None:
        text, a, b = self.text_and_span(case)
        self.ruler.add_patterns([{"label": "CONCEPT", "pattern": case["target"].lower()}])
        ent = self.target_ent(self.nlp(text), a, b)
        if ent is None:
            return None
        return "negated" if ent._.negex else "affirmed"


ENGINES = {"rules": Rules, "medspacy": MedSpacy, "negspacy": NegSpacy}


def evaluate(engine, cases: list[dict], library: bool) -> dict:
    scored = [c for c in cases if c["status"] is not None or not library]
    right, per = 0, defaultdict(lambda: [0, 0])
    wrong = []
    t0 = time.perf_counter()
    for c in scored:
        pred = engine.predict(c)
        ok = pred == c["status"]
        right += ok
        key = c["status"] or "no finding"
        per[key][0] += ok
        per[key][1] += 1
        if not ok:
            wrong.append((c["id"], c["status"], pred))
    dt = time.perf_counter() - t0
    single = [c for c in scored if len(c["turns"]) == 1]
    return {"n": len(scored), "acc": right / max(1, len(scored)), "per": dict(per), "wrong": wrong,
            "ms_per_case": 1000 * dt / max(1, len(scored)), "single_n": len(single)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cases", type=Path, nargs="*", default=[DATA / "assertion_cases.jsonl", DATA / "heldout_cases.jsonl"])
    ap.add_argument("--engines", nargs="*", default=list(ENGINES))
    ap.add_argument("-v", "--verbose", action="store_true", help="list every wrong case")
    args = ap.parse_args()
    cases = load_cases(args.cases)
    hour = hour_of_turns()
    print(f"{len(cases)} cases ({Counter(c['set'] for c in cases)}); statuses {Counter(c['status'] for c in cases)}")
    print(f"speed text: {len(hour)} turns (~1 h of consultation speech)\n")
    print(f"{'engine':22} {'set':22} {'n':>4} {'accuracy':>9} {'ms/case':>8}   per status (right/total)")
    for name in args.engines:
        try:
            engine = ENGINES[name]()
        except ImportError as e:
            print(f"{ENGINES[name].name:22} not installed ({e.name}); measured numbers: docs/decisions.md")
            continue
        library = name != "rules"
        for subset in sorted({c["set"] for c in cases}):
            r = evaluate(engine, [c for c in cases if c["set"] == subset], library)
            per = ", ".join(f"{k} {v[0]}/{v[1]}" for k, v in sorted(r["per"].items()))
            print(f"{engine.name:22} {subset:22} {r['n']:4d} {r['acc']:9.3f} {r['ms_per_case']:8.2f}   {per}")
            if args.verbose:
                for cid, true, pred in r["wrong"]:
                    print(f"    wrong: {cid}: true {true}, got {pred}")
        print(f"{engine.name:22} {'one hour (700 turns)':22} {'':4} {'':9} {'':8}   {engine.hour(hour):.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
