"""Emotion: someone sounds X (exists / when / count), the emotion at a time or quote, how a
speaker's arousal (valence, dominance) changed, which of two speakers is higher, and the
two-clip locate ("this is X: [clip]; when did X sound like [clip]?").

Arousal and valence are the dimension head's, stored per segment by the emotion stage
(``stored_dims``, issue 18); a segment without them (read on demand, a library indexed
before that head) and dominance fall back to its class probabilities placed on the
circumplex (``DIMENSIONS``). The rationale says which segments were read.
"""

from __future__ import annotations

import re
from dataclasses import replace

import numpy as np
from rapidfuzz import fuzz

from harp_desktop.agent import lexicon as lx
from harp_desktop.agent.answerers.context import AnswerContext, Result, cites
from harp_desktop.agent.answerers.voice_match import close_turns
from harp_desktop.agent.chain import span
from harp_desktop.agent.settle import CANNOT_TELL, EMOTION_MIN
from harp_desktop.index.emotion_dims import CIRCUMPLEX, cue_score
from harp_desktop.retrieval.localize import format_clock
from harp_desktop.types import Evidence

CHANGE_MIN = 0.05  # a mean arousal difference under this is "stayed about the same"
# Places on [0, 1] of each class (arousal, valence, dominance), after Russell's circumplex and the
# NRC VAD lexicon's entries for these words (Mohammad 2018), rounded: see docs/decisions.md.
DIMENSIONS = CIRCUMPLEX
AXIS = {"arousal": 0, "valence": 1, "dominance": 2}
WORDS = {"arousal": ("higher", "lower", "rose", "fell"), "valence": ("more positive", "more negative", "rose", "fell"),
         "dominance": ("higher", "lower", "rose", "fell")}


def probs(ctx: AnswerContext) -> dict[int, dict[str, float]]:
    """segment id -> {label: probability}, for the segments the emotion stage classified."""
    if "_probs" not in ctx.__dict__:
        got = ctx.lib.db.get_array(ctx.rec["id"], "emotion_probs")
        out: dict[int, dict[str, float]] = {}
        if got is not None:
            arr, meta = got
            for sid, p in zip(meta.get("segment_ids", []), arr, strict=False):
                out[int(sid)] = {lab: float(v) for lab, v in zip(meta["labels"], p, strict=False)}
        ctx.__dict__["_probs"] = out
    return ctx.__dict__["_probs"]


SIM_TIE = 0.05  # turns within this of the best similarity to the example count as equally like it
MIN_READ_S = 1.6  # the emotion head's shortest useful input; shorter speech is read with its surroundings


def probs_of(ctx: AnswerContext, seg: dict) -> dict[str, float] | None:
    """The stored probabilities of a segment; for one the index skipped as too short (a 0.5 s
    "The door!" cut from a 2 s line), the head is run now on at least MIN_READ_S around it."""
    got = probs(ctx).get(seg["id"])
    if got or not seg["text"].strip():
        return got
    cache = ctx.__dict__.setdefault("_read_now", {})
    if seg["id"] not in cache:
        mid, half = (seg["start_s"] + seg["end_s"]) / 2, max(MIN_READ_S, seg["end_s"] - seg["start_s"]) / 2
        try:
            cache[seg["id"]] = predict(ctx, ctx.audio(max(0.0, mid - half), mid + half))
            ctx.notes.append(f"the speech at {format_clock(seg['start_s'])} was too short for the index's emotion "
                             f"pass; read now with {2 * half:.1f} s around it")
        except Exception:  # noqa: BLE001 - no audio cache or model: say it cannot tell
            cache[seg["id"]] = None
    return cache[seg["id"]]


def stored_dims(ctx: AnswerContext) -> dict[int, dict]:
    """segment id -> the emotion stage's row ({"label", "score", "arousal", "valence"}), read once."""
    if "_dims" not in ctx.__dict__:
        ctx.__dict__["_dims"] = ctx.lib.db.segment_emotions(ctx.rec["id"])
    return ctx.__dict__["_dims"]


def dimension_of(ctx: AnswerContext, seg: dict, p: dict[str, float], axis: str) -> float:
    """The segment's stored arousal/valence; else its probabilities' place on the circumplex."""
    v = stored_dims(ctx).get(seg["id"], {}).get(axis)
    return float(v) if v is not None else dimension(p, axis)


