"""`harp`: the terminal shell over harp_desktop.api (no logic of its own)."""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import signal
import sys
import threading
from pathlib import Path

from harp_desktop import cli_eval, cli_export, cli_findings, weights

EXIT_ERROR, EXIT_USAGE = 1, 2


def _fmt_time(s: float) -> str:
    m, sec = divmod(max(0.0, s), 60)
    return f"{int(m):02d}:{sec:04.1f}"


class ProgressBar:
    """A one-line progress bar on stderr when it is a terminal; silent otherwise."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.enabled = sys.stderr.isatty()

    def __call__(self, p) -> None:
        if not self.enabled:
            return
        width = 28
        fill = int(p.fraction * width)
        eta = f" ETA {int(p.eta_s // 60)}:{int(p.eta_s % 60):02d}" if p.eta_s is not None else ""
        line = f"\r{self.label[:30]:30} [{'#' * fill}{'.' * (width - fill)}] {p.fraction * 100:5.1f}% {p.stage:<11}{eta}"
        sys.stderr.write(line.ljust(90))
        sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\r" + " " * 90 + "\r")
            sys.stderr.flush()


def _library(args):
    from harp_desktop.api import Library

    return Library(args.library)


def cmd_index(args) -> int:
    from harp_desktop.api import AudioError, Cancelled, IndexOptions

    stop = threading.Event()
    signal.signal(signal.SIGINT, lambda *a: stop.set())  # Ctrl-C: cancel cleanly at the next checkpoint
    options = IndexOptions(asr_profile=args.asr)
    if args.engine == "ray":
        from harp_desktop.cli_cluster import cmd_index_ray

        return cmd_index_ray(args, options, stop)
    results, failures = [], 0
    with _library(args) as lib:
        for p in args.paths:
            bar = ProgressBar(Path(p).name)
            try:
                res = lib.index(p, options, bar, stop.is_set)
            except (AudioError, weights.WeightsError, LookupError) as exc:
                bar.close()
                failures += 1
                results.append({"path": str(p), "error": str(exc)})
                print(f"harp: error: {exc}", file=sys.stderr)
                continue
            except Cancelled:
                bar.close()
                print("harp: cancelled; finished stages are kept and the next run resumes", file=sys.stderr)
                return 130
            bar.close()
            results.append(dataclasses.asdict(res))
            if not args.json:
                status = "already indexed" if not res.ran else f"indexed ({', '.join(res.ran)})"
                print(f"{res.path}: {status}; sha256 {res.sha256[:12]}, {_fmt_time(res.duration_s)}")
                for note in res.notes:
                    print(f"  note: {note}")
    if args.json:
        print(json.dumps({"recordings": results}, ensure_ascii=False))
    return EXIT_ERROR if failures else 0


def _fmt_answer(a) -> str:
    lines = [a.answer, "", a.rationale]
    if not a.supported:
        lines.append("(supported: false: no retrieved evidence backs this answer)")
    if a.evidence:
        lines += ["", "Evidence:"]
        for e in a.evidence[:20]:
            tags = f"  [{', '.join(e.labels[:3])}]" if e.labels else ""
            lines.append(f"  {_fmt_time(e.start_s)}-{_fmt_time(e.end_s)}  {e.speaker or '-'}: {e.text[:90]}{tags}")
        if len(a.evidence) > 20:
            lines.append(f"  ... {len(a.evidence) - 20} more")
    for n in a.notes:
        lines.append(f"note: {n}")
    lines.append(f"({a.timings_s.get('total', 0):.2f} s; planner: {a.models.get('planner')}; "
                 f"model: {a.models.get('llm') or 'none (--no-llm)'})")
    return "\n".join(lines)


def cmd_ask(args) -> int:
    from harp_desktop.api import AudioError, Cancelled, IndexOptions

    llm = None
    if not args.no_llm:
        from harp_desktop.agent.llm import LLMError, load_llm

        try:
            llm = load_llm(args.llm)
        except LLMError as exc:
            print(f"harp: error: {exc}", file=sys.stderr)
            return EXIT_ERROR
    with _library(args) as lib:
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
        print(_fmt_answer(a))
    return 0


def cmd_show(args) -> int:
    with _library(args) as lib:
        data = lib.transcript(args.recording)
    if args.json:
        print(json.dumps(data, ensure_ascii=False))
        return 0
    rec = data["recording"]
    print(f"{rec['name']}  ({_fmt_time(rec['duration_s'])}, sha256 {rec['sha256'][:12]})")
    names = {s["id"]: s["name"] for s in data["speakers"]}
    print("speakers: " + (", ".join(f"{k} ({v})" if k != v else k for k, v in names.items()) or "none"))
    if rec["note"]:
        print(f"note: {rec['note']}")
    items = [(s["start_s"], f"[{_fmt_time(s['start_s'])}-{_fmt_time(s['end_s'])}] {names.get(s['speaker'], s['speaker'] or '?')}: {s['text']}") for s in data["segments"]]
    items += [(e["start_s"], f"[{_fmt_time(e['start_s'])}-{_fmt_time(e['end_s'])}] <{e['label']}> ({e['score']:.2f})") for e in data["events"]]
    for _, line in sorted(items, key=lambda x: x[0]):
        print(line)
    return 0


def cmd_models(args) -> int:
    rows = weights.status()
    if args.json:
        print(json.dumps({"models": [dataclasses.asdict(r) for r in rows]}, ensure_ascii=False))
        return 0
    for r in rows:
        state = "ok" if r.checksum_ok else ("CHECKSUM FAILED" if r.present else ("unavailable" if r.note.startswith("unavailable") else "absent"))
        print(f"{r.key:12} {state:16} {r.role}")
        print(f"{'':12} licence: {r.licence}; from {', '.join(r.packages)}")
        if r.note:
            print(f"{'':12} {r.note}")
    profiles = ", ".join(f"{k}{' (default)' if k == 'base' else ''}" for k in weights.ASR_PROFILES)
    print(f"ASR profiles: {profiles}")
    return 0 if all(r.checksum_ok or "unavailable" in r.note for r in rows) else EXIT_ERROR


def cmd_speaker(args) -> int:
    if args.name is None and args.role is None:
        print("harp: error: give a name, --role patient|clinician|other, or both", file=sys.stderr)
        return EXIT_USAGE
    with _library(args) as lib:
        if args.name is not None:
            lib.rename_speaker(args.recording, args.speaker, args.name)
            print(f"{args.speaker} is now '{args.name}'")
        if args.role is not None:
            lib.set_role(args.recording, args.speaker, args.role)
            print(f"{args.speaker}'s role is now {args.role} (set by hand: kept when the recording is re-indexed)")
    return 0


def cmd_delete(args) -> int:
    with _library(args) as lib:
        rec = lib.recording(args.recording)
        if not args.yes:
            if not sys.stdin.isatty():
                print("harp: error: deleting needs confirmation; pass --yes", file=sys.stderr)
                return EXIT_USAGE
            reply = input(f"Delete '{rec['name']}' ({rec['sha256'][:12]}) and everything derived from it? [y/N] ")
            if reply.strip().lower() not in ("y", "yes"):
                print("nothing deleted")
                return 0
        gone = lib.delete_recording(rec["sha256"])
    print(f"deleted {gone.name} ({gone.sha256[:12]}): {gone.rows} rows, {len(gone.files)} files or folders; "
          "the original recording file was not touched")
    return 0


def build_parser() -> argparse.ArgumentParser:
    from harp_desktop import cli_cluster

    ap = argparse.ArgumentParser(prog="harp", description="HARP Desktop: index and search long recordings, offline.")
    ap.add_argument("--version", action="version", version="harp-desktop 0.1.0")
    sub = ap.add_subparsers(dest="command", required=True)
    lib_help = "library folder (default: $HARP_LIBRARY or the user data folder)"

    p = sub.add_parser("index", help="index recordings into the library")
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.add_argument("--library", default=os.environ.get("HARP_LIBRARY"), help=lib_help)
    p.add_argument("--asr", default="base", choices=list(weights.ASR_PROFILES), help="ASR profile")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    cli_cluster.add_engine_options(p)  # --engine ray, --address, --workers, --threads
    p.set_defaults(func=cmd_index)

    p = sub.add_parser("show", help="print a recording's transcript with speakers and events")
    p.add_argument("recording", metavar="RECORDING", help="path or sha256 prefix")
    p.add_argument("--library", default=os.environ.get("HARP_LIBRARY"), help=lib_help)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_show)

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
    p.add_argument("--library", default=os.environ.get("HARP_LIBRARY"), help=lib_help)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_ask)

    p = sub.add_parser("models", help="list model weights, presence, checksum status and licence")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_models)

    p = sub.add_parser("speaker", help="name a speaker or set its role, e.g. harp speaker REC SPEAKER_1 'Dr Patel' "
                                       "--role clinician")
    p.add_argument("recording")
    p.add_argument("speaker")
    p.add_argument("name", nargs="?", help="display name (optional when --role is given)")
    p.add_argument("--role", choices=["patient", "clinician", "other"], help="set the speaker's role by hand")
    p.add_argument("--library", default=os.environ.get("HARP_LIBRARY"), help=lib_help)
    p.set_defaults(func=cmd_speaker)

    p = sub.add_parser("delete", help="delete a recording's index, answers and caches (not the recording file)")
    p.add_argument("recording", metavar="RECORDING", help="path or sha256 prefix")
    p.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    p.add_argument("--library", default=os.environ.get("HARP_LIBRARY"), help=lib_help)
    p.set_defaults(func=cmd_delete)

    cli_eval.add_parsers(sub, lib_help)  # eval, questions
    cli_cluster.add_parsers(sub, lib_help)  # library export|import
    cli_export.add_parsers(sub, lib_help)  # report, export, audit
    cli_findings.add_parsers(sub, lib_help)  # findings
    return ap


def main(argv: list[str] | None = None) -> int:
    from harp_desktop.cli_library import prompt_passphrase
    from harp_desktop.store import dbapi, unlock

    args = build_parser().parse_args(argv)
    unlock.set_prompt(prompt_passphrase)  # an encrypted library asks on the terminal (or $HARP_PASSPHRASE)
    try:
        return args.func(args)
    except (LookupError, weights.WeightsError, RuntimeError, ValueError) as exc:
        msg = exc.args[0] if isinstance(exc, LookupError) and exc.args else exc
        print(f"harp: error: {' '.join(str(msg).split())}", file=sys.stderr)
        return EXIT_ERROR
    except (OSError, *dbapi.Error) as exc:  # full disk, read-only or damaged library: one line, no traceback
        from harp_desktop.errors import user_message

        print(f"harp: error: {user_message(exc)}", file=sys.stderr)
        return EXIT_ERROR


if __name__ == "__main__":
    sys.exit(main())
