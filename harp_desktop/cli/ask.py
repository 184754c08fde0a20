"""`harp ask RECORDING QUESTION`: the terminal shell over Library.ask (indexes the file first if needed)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from harp_desktop import weights
from harp_desktop.cli.common import EXIT_ERROR, ProgressBar, add_library_option, fmt_time, open_library
from harp_desktop.types import is_absence


def format_answer(a) -> str:
    lines = [a.answer, "", a.rationale]
    if is_absence(a.to_json()):
        lines.append("(nothing to cite: the recording was searched and nothing was found)")
    elif not a.supported:
        lines.append("(supported: false: no retrieved evidence backs this answer)")
    if a.evidence:
        lines += ["", "Evidence:"]
        for e in a.evidence[:20]:
            tags = f"  [{', '.join(e.labels[:3])}]" if e.labels else ""
            lines.append(f"  {fmt_time(e.start_s)}-{fmt_time(e.end_s)}  {e.speaker or '-'}: {e.text[:90]}{tags}")
        if len(a.evidence) > 20:
            lines.append(f"  ... {len(a.evidence) - 20} more")
    for n in a.notes:
        lines.append(f"note: {n}")
    lines.append(f"({a.timings_s.get('total', 0):.2f} s; planner: {a.models.get('planner')}; "
                 f"model: {a.models.get('llm') or 'none (--no-llm)'})")
    return "\n".join(lines)


def cmd_ask(args: argparse.Namespace) -> int:
    from harp_desktop.api import AudioError, Cancelled, IndexOptions

    llm = None
    if not args.no_llm:
        from harp_desktop.agent.llm import LLMError, load_llm

        try:
            llm = load_llm(args.llm)
        except LLMError as exc:
            print(f"harp: error: {exc}", file=sys.stderr)
            return EXIT_ERROR
    with open_library(args) as lib:
        try:
            lib.recording(args.recording)
        except LookupError:
            if not Path(args.recording).exists():
                raise
            bar = ProgressBar(Path(args.recording).name)
            try:
                lib.index(args.recording, IndexOptions(asr_profile=args.asr), bar)
            except (AudioError, Cancelled) as exc:
                bar.close()
                print(f"harp: error: {exc or 'cancelled'}", file=sys.stderr)
                return EXIT_ERROR
            bar.close()
        try:
            from harp_desktop.agent.audio_evidence import AudioModelConfig

            a = lib.ask(args.recording, args.question, args.cue, llm=llm, retrieval=args.retrieval,
                        evidence=args.evidence, fusion=args.fusion, two_pass=not args.single_pass,
                        audio=AudioModelConfig.resolve(args.audio_model, args.audio_projector),
                        speaker_cue=args.speaker_cue, emotion_cue=args.emotion_cue)
        except AudioError as exc:
            print(f"harp: error: example clip: {exc}", file=sys.stderr)
            return EXIT_ERROR
    if args.json:
        print(json.dumps(a.to_json(), ensure_ascii=False))
    else:
        print(format_answer(a))
    return 0


def add_parsers(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("ask", help="ask a question about a recording (indexes it first if needed)")
    p.add_argument("recording", metavar="RECORDING", help="path or sha256 prefix")
    p.add_argument("question")
    p.add_argument("--cue", help="an example clip: a voice or a sound to look for")
    p.add_argument("--speaker-cue", metavar="CLIP", help="a clip of the speaker the question is about (two-clip questions)")
    p.add_argument("--emotion-cue", metavar="CLIP", help="a clip of the emotion to find (any speaker)")
    p.add_argument("--retrieval", default="hybrid", choices=["hybrid", "keyword", "vector"])
    p.add_argument("--evidence", default="metadata", choices=["metadata", "audio", "multimodal"],
                   help="audio/multimodal play evidence clips to an audio-capable GGUF + projector (not bundled); "
                        "without one, a note and the metadata path")
    p.add_argument("--audio-model", metavar="GGUF", help="audio-capable language model (default $HARP_AUDIO_MODEL)")
    p.add_argument("--audio-projector", metavar="GGUF",
                   help="its multimodal projector, mmproj (default $HARP_AUDIO_PROJECTOR)")
    p.add_argument("--fusion", default="rrf", choices=["rrf", "harp", "calibrated"])
    p.add_argument("--no-llm", action="store_true", help="rule planner + extractive answers; no language model")
    p.add_argument("--llm", default="qwen1.5b", help="qwen1.5b (default), qwen0.5b or smollm2")
    p.add_argument("--single-pass", action="store_true", help="one reasoning pass instead of two (faster)")
    p.add_argument("--asr", default="base", choices=list(weights.ASR_PROFILES), help="ASR profile if indexing")
    add_library_option(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_ask)