def dimension(p: dict[str, float], axis: str) -> float:
    i = AXIS[axis]
    total = sum(p.values()) or 1.0
    return sum(v * DIMENSIONS.get(lab, (0.5, 0.5, 0.5))[i] for lab, v in p.items()) / total


def top(p: dict[str, float]) -> tuple[str, float]:
    lab = max(p, key=p.get)
    return lab, p[lab]


def _subject_segments(ctx: AnswerContext, subject) -> list[dict]:
    # Change and comparison follow a person over a stretch: "the man at 00:28" includes his later
    # lines even when diarisation gave them another label (same voice).
    who = ctx.speakers_for(subject, widen=subject.kind == "at_time")
    segs = [s for s in ctx.segments if s["text"].strip() and ctx.in_window(s["start_s"], s["end_s"])]
    return segs if who is None else [s for s in segs if ctx.label_of(s) in who]


def tagged(ctx: AnswerContext, label: str) -> list[Evidence]:
    """Moments tagged ``label`` with enough confidence, in the windows, for the subject."""
    out: list[Evidence] = []
    for a, b in ctx.windows:
        for one in (lx.EMOTIONAL if label == "emotional" else (label,)):
            out += [e for e in ctx.tools.label(one, a, b, "emotion") if e.scores["label"] >= EMOTION_MIN]
    who = ctx.speakers_for(ctx.spec.subject)
    by_id = {s["id"]: s for s in ctx.segments}
    if who is not None:
        out = [e for e in out if e.segment_id in by_id and ctx.label_of(by_id[e.segment_id]) in who]
    return sorted({(e.start_s, e.end_s): e for e in out}.values(), key=lambda e: e.start_s)


def answer_label(ctx: AnswerContext) -> Result:
    """exists / when / count for "someone sounds <emotion>"."""
    spec = ctx.spec
    label = spec.emotion or "neutral"
    items = tagged(ctx, label)
    claim = {"kind": "emotion", "label": label}
    where = ctx.window_words()
    if spec.operation == "count":
        return Result(str(len(items)), f"{len(items)} moment(s) {where} sound {label}: {cites(items) or 'none'}.",
                      items, claim, True)
    if not items and spec.operation in ("when_first", "when_all"):
        # "When did someone sound happy?" presumes it happens: below the confidence bar, the speech
        # whose most likely emotion is that label still answers, and the rationale says so.
        pr = probs(ctx)
        weak = [s for s in _subject_segments(ctx, spec.subject) if s["id"] in pr
                and top(pr[s["id"]])[0] in (lx.EMOTIONAL if label == "emotional" else (label,))]
        if weak:
            ev = ctx.evidence(weak[0], "emotion")
            return Result(format_clock(weak[0]["start_s"]), f"No speech {where} reached the confidence bar for {label}; "
                          f"the first whose most likely emotion is {label} is at {span(ev)} "
                          f"(p={pr[weak[0]['id']][label]:.2f}): \"{weak[0]['text'].strip()[:100]}\".", [ev],
                          {"kind": "emotion", "label": label}, True)
    if not items:
        first = "No" if spec.operation == "exists" else "Not found"
        return Result(first, f"No — not heard: no speech {where} was classified as {label} with enough confidence.",
                      [], claim, spec.operation == "exists")
    if spec.operation == "exists":
        return Result("Yes", f"Speech classified as {label} {where} at {cites(items)}.", items, claim)
    first = items[-1] if spec.ordinal == "last" else items[0]
    return Result(format_clock(first.start_s), f"The {spec.ordinal} {label}-sounding speech {where} is at {span(first)} "
                  f"(p={first.scores['label']:.2f}): \"{first.text.strip()[:100]}\"; also {cites(items[1:]) or 'none'}.",
                  items, claim)


def quoted_segment(ctx: AnswerContext) -> dict | None:
    spec = ctx.spec
    segs = [s for s in ctx.segments if s["text"].strip()]
    if spec.anchor_s is not None:
        near = [s for s in segs if s["end_s"] >= spec.anchor_s - 30 and s["start_s"] <= spec.anchor_s + 30]
        segs = near or segs
    scored = [(fuzz.partial_ratio(spec.quote.lower(), s["text"].lower()), s) for s in segs]
    best = max(scored, key=lambda x: x[0], default=(0, None))
    return best[1] if best[0] >= 70 else None


