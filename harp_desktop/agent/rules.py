"""The deterministic side of planning: what kind of question this is, which event or
emotion it is about, its keywords, and a rule plan that needs no language model.

The LLM planner may refine keywords and the search text, but the window always comes
from ``localize`` and the targets are re-checked here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from harp_desktop.agent.plan import EvidenceSet, Plan, ToolCall
from harp_desktop.retrieval.localize import localize

EVENT_PATTERNS = {
    "cough": r"\bcough(s|ed|ing)?\b",
    "sneeze": r"\bsneez\w*",
    "throat_clearing": r"throat[- ]clear\w*|clear\w* (his |her |their |the )?throat",
    "wheeze": r"\bwheez\w*",
    "laughter": r"\blaugh\w*|\bgiggl\w*",
    "crying": r"\bcr(y|ies|ied|ying)\b|\bsob(s|bing)?\b|\btears\b",
    "sigh": r"\bsigh\w*",
    "shout": r"\bshout\w*|\byell\w*|\bscream\w*",
    "gasp": r"\bgasp\w*",
}
EMOTION_PATTERNS = {
    "angry": r"\bang(ry|er|rily)\b|\bannoyed\b|\bfurious\b|\birritat\w*|\bmad\b",
    "sad": r"\bsad\w*|\bunhappy\b|\bupset\b|\bdepress\w*|\bgloomy\b",
    "happy": r"\bhapp(y|ily|iness)\b|\bcheer\w*|\bjoy\w*|\bexcited\b|\bdelight\w*",
    "fearful": r"\bfear\w*|\bfright\w*|\bscared\b|\bafraid\b|\bterrif\w*|\bpanick\w*",
    "surprised": r"\bsurpris\w*|\bastonish\w*|\bshock\w*|\bamazed\b",
    "disgust": r"\bdisgust\w*|\brevolt\w*|\bgross\w*",
    "calm": r"\bcalm\w*|\brelaxed\b",
}
EMOTION_WORDS = r"\bemotion\w*|\btone\b|\bmood\b|\bsound(s|ed)?\b|\bfeel(s|ing)?\b|\bstate\b"
AUDIBLE = (r"\bheard\b|\baudible\b|\bhear\b|\bhow many\b|\bwhen\b|\bfirst\b|\bany(one)? (\w+ )?(cough|sneez|laugh|cr)"
           r"|\bsimilar sound\b|\bbetween\b|\bcan be\b|\bis (there|anyone|someone)\b")
REPORTED = r"\bhow long\b|\breport\w*|\bsay|\bsaid\b|\bmention\w*|\btell|\bdescribe\w*|\bwet\b|\bdry\b|\bkind of\b"
# Properties of a sound that no model here measures. Asked about the sound, the answer says so and
# quotes what was said instead of guessing (issue 7): (pattern, search terms for what was said).
SOUND_QUALITIES = {
    "wet or dry": (r"\bwet\b|\bdry\b|\bproductive\b|\bphlegm\w*|\bmucus\b|\bsputum\b|\bchesty\b|\bloose\b",
                   ["wet", "dry", "productive", "phlegm", "mucus", "sputum", "chesty", "loose"]),
    "inspiratory or expiratory": (r"\binspir\w*|\bexpir\w*|\bbreath(e|es|ing)? (in|out)\b|\binhal\w*|\bexhal\w*",
                                  ["inspiratory", "expiratory", "breathe", "inhale", "exhale"]),
    "barking, whooping or hoarse": (r"\bbark\w*|\bwhoop\w*|\bcroup\w*|\bbrassy\b|\bhoarse\b|\braspy\b|\brattl\w*",
                                    ["barking", "whooping", "croup", "hoarse", "raspy", "rattling"]),
    "high or low pitched": (r"\bhigh[- ]pitched\b|\blow[- ]pitched\b|\bpitch\b|\bmonophonic\b|\bpolyphonic\b",
                            ["pitched", "pitch", "whistling", "squeaky"]),
}
ABOUT_SPEECH = r"\bsay|\bsaid\b|\bmention\w*|\breport\w*|\btell|\btold\b|\bdescrib\w*|\bcomplain\w*"
ABOUT_SOUND = r"\bsound\w*|\bhear\b|\bheard\b|\blisten\w*|\baudibl\w*|\bjudg\w*"
SPEAKER_COUNT = re.compile(r"\bhow many (different |distinct |separate )?(people|speakers|voices|persons|individuals)\b",
                           re.I)
STOP = set("""a an the is are was were be been being do does did doing have has had having can could would should
will shall may might must of in on at to for from by with about as into over after before between during through
and or but if then than so that this these those there here what which who whom whose when where why how any
anyone someone some all each every no not yes i you he she it we they me him her them my your his its our their
patient doctor recording speaker person people say said says tell told mention mentioned report reported
according time point moment minute minutes second seconds""".split())


@dataclass
class Analysis:
    intent: str
    event: str | None = None
    emotion: str | None = None
    quote: str | None = None
    keywords: list[str] = field(default_factory=list)
    asks_first: bool = False
    quality: str | None = None  # a SOUND_QUALITIES key: the question asks what the sound is like


def _first_match(patterns: dict[str, str], text: str) -> str | None:
    hits = [(m.start(), label) for label, p in patterns.items() for m in [re.search(p, text)] if m]
    return min(hits)[1] if hits else None


def named_event(question: str) -> str | None:
    """The sound event the question names in words ("cough"), if any."""
    return _first_match(EVENT_PATTERNS, question.lower()[:2000])


def analyse(question: str, has_cue: bool) -> Analysis:
    q = question.lower()[:2000]
    quote = next((m.group(1) for m in re.finditer(r"['\"‘“]([^'\"’”]{6,120})['\"’”]", question)), None)
    event = _first_match(EVENT_PATTERNS, q)
    quality = _first_match({k: v[0] for k, v in SOUND_QUALITIES.items()}, q) if event else None
    if quality and re.search(ABOUT_SPEECH, q) and not re.search(ABOUT_SOUND, q):
        quality = None  # "does she say the cough is dry?" asks about the transcript
    emotion = _first_match(EMOTION_PATTERNS, re.sub(r"['\"‘“][^'\"’”]*['\"’”]", " ", q))
    if event and re.search(REPORTED, q) and not re.search(r"\bheard\b|\baudible\b|\bhow many\b", q):
        event = None  # "how long has he had the cough?" is about what was said, not a sound
    elif event and not re.search(AUDIBLE, q):
        event = None
    keywords = [w for w in re.findall(r"[a-z][a-z'-]+", re.sub(r"['\"‘“][^'\"’”]*['\"’”]", " ", q))
                if w not in STOP and len(w) > 2]
    asks_first = bool(re.search(r"\bfirst\b|\bwhen\b|\bat what (time|point)\b|\bwhat time\b|\bfind the moment\b", q))
    if re.search(r"\bhow many\b|\bnumber of\b|\bhow often\b", q):
        intent = "count"
    elif has_cue and not event and re.search(r"\bvoice\b|\bspeaker\b|\bperson\b|\bthis clip\b|\bspeak", q):
        intent = "speaker"
    elif emotion is None and re.search(EMOTION_WORDS, q) and re.search(r"\bhow does\b|\bwhat emotion|\bemotional\b|"
                                                                         r"\btone\b|\bmood\b|\bdescribe", q):
        intent = "emotion"
    elif re.search(r"^\s*(when\b|at what (time|point)|what time)|\bfind the moment\b|\bat what (time|point)\b", q):
        intent = "when"
    elif re.match(r"\s*(does|did|do|is|are|was|were|can|could|has|have|had|will|would)\b", q):
        intent = "yesno"
    else:
        intent = "text"
    if has_cue and intent not in ("speaker",) and re.search(r"\bsimilar\b|\blike this\b|\bexample\b", q):
        event = event or "cough"  # refined from the cue's own sound class at ask time
    if quality:
        return Analysis(intent, _first_match(EVENT_PATTERNS, q), None, quote, keywords[:8], asks_first, quality)
    return Analysis(intent, event, emotion, quote, keywords[:8], asks_first)


def quality_plan(a: Analysis, question: str, start: float, end: float) -> list[EvidenceSet]:
    """The events themselves (all of them) and the speech that describes them (a few)."""
    terms = SOUND_QUALITIES[a.quality][1]
    return [EvidenceSet(start, end, [ToolCall("label", {"label": a.event, "kind": "event"})], True),
            EvidenceSet(start, end, [ToolCall("keyword", {"terms": terms}),
                                     ToolCall("text_emb", {"query": question[:300]})])]


def rule_plan(question: str, duration_s: float, has_cue: bool) -> Plan:
    a = analyse(question, has_cue)
    window = localize(question, duration_s)
    start, end = (window.start_s, window.end_s) if window else (0.0, duration_s)
    calls: list[ToolCall] = []
    all_matches = False
    if a.quality:
        plan = Plan(a.intent, quality_plan(a, question, start, end), a.event, None, a.quote,
                    window.anchor_s if window else None, quality=a.quality)
        plan.notes.append(f"asks whether the {a.event.replace('_', ' ')} is {a.quality}: no model measures that")
        return plan
    if a.intent == "speaker":
        calls.append(ToolCall("speaker", {"cue": True}))
        all_matches = True
    elif a.intent == "count" and SPEAKER_COUNT.search(question) and not a.event:
        calls.append(ToolCall("time", {}))  # every turn in the window: code counts the voices
        all_matches = True
    elif a.event:
        calls.append(ToolCall("label", {"label": a.event, "kind": "event"}))
        if has_cue:
            calls.append(ToolCall("audio_emb", {"cue": True}))
        all_matches = True
    elif a.emotion or a.intent == "emotion":
        for lab in [a.emotion] if a.emotion else []:
            calls.append(ToolCall("label", {"label": lab, "kind": "emotion"}))
        calls.append(ToolCall("time", {}))
        all_matches = True
    if a.quote:
        calls.append(ToolCall("keyword", {"terms": a.quote.split()}))
        calls.append(ToolCall("text_emb", {"query": a.quote}))
        all_matches = all_matches or a.intent == "count"
    elif not calls or a.intent in ("text", "yesno") and not a.event:
        if a.keywords:
            calls.append(ToolCall("keyword", {"terms": a.keywords}))
        calls.append(ToolCall("text_emb", {"query": question[:300]}))
    if window and not any(c.tool == "time" for c in calls):
        calls.append(ToolCall("time", {}))
    plan = Plan(a.intent, [EvidenceSet(start, end, calls, all_matches)], a.event, a.emotion, a.quote,
                window.anchor_s if window else None)
    if window:
        plan.notes.append(f"time window {window.text!r} -> {start:.0f}-{end:.0f} s")
    return plan


# The words that name one side of a quality when a speaker describes the sound ("a dry cough").
DESCRIBED = {"wet or dry": {"dry": "dry", "non-productive": "dry", "wet": "wet", "productive": "wet", "chesty": "wet"},
             "inspiratory or expiratory": {"inspiratory": "inspiratory", "expiratory": "expiratory"}}


def described_side(quality: str, sentences: list[str]) -> str | None:
    """The one side of ``quality`` the sentences name ("it's completely dry" -> "dry"), or None when they
    name none or both. "not dry" / "isn't wet" name nothing: a negation among the three words before drops it."""
    sides = {v for s in sentences for w, v in DESCRIBED.get(quality, {}).items()
             if re.search(rf"(?<![\w-]){w}\b", s.lower())
             and not re.search(rf"\b(not|no|never|isn't|wasn't|aren't)\W+(\w+\W+){{0,2}}{w}\b", s.lower())}
    return sides.pop() if len(sides) == 1 else None