def _topic_segment(ctx: AnswerContext) -> dict | None:
    """"How does he sound when he gets to the bit about the fox?": no time is given, so the moment is
    the subject's turn that says the topic (best by rare words and meaning)."""
    from harp_desktop.agent.answerers import said

    mine = {s["id"] for s in _subject_segments(ctx, ctx.spec.subject)}
    ranked = [(sc, s) for sc, s in said.own_relevance(ctx, ctx.spec.question) if not mine or s["id"] in mine]
    return ranked[0][1] if ranked and ranked[0][0] > 0.2 else None


def answer_at(ctx: AnswerContext) -> Result:
    """The emotion of the speech at the question's time (or its quote): read that speech, not the strongest tag nearby."""
    spec = ctx.spec
    seg = quoted_segment(ctx) if spec.quote else None
    t = spec.anchor_s if spec.anchor_s is not None else spec.subject.at_s
    if seg is None and t is not None:
        seg = ctx.segment_at(t)
    if seg is None and spec.window:
        segs = _subject_segments(ctx, spec.subject)
        seg = max(segs, key=lambda s: s["end_s"] - s["start_s"], default=None)
    if seg is None and t is None:
        seg = _topic_segment(ctx)
    claim = {"kind": "emotion"}
    if seg is None:
        where = format_clock(t) if t is not None else "the moment asked about"
        return Result("Not found", f"No speech was found at {where}.", [], claim, False)
    ev = ctx.evidence(seg, "emotion")
    p = probs_of(ctx, seg)
    if not p:
        return Result(CANNOT_TELL, f"The speech at {span(ev)} (\"{seg['text'].strip()[:80]}\") is "
                      f"{seg['end_s'] - seg['start_s']:.1f} s long, too short for the emotion model to judge; "
                      "no emotion is claimed.", [ev], claim, False)
    label, score = top(p)
    claim["label"] = label
    second = sorted(p.items(), key=lambda kv: -kv[1])[1]
    said = feeling_said(seg["text"])
    if said and label in ("neutral", "calm"):
        # "To be honest, I'm worried": a feeling put into words is shown, however even the voice (a flat voice
        # is how many people say it). Both channels are answered: what the words say and how the voice sounds.
        # (what the citation must carry is the feeling's words, not an emotion tag)
        claim = {"kind": "answer_words", "terms": [w.lower() for w in re.findall(r"[a-z]+", _feeling(seg["text"])
                                                                               .group(0), re.I)][-2:]}
        return Result(f"{said} (in words; the voice sounds {label})", f"At {span(ev)} the speaker says so in words (\"{seg['text'].strip()[:100]}\"); the voice "
                      f"itself was classified as {label} (p={score:.2f}).", [ev], claim)
    return Result(label, f"The speech at {span(ev)} (\"{seg['text'].strip()[:80]}\") was classified as {label} "
                  f"(p={score:.2f}; next {second[0]} {second[1]:.2f}).", [ev], claim)


# A feeling the speaker states about themself: "I'm a bit worried", "I am just relieved", "that's a relief".
FEELING = re.compile(r"\b(?:i'?m|i am|i feel|i'?ve been|i was|i get|feeling)\s+(?:so |really |just |a bit |a little |quite |"
                     r"very |rather |pretty |that |kind of |sort of |absolutely |getting )*(worried|anxious|nervous|scared|"
                     r"frightened|terrified|petrified|afraid|relieved|upset|angry|furious|cross|annoyed|frustrated|fed up|"
                     r"sad|low|down|miserable|happy|glad|pleased|delighted|excited|thrilled|embarrassed|ashamed|"
                     r"disgusted|surprised|shocked|stressed)\b|\b(?:that'?s|what) a relief\b", re.I)
NOT_FEELING = re.compile(r"\b(?:not|n't|never)\s+(?:\w+\s+){0,2}$", re.I)


def _feeling(text: str) -> re.Match | None:
    """The first statement of a feeling in the text that is not denied ("I'm not worried")."""
    return next((m for m in FEELING.finditer(text)
                 if not NOT_FEELING.search(text[:m.start(1) if m.group(1) else m.start()])), None)


def feeling_said(text: str) -> str | None:
    """The feeling a turn states of its speaker, in the speaker's word ("worried"), or None (also when denied)."""
    m = _feeling(text)
    return (m.group(1) or "relieved").lower() if m else None


def _mean_dim(ctx: AnswerContext, segs: list[dict], axis: str) -> tuple[float | None, list[dict]]:
    read = [(s, probs_of(ctx, s)) for s in segs]
    read = [(s, p) for s, p in read if p]
    used = [s for s, _ in read]
    if not used:
        return None, []
    w = np.array([max(MIN_READ_S, s["end_s"] - s["start_s"]) for s in used])
    v = np.array([dimension_of(ctx, s, p, axis) for s, p in read])
    return float((w * v).sum() / w.sum()), used


def answer_compare(ctx: AnswerContext) -> Result:
    spec = ctx.spec
    axis = spec.target if spec.target in AXIS else "arousal"
    parties = [spec.subject, *spec.others][:2]
    claim = {"kind": "emotion", "axis": axis}
    if len(parties) < 2:
        # "Which speaker had higher arousal?" names nobody: compare the two who speak most in the window.
        segs = _subject_segments(ctx, spec.subject.__class__("anyone"))
        talk: dict[str, float] = {}
        for s in segs:
            talk[ctx.label_of(s) or "?"] = talk.get(ctx.label_of(s) or "?", 0.0) + s["end_s"] - s["start_s"]
        labels = sorted(talk, key=lambda k: -talk[k])[:2]
        parties = [spec.subject.__class__("named", lab) for lab in labels]
    segs_of = [_subject_segments(ctx, p) for p in parties]
    # Two parties are two people: speech both readings claim (a voice match widened "the speaker at 00:06"
    # to the other voice as well) is taken from each, unless that leaves the party with nothing.
    both = {s["id"] for s in segs_of[0]} & {s["id"] for s in segs_of[1]}
    segs_of = [[s for s in segs if s["id"] not in both] or segs for segs in segs_of]
    scored = []
    for p, segs in zip(parties, segs_of, strict=True):
        val, used = _mean_dim(ctx, segs, axis)
        scored.append((p, val, used))
    if any(v is None for _, v, _ in scored):
        missing = [p.describe() for p, v, _ in scored if v is None]
        return Result("Not found", f"No classified speech by {', '.join(missing)} {ctx.window_words()}.", [], claim,
                      False)
    (pa, va, ua), (pb, vb, ub) = scored
    hi, lo = ((pa, va, ua), (pb, vb, ub)) if va >= vb else ((pb, vb, ub), (pa, va, ua))
    cited = [ctx.evidence(s, "emotion") for s in (hi[2][:2] + lo[2][:2])]
    word = WORDS[axis][0]
    return Result(_party_word(ctx, hi[0]), f"{_party_word(ctx, hi[0]).capitalize()} had {word} {axis} "
                  f"({hi[1]:.2f} over {len(hi[2])} segment(s)) than {_party_word(ctx, lo[0])} ({lo[1]:.2f} over "
                  f"{len(lo[2])}), {ctx.window_words()}: {cites(cited)}.", cited, claim)


def _party_word(ctx: AnswerContext, subject) -> str:
    """The party in the question's own words ("man", "doctor", "Speaker A"): the first line answers with it."""
    if subject.kind == "named":
        return subject.name or "the named speaker"
    if subject.kind == "at_time" and subject.at_s is not None:
        # "the man at 02:19 or the woman at 06:42": two of a kind are told apart by their time
        return f"{re.sub(r'^(the|her|his|their) ', '', subject.name or 'speaker')} at {format_clock(subject.at_s)}"
    if subject.kind in ("clinician", "other") and subject.name:
        return re.sub(r"^(the|her|his|their) ", "", subject.name)
    return subject.describe().replace("the ", "", 1)


def answer_change(ctx: AnswerContext) -> Result:
    spec = ctx.spec
    axis = spec.target if spec.target in AXIS else "arousal"
    subject = spec.subject
    quoted = quoted_segment(ctx) if spec.quote and subject.kind in ("gender", "anyone") else None
    segs = _subject_segments(ctx, subject)
    claim = {"kind": "emotion", "axis": axis}
    pr = probs(ctx)
    if quoted is not None:
        # "the woman who says 'Dogs are sitting by the door' at 00:23": the voice of that line, not every woman --
        # when that voice has a stretch to compare (an acted line often gets a label of its own)
        own = [s for s in _subject_segments(ctx, replace(subject, kind="at_time", at_s=quoted["start_s"])) if s["id"] in pr]
        segs = own if len(own) >= 2 else segs
    segs = [s for s in segs if s["id"] in pr]
    on_topic = [s for s in segs if spec.topic and _about(s["text"], spec.topic)]
    if len(on_topic) >= 2:
        segs = on_topic  # "while discussing X": the turns about X, not everything else said in the window
    if len(on_topic) < 2 and spec.topic:
        # HARP names the topic ("while discussing X"): the speech about it in the window stands in when
        # the subject's own turns about it are too few (diarisation may give one person two labels, or
        # put her one line into another voice's label).
        topical = [s for s in _subject_segments(ctx, spec.subject.__class__("anyone"))
                   if s["id"] in pr and _about(s["text"], spec.topic)]
        if len(topical) >= 2:
            ctx.notes.append(f"too few turns by {spec.subject.describe()}; read the speech about "
                             f"'{' '.join(spec.topic)}' in the window")
            segs = topical
    if len(segs) < 2:
        return Result("Not found", f"Fewer than two classified segments by {spec.subject.describe()} "
                      f"{ctx.window_words()}: a change cannot be read.", [], claim, False)
    # HARP's change is from the start of the stretch to its end: the first and the last third of the
    # speaker's classified turns (one turn each when there are only a few).
    # Neutral speech between emotional moments carries no change: with two or more emotional turns, the change is
    # read across those ("happy ... angry ... sad" fell, whatever was said calmly in between).
    strong = [s for s in segs if top(pr[s["id"]])[0] not in ("neutral", "calm")]
    segs = strong if len(strong) >= 2 else segs
    n = max(1, len(segs) // 3)
    first, last = segs[:n], segs[-n:]
    va, _ = _mean_dim(ctx, first, axis)
    vb, _ = _mean_dim(ctx, last, axis)
    diff = vb - va
    if axis == "valence" and abs(diff) < CHANGE_MIN and all(top(pr[s["id"]])[0] in ("neutral", "calm")
                                                             for s in first + last):
        # A voice that carries no feeling may still say it ("I'm worried" ... "that's a relief"): valence by the words.
        wa, wb = _word_valence(first), _word_valence(last)
        if wa != wb:
            diff = (wb - wa) * CHANGE_MIN * 2
    verdict = "stayed the same" if abs(diff) < CHANGE_MIN else (WORDS[axis][2] if diff > 0 else WORDS[axis][3])
    cited = [ctx.evidence(s, "emotion") for s in (first[:2] + last[-2:])]
    labels = [top(pr[s["id"]])[0] for s in segs]
    return Result(verdict, f"{spec.subject.describe().capitalize()}'s {axis} {verdict}: {va:.2f} in the first part "
                  f"({format_clock(first[0]['start_s'])}-{format_clock(first[-1]['end_s'])}) against {vb:.2f} in the "
                  f"second ({format_clock(last[0]['start_s'])}-{format_clock(last[-1]['end_s'])}); labels in order: "
                  f"{', '.join(labels[:8])}. {cites(cited)}", cited, claim)


RELIEF = re.compile(r"\breliev\w*|\brelief\b|\bthank (goodness|god|heavens)\b|\bphew\b|\b(good|great) news\b|\breassur\w*", re.I)


def _word_valence(segs: list[dict]) -> int:
    """+1 / -1 by the feeling words said (not negated), 0 for none: how the words, not the voice, feel."""
    score = 0
    for s in segs:
        for sent in re.split(r"(?<=[.!?])\s+", s["text"].lower()):
            if re.search(r"\b(not|n't|never|no)\b", sent):
                continue
            score += bool(lx.EMOTIONS["happy"].search(sent)) + bool(RELIEF.search(sent))
            score -= sum(bool(lx.EMOTIONS[e].search(sent)) for e in ("sad", "angry", "fearful", "disgust"))
    return (score > 0) - (score < 0)


def _about(text: str, topic: list[str]) -> bool:
    """At least half the topic's words (by stem; ASR drops some) are in the text."""
    words = [w[:5] for w in re.findall(r"[a-z']+", text.lower())]
    return sum(any(w.startswith(t[:5]) for w in words) for t in topic) >= max(1, len(topic) / 2)


def cue_probs(ctx: AnswerContext) -> dict[str, float] | None:
    """The emotion example clip's class probabilities (read once per question)."""
    if "_cue_p" not in ctx.__dict__:
        wav = ctx.cue_wavs.get("emotion")
        ctx.__dict__["_cue_p"] = predict(ctx, wav) if wav is not None else None
    return ctx.__dict__["_cue_p"]


def cue_emotion(ctx: AnswerContext) -> str | None:
    p = cue_probs(ctx)
    return max(p, key=p.get) if p else None


def predict(ctx: AnswerContext, wav) -> dict[str, float]:
    """The emotion head on a clip (an example clip, or speech the index skipped)."""
    from harp_desktop import weights
    from harp_desktop.index.emotion import EmotionModel

    tagger = ctx.lib.models.yamnet()  # outside get(): the cache's lock is not re-entrant
    model = ctx.lib.models.get("emotion_cue", lambda: EmotionModel(weights.model_file("emotion", "emotion_head.npz"),
                                                                    tagger=tagger))
    return model.predict(np.asarray(wav, np.float32))


def answer_locate(ctx: AnswerContext) -> Result:
    """Two clips: the speaker's voice, and an emotion (from another speaker) to find in that voice."""
    spec = ctx.spec
    label = cue_emotion(ctx) or spec.emotion
    claim = {"kind": "emotion", "label": label}
    if label is None:
        return Result("Not found", "The emotion of the example clip could not be read.", [], claim, False)
    ctx.notes.append(f"the emotion example sounds {label}")
    segs = _subject_segments(ctx, spec.subject)
    wav = ctx.cue_wavs.get("speaker")
    if wav is not None:
        closest = close_turns(ctx, wav, ctx.windows)
        if not segs and closest:
            # No turn passes the voice threshold (emotional speech moves a voice's embedding): the three
            # turns in the window closest to the clip's voice are the candidates, and the answer says so.
            segs = [s for _, s, _ in closest]
            ctx.notes.append("no turn matched the speaker clip closely; chose among the 3 closest voices in the window")
        else:
            # The voice matched, but its acted line often did not: it scores below the match threshold and
            # diarisation gives it a label of its own (docs/decisions.md, "Voice cues on CAM++, stop 28"). The
            # closest turns in the window that are still possibly this voice (same-voice threshold) are candidates.
            segs = segs + [s for _, s, same in closest if same and s not in segs]
    pr = {s["id"]: p for s in segs if (p := probs_of(ctx, s))}
    cands = [s for s in segs if s["id"] in pr]
    if not cands:
        return Result("Not found", f"No classified speech by {spec.subject.describe()} {ctx.window_words()}.", [],
                      claim, False)
    example = cue_probs(ctx)
    if example:
        # Issue 18: the example's top label and its whole class distribution against each turn's
        # (emotion_dims.cue_score; models/emotion/CUE.md); the earliest of the near-best turns answers.
        names = list(example)
        sim = cue_score(np.array([example[n] for n in names]),
                             np.array([[pr[s["id"]].get(n, 0.0) for n in names] for s in cands]))
        near = [s for s, v in zip(cands, sim, strict=True) if v >= sim.max() - SIM_TIE]
        best = min(near, key=lambda s: s["start_s"])
        how = f"similarity {float(sim[cands.index(best)]):.2f}"
        if top(pr[best["id"]])[0] != label:
            claim = {"kind": "emotion", "label": None}  # like the example by distribution, not by its top label
    else:
        ranked = sorted(cands, key=lambda s: -pr[s["id"]].get(label, 0.0))
        tops = [s for s in ranked if top(pr[s["id"]])[0] == label]
        best = min(tops, key=lambda s: s["start_s"]) if tops else ranked[0]
        how = f"p={pr[best['id']].get(label, 0.0):.2f}"
    ev = ctx.evidence(best, "emotion")
    return Result(format_clock(best["start_s"]), f"{spec.subject.describe().capitalize()} sounds most like the "
                  f"{label} example at {span(ev)} ({how}; {top(pr[best['id']])[0]} "
                  f"p={top(pr[best['id']])[1]:.2f}), saying: \"{best['text'].strip()[:140]}\".", [ev], claim)
